#pragma once

class QMainWindow;
class QMenu;
class TriageView;

// The Go menu: Find Buffer (Ctrl+F), Next / Previous Difference (N / Shift+N). Its shortcuts
// work from anywhere in the window (a line edit still takes N as text), so the element panel's
// own N / Shift+N are switched off while it sits in the window.
QMenu* addGoMenu(QMainWindow* window, TriageView* triage);

#pragma once

class QMainWindow;
class QMenu;
class TriageView;

// View: a checkable action per pane of the triage view, and Reset Layout (every pane shown, at
// the default proportions).
QMenu* addViewMenu(QMainWindow* window, TriageView* triage);

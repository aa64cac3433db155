#pragma once

#include <QString>

class QMainWindow;
class QMenu;

// Help: Keyboard Shortcuts (the menu bar's own shortcuts), the user guide, About.
QMenu* addHelpMenu(QMainWindow* window);

// The user guide (docs/gui.md) beside an installed binary (share/doc/dumpscope), else in the
// source tree it was built from; empty when neither is there.
QString userGuidePath();

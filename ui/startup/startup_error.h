#pragma once

#include <QString>

// A reason the window cannot start: arguments it cannot use, a schema it must refuse. It always
// goes to stderr ("dumpscope: …"), for a terminal and for scripts. Started from a desktop launcher
// the window has no terminal and stderr goes nowhere, so where windows can be shown the same
// message also opens in a dialog before the program exits.
void reportStartupError(const QString& message, bool showDialog);

// True when the platform shows windows to a person (not offscreen or minimal): where a dialog
// can be read, and where a test's run of the binary must not wait for one to be closed.
bool platformShowsWindows();

#pragma once

#include "dumpscope/result.h"

#include <QString>

class QWidget;

// What to tell a person when an analysis could read none of its buffers: every file refused or
// unreadable (a malformed .npy, a torch.save file cut short). Empty when some buffer was read.
// Lists the first few errors, each naming its file and what is wrong.
QString unreadPairMessage(const dumpscope::Analysis& analysis);

// Opens that message in a dialog, without blocking: a window started from a desktop launcher
// has no terminal, so the errors the CLI prints on stderr would otherwise be seen nowhere but in
// the buffer list's tooltips.
void showUnreadPairDialog(QWidget* parent, const QString& message);

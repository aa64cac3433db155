#pragma once

#include "dumpscope/analyze.h"

#include <QStringList>

// Every buffer name of the analysis, sorted, each once (a name dumped at many steps or ranks is
// one entry): what the name search completes from.
QStringList sortedBufferNames(const dumpscope::Analysis& analysis);

#pragma once

// The two-run comparison with a progress bar on a terminal (cli_terminal.h), which counts both
// runs' bytes of each planned buffer.

#include "dumpscope/analyze.h"

#include <iosfwd>
#include <string>

namespace dumpscope {

// analyze(runA, runB, options), with a progress bar on `err` when stderr is a terminal and the
// pair holds kProgressMinBytes or more; a bar is preceded by a note on the first pairs whose
// lengths differ (each read whole).
Analysis analyzeWithProgress(const std::string& runA, const std::string& runB,
                             const AnalyzeOptions& options, std::ostream& err);

} // namespace dumpscope

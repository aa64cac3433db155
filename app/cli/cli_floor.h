#pragma once

// --floor RERUN…: reruns of the base's build, each compared with the base with the same options,
// whose envelope of run-to-run noise the candidates are then read over.

#include "dumpscope/analyze.h"
#include "dumpscope/noise_floor.h"

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace dumpscope {

// The base against each rerun in turn, in `pairs`. False, after a message naming the rerun on
// `err`, when a rerun's directory (or the base's) is missing, unreadable or holds no dumps:
// a floor built without it would call noise a divergence.
bool analyzeFloorRuns(const std::string& base, const std::vector<std::string>& reruns,
                      const AnalyzeOptions& options, std::ostream& err,
                      std::vector<Analysis>& pairs);

} // namespace dumpscope

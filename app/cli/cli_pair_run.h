#pragma once

// dumpscope-cli RUN_A RUN_B: the two runs compared (over the noise floor of --floor's reruns when
// given), the problems on stderr, the text or JSON on stdout and the report file. Kept apart from
// cli.cpp, which calls it with the parsed options.

#include "dumpscope/analyze.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace dumpscope {

struct PairCliRequest {
    std::string runA, runB;
    AnalyzeOptions options;
    // --floor: reruns of run A's build, whose noise floor the pair is read over; empty without.
    std::vector<std::string> floorRuns;
    bool json = false;
    bool quiet = false;
    bool strict = false;
    std::string report; // "" for none
    bool colorOut = false, colorErr = false;
};

// Returns the exit code: 0 all equal, 1 divergence, 2 a missing input, a buffer that could not be
// compared, a rerun of --floor that could not be read, a report that could not be written, or,
// with `strict`, a buffer in one run only or an unclassified file.
int runPairCli(const PairCliRequest& request, std::ostream& out, std::ostream& err);

} // namespace dumpscope

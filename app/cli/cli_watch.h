#pragma once

// dumpscope-cli RUN_A RUN_B --watch: follows two runs that are still dumping and prints one
// line per step as each completes. Kept apart from cli.cpp, which calls it with the parsed
// options.

#include "dumpscope/analyze.h"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

namespace dumpscope {

struct WatchRequest {
    std::string runA, runB;
    AnalyzeOptions options;                 // options.steps, when given, limits the steps reported
    std::optional<std::uint64_t> untilStep; // stop once this step (or a later one) is reported
    // The settle interval of StepCompletion (dumpscope/step_completion.h): a run is done with a
    // step it has not moved on from once the step's files there have kept their names, sizes and
    // modification times this long.
    double settleSeconds = 1.0;
    double pollSeconds = 0.5;
    bool strict = false;
    std::string report; // written at the end, "" for none
    bool colorOut = false, colorErr = false;
};

// Polls both runs until SIGINT or SIGTERM, or until `untilStep` is reported, then prints the
// verdict over the steps reported and returns its exit code (0 equal, 1 divergence, 2 a run
// directory missing, unreadable or without dumps, nothing reported, or a buffer that could not be
// compared).
//
// Each poll lists both runs and asks StepCompletion (dumpscope/step_completion.h) which steps are
// complete: a step is complete when it has files in both runs and each run is done with it (that
// run has files of a later step, or the step's files there have kept still for `settleSeconds`).
// A complete step's buffers are then compared (through a ResultCache: unchanged files are never
// read twice); a buffer that changed while being read starts the step's settle interval again.
int runWatch(const WatchRequest& request, std::ostream& out, std::ostream& err);

// The line printed for one completed step, e.g.
// "step 2: DIVERGE  diverging: H, J  equal: G, I, K  first divergent: q_logits (group H,
// rounding)". `analysis` holds that one step (its verdict's root cause names the first divergent
// buffer).
std::string watchStepLine(const Analysis& analysis, bool color = false);

} // namespace dumpscope

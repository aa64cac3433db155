#pragma once

#include "dumpscope/kind.h"
#include "dumpscope/result.h"
#include "dumpscope/stats.h"

#include <QString>

// How a pair is judged, as the user sets it in Analysis → Analysis Settings: the tolerances,
// whether the verdict follows them, and the rounding/numeric threshold. The CLI's --atol,
// --rtol, --ulp, --verdict-tolerance and --rounding-threshold.
struct AnalysisSettings {
    dumpscope::Tolerance tolerance; // none: bitwise only
    bool verdictTolerance = false;
    double roundingThreshold = dumpscope::kDefaultRoundingThreshold;

    friend bool operator==(const AnalysisSettings& x, const AnalysisSettings& y) {
        return x.tolerance.atol == y.tolerance.atol && x.tolerance.rtol == y.tolerance.rtol &&
               x.tolerance.ulp == y.tolerance.ulp && x.verdictTolerance == y.verdictTolerance &&
               x.roundingThreshold == y.roundingThreshold;
    }
};

// What an analysis was judged with, in a line for the status bar: "bitwise" or
// "tolerance atol 1e-06, ulp 4 (verdict bitwise)", plus a non-default rounding threshold and
// the noise floor the pair was read over.
QString toleranceSummary(const dumpscope::Analysis& analysis);

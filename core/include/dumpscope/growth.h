#pragma once

#include "dumpscope/result.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dumpscope {

// One buffer followed across steps: a one-step event looks different from a divergence that
// amplifies step after step.
struct GrowthPoint {
    std::uint64_t step = 0;
    Status status = Status::missing; // missing when the buffer was not dumped at that step
    std::uint64_t nDiff = 0;
    double maxAbsDelta = 0;
};

struct GrowthSeries {
    std::string group;
    std::string name;
    std::vector<GrowthPoint> points; // one per Analysis::steps entry
    bool anyDifference() const;
};

// Every buffer of the analysis (schema order, then unclassified by name), one point per step.
std::vector<GrowthSeries> growthSeries(const Analysis& analysis);

// One buffer's series, the same as its entry in growthSeries(), from the indices into
// analysis.buffers of that buffer's results (any order; others are ignored). Costs what those
// results are, not the whole analysis: a view shows the series of a few rows at a time.
GrowthSeries growthSeriesOf(const Analysis& analysis, const std::string& group,
                            const std::string& name, const std::vector<std::size_t>& results);

} // namespace dumpscope

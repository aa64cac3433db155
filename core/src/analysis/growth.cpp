#include "dumpscope/growth.h"

#include <algorithm>
#include <map>

namespace dumpscope {

bool GrowthSeries::anyDifference() const {
    for (const auto& p : points)
        if (differsBitwise(p.status)) return true;
    return false;
}

namespace {

GrowthSeries emptySeries(const Analysis& an, const std::string& group, const std::string& name) {
    GrowthSeries s{group, name, {}};
    s.points.reserve(an.steps.size());
    for (auto step : an.steps)
        s.points.push_back({step, Status::missing, 0, 0});
    return s;
}

// The point a compared buffer gives its series; nothing for one not compared yet.
void place(GrowthPoint& p, const BufferResult& b) {
    if (b.pending) return;
    p.status = b.status;
    p.nDiff = b.stats.nDiff;
    p.maxAbsDelta = b.stats.maxAbsDelta;
}

} // namespace

std::vector<GrowthSeries> growthSeries(const Analysis& an) {
    std::vector<GrowthSeries> series;
    std::map<std::pair<std::string, std::string>, std::size_t> row; // (group, name) -> series
    auto seriesOf = [&](const std::string& group, const std::string& name) -> GrowthSeries& {
        auto [it, added] = row.try_emplace({group, name}, series.size());
        if (added) series.push_back(emptySeries(an, group, name));
        return series[it->second];
    };
    if (an.schema)
        for (const auto& g : an.schema->groups)
            for (const auto& b : g.buffers)
                seriesOf(g.id, b.name);
    std::map<std::uint64_t, std::size_t> column;
    for (std::size_t i = 0; i < an.steps.size(); ++i)
        column[an.steps[i]] = i;
    for (const auto& b : an.buffers) {
        auto c = column.find(b.step);
        if (c == column.end() || b.pending) continue;
        place(seriesOf(b.group, b.name).points[c->second], b);
    }
    return series;
}

GrowthSeries growthSeriesOf(const Analysis& an, const std::string& group, const std::string& name,
                            const std::vector<std::size_t>& results) {
    GrowthSeries series = emptySeries(an, group, name);
    for (std::size_t i : results) {
        if (i >= an.buffers.size()) continue;
        const BufferResult& b = an.buffers[i];
        if (b.group != group || b.name != name) continue;
        const auto c = std::lower_bound(an.steps.begin(), an.steps.end(), b.step);
        if (c == an.steps.end() || *c != b.step) continue;
        place(series.points[static_cast<std::size_t>(c - an.steps.begin())], b);
    }
    return series;
}

} // namespace dumpscope

#include "dumpscope/growth.h"

#include <map>

namespace dumpscope {

bool GrowthSeries::anyDifference() const {
    for (const auto& p : points)
        if (differsBitwise(p.status)) return true;
    return false;
}

std::vector<GrowthSeries> growthSeries(const Analysis& an) {
    std::vector<GrowthSeries> series;
    std::map<std::pair<std::string, std::string>, std::size_t> row; // (group, name) -> series
    auto seriesOf = [&](const std::string& group, const std::string& name) -> GrowthSeries& {
        auto [it, added] = row.try_emplace({group, name}, series.size());
        if (added) {
            GrowthSeries s{group, name, {}};
            for (auto step : an.steps) s.points.push_back({step, Status::missing, 0, 0});
            series.push_back(std::move(s));
        }
        return series[it->second];
    };
    if (an.schema)
        for (const auto& g : an.schema->groups)
            for (const auto& b : g.buffers) seriesOf(g.id, b.name);
    std::map<std::uint64_t, std::size_t> column;
    for (std::size_t i = 0; i < an.steps.size(); ++i) column[an.steps[i]] = i;
    for (const auto& b : an.buffers) {
        auto c = column.find(b.step);
        if (c == column.end() || b.pending) continue;
        GrowthPoint& p = seriesOf(b.group, b.name).points[c->second];
        p.status = b.status;
        p.nDiff = b.stats.nDiff;
        p.maxAbsDelta = b.stats.maxAbsDelta;
    }
    return series;
}

} // namespace dumpscope

#include "analysis/root_cause.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dumpscope::detail {

namespace {

bool inProductionOrder(const BufferResult* x, const BufferResult* y) {
    if (x->dumpOrder != y->dumpOrder) return x->dumpOrder < y->dumpOrder;
    return x->name < y->name;
}

} // namespace

void findOwnRoot(const Analysis& an, RootCause& root) {
    const std::uint64_t step = *root.step;
    auto divergent = [&](const BufferResult& b) {
        return !b.pending && countsAsDivergent(an, b.status);
    };
    std::map<std::uint64_t, std::vector<const BufferResult*>> byRank;
    for (const auto& b : an.buffers)
        if (b.step == step) byRank[b.rank.value_or(0)].push_back(&b);
    std::vector<const BufferResult*> roots, downstream;
    std::set<std::uint64_t> ranks;
    for (auto& [rank, buffers] : byRank) {
        std::sort(buffers.begin(), buffers.end(), inProductionOrder);
        std::unordered_map<std::string_view, const BufferResult*> byName;
        for (const BufferResult* b : buffers)
            byName.emplace(b->name, b);
        bool anyBefore = false;
        for (const BufferResult* b : buffers) {
            if (!divergent(*b)) continue;
            if (b->rank) ranks.insert(*b->rank);
            bool isRoot = !anyBefore;
            // Known inputs decide; unknown ones leave it to production order, so a buffer is
            // never a root merely because nothing was recorded of what fed it.
            if (b->inputs)
                isRoot = std::none_of(b->inputs->begin(), b->inputs->end(), [&](const auto& in) {
                    const auto it = byName.find(in);
                    return it != byName.end() && divergent(*it->second);
                });
            anyBefore = true;
            (isRoot ? roots : downstream).push_back(b);
        }
    }
    root.ranks.assign(ranks.begin(), ranks.end());
    if (roots.empty()) return;
    root.order = roots.front()->orderSource;
    std::set<std::string_view> rootNames, groups, later;
    for (const BufferResult* b : roots) {
        root.sources.push_back(
            {b->group, b->name, b->dtype, b->kind, b->inputs.has_value(), {}, b->rank});
        if (rootNames.insert(b->name).second) root.buffers.push_back(b->name);
        if (groups.insert(b->group).second) root.groups.push_back(b->group);
    }
    for (const BufferResult* b : downstream)
        if (!rootNames.count(b->name) && later.insert(b->name).second)
            root.downstream.push_back(b->name);
    const BufferResult* first = roots.front();
    root.earliest = first->group + "/" + first->name;
    root.earliestRank = first->rank;
}

} // namespace dumpscope::detail

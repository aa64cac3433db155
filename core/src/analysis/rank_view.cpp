#include "dumpscope/rank_view.h"

#include "dumpscope/analyze.h"

#include <algorithm>
#include <set>

namespace dumpscope {

std::vector<std::uint64_t> ranksOf(const Analysis& an) {
    std::set<std::uint64_t> ranks;
    for (const auto& b : an.buffers)
        if (b.rank) ranks.insert(*b.rank);
    return {ranks.begin(), ranks.end()};
}

Analysis rankView(const Analysis& an, std::uint64_t rank) {
    Analysis view = an;
    view.buffers.clear();
    view.unclassified.clear();
    for (const auto& b : an.buffers) {
        if (b.rank != rank) continue;
        view.buffers.push_back(b);
        if (b.group == kOtherGroup) view.unclassified.push_back(b.fileName);
    }
    summarize(view);
    return view;
}

RankOverview rankOverview(const Analysis& an) {
    RankOverview o;
    o.steps = an.steps;
    o.ranks = ranksOf(an);
    o.cells.assign(o.steps.size() * o.ranks.size(), RankCell{});
    for (const auto& b : an.buffers) {
        if (!b.rank) continue;
        const auto step = std::lower_bound(o.steps.begin(), o.steps.end(), b.step);
        const auto rank = std::lower_bound(o.ranks.begin(), o.ranks.end(), *b.rank);
        if (step == o.steps.end() || *step != b.step) continue;
        RankCell& cell = o.cells[std::size_t(step - o.steps.begin()) * o.ranks.size() +
                                 std::size_t(rank - o.ranks.begin())];
        if (b.pending) {
            ++cell.nPending;
            continue;
        }
        if (countsAsDivergent(an, b.status)) ++cell.nDivergent;
        if (cellSeverity(b.status) > cellSeverity(cell.status)) cell.status = b.status;
    }
    return o;
}

} // namespace dumpscope

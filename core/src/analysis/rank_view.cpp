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

namespace {

// The cell a ranked buffer counts in, or null when it has no rank or its step is not a row.
RankCell* cellOf(RankOverview& o, const BufferResult& b) {
    if (!b.rank) return nullptr;
    const auto step = std::lower_bound(o.steps.begin(), o.steps.end(), b.step);
    const auto rank = std::lower_bound(o.ranks.begin(), o.ranks.end(), *b.rank);
    if (step == o.steps.end() || *step != b.step || rank == o.ranks.end() || *rank != *b.rank)
        return nullptr;
    return &o.cells[std::size_t(step - o.steps.begin()) * o.ranks.size() +
                    std::size_t(rank - o.ranks.begin())];
}

// A compared buffer's part in its cell: a status only ever makes a cell more telling, so a
// buffer counted as it is compared leaves the cell as counting them all at once would.
void count(RankCell& cell, const Analysis& an, const BufferResult& b) {
    if (countsAsDivergent(an, b.status)) ++cell.nDivergent;
    if (cellSeverity(b.status) > cellSeverity(cell.status)) cell.status = b.status;
}

} // namespace

RankOverview rankOverview(const Analysis& an) {
    RankOverview o;
    o.steps = an.steps;
    o.ranks = ranksOf(an);
    o.cells.assign(o.steps.size() * o.ranks.size(), RankCell{});
    for (const auto& b : an.buffers) {
        RankCell* cell = cellOf(o, b);
        if (!cell) continue;
        if (b.pending)
            ++cell->nPending;
        else
            count(*cell, an, b);
    }
    return o;
}

void markCompared(RankOverview& o, const Analysis& an, const std::vector<std::size_t>& compared) {
    for (const std::size_t i : compared) {
        if (i >= an.buffers.size()) continue;
        const BufferResult& b = an.buffers[i];
        RankCell* cell = cellOf(o, b);
        if (!cell || b.pending) continue;
        if (cell->nPending > 0) --cell->nPending;
        count(*cell, an, b);
    }
}

} // namespace dumpscope

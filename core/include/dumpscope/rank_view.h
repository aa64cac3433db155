#pragma once

#include "dumpscope/result.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dumpscope {

// How telling a status is in a cell of the matrix, the higher the more: diverge > error >
// within tolerance or the floor > one-sided > equal > missing. A cell shows its most telling
// buffer's status.
int cellSeverity(Status s);

// The ranks an analysis holds, ascending; empty when its runs have no ranks.
std::vector<std::uint64_t> ranksOf(const Analysis& analysis);

// The analysis as one rank sees it: that rank's buffers alone, with the matrix and the verdict
// made again over them. Buffer indices are the view's own.
Analysis rankView(const Analysis& analysis, std::uint64_t rank);

// A step of one rank: its most telling status there (missing: the rank dumped nothing at that
// step), its divergent and not yet compared buffers.
struct RankCell {
    Status status = Status::missing;
    std::size_t nDivergent = 0;
    std::size_t nPending = 0;
    bool operator==(const RankCell&) const = default;
};

// Steps × ranks of a ranked analysis: where each rank diverges.
struct RankOverview {
    std::vector<std::uint64_t> steps; // rows: Analysis::steps
    std::vector<std::uint64_t> ranks; // columns, ascending
    std::vector<RankCell> cells;      // row-major
    const RankCell& at(std::size_t row, std::size_t column) const {
        return cells[row * ranks.size() + column];
    }
};
RankOverview rankOverview(const Analysis& analysis);
// Brings an overview made of an analysis in flight up to date: the buffers at `compared` were
// pending when it was made (or last brought up to date) and are compared now in `analysis`, the
// same plan. Costs what was compared, not the run, so that a window can keep the overview of a
// run of many ranks as the results come; the result is rankOverview(analysis)'s.
void markCompared(RankOverview& overview, const Analysis& analysis,
                  const std::vector<std::size_t>& compared);

} // namespace dumpscope

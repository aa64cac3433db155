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

} // namespace dumpscope

#pragma once

// What the Markdown and HTML writers both derive from an Analysis: the matrix's columns and
// cell texts, which buffers to list, and histogram bars. Kept here so the two agree.

#include "dumpscope/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dumpscope::report {

// Rows beyond this in a table are summarised as "... and N more": a report stays pasteable
// even for hundreds of steps. The JSON report always has everything.
inline constexpr std::size_t kMaxTableRows = 200;

// Schema group ids in schema order, then any other id found in the matrix (e.g. "other").
std::vector<std::string> matrixColumns(const Analysis& analysis);
const GroupCell* findCell(const StepResult& step, const std::string& groupId);
// "=" equal, "3/11" divergent of compared, "≈2/11" differing within tolerance, "err",
// "A only", "B only", "—" missing, "…" not compared yet (cancelled analysis).
std::string cellText(const Analysis& analysis, const GroupCell* cell);
// CSS class of a cell: eq, div, tol, err, onea, oneb, miss, pend (other for any later status).
const char* cellClass(const GroupCell* cell);

// Indices into Analysis::buffers, in their order. Differing: any bitwise difference, within
// tolerance or not (a tolerated difference is still evidence worth listing).
std::vector<std::size_t> differingBuffers(const Analysis& analysis);
std::vector<std::size_t> errorBuffers(const Analysis& analysis);
std::vector<std::size_t> oneSidedBuffers(const Analysis& analysis);

// "step 2: grad_h_t_q vs ..." pieces used in tables.
std::string countText(const BufferResult& b); // "3/10", "3/10 (A 10, B 12)"
// "[17]" for a flat (or one-dimensional) buffer, "(3, 1)" for a shaped one.
std::string indexText(const BufferResult& b, std::uint64_t index);
std::string firstDiffText(const BufferResult& b); // "[17] 0.5 vs 0.50000006", "" when none
std::string kindText(const BufferResult& b);      // "rounding", "numeric, within tolerance"
// "atol 1e-06 / rtol 2e-06 / ulp 4": the smallest of each that alone would make the buffer
// within tolerance; "" where no tolerance could change its status.
std::string toPassText(const BufferResult& b);
// "atol 1e-06, ulp 4; verdict tolerant", or "" when no tolerance was given.
std::string toleranceText(const Analysis& analysis);
// Root cause kind and suggestion: "rounding — <suggestion>", or "" when there is none.
std::string rootKindText(const Verdict& verdict);

// Growth tables show at most this many steps: the first ones, where divergence starts.
inline constexpr std::size_t kMaxGrowthSteps = 24;
// A growth point as a table cell: n_diff where the buffer differs, "=" equal, "—" not dumped,
// "A only" / "B only" / "err" otherwise.
std::string growthCellText(Status status, std::uint64_t nDiff);
struct Bar {
    std::string label;
    std::uint64_t count = 0;
    int exponent = 0; // the decade or power of two: charts label the round ones
};
// One bar per decade from the lowest to the highest non-empty one (label "1e-7").
std::vector<Bar> deltaBars(const DeltaHistogram& h);
// One bar per power of two from the lowest to the highest non-empty bin (label "2^k").
std::vector<Bar> ulpBars(const UlpHistogram& h);

} // namespace dumpscope::report

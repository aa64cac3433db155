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
// "=" equal, "3/11" divergent of compared, "err", "A only", "B only", "—" missing, "…" not
// compared yet (cancelled analysis).
std::string cellText(const GroupCell* cell);
// CSS class of a cell: eq, div, err, onea, oneb, miss, pend (other for any later status).
const char* cellClass(const GroupCell* cell);

// Indices into Analysis::buffers, in their order.
std::vector<std::size_t> divergentBuffers(const Analysis& analysis);
std::vector<std::size_t> errorBuffers(const Analysis& analysis);
std::vector<std::size_t> oneSidedBuffers(const Analysis& analysis);

// "step 2: grad_h_t_q vs ..." pieces used in tables.
std::string countText(const BufferResult& b);     // "3/10", "3/10 (A 10, B 12)"
std::string firstDiffText(const BufferResult& b); // "[17] 0.5 vs 0.50000006", "" when none

struct Bar {
    std::string label;
    std::uint64_t count = 0;
};
// One bar per decade from the lowest to the highest non-empty one (label "1e-7").
std::vector<Bar> deltaBars(const DeltaHistogram& h);
// One bar per power of two from the lowest to the highest non-empty bin (label "2^k").
std::vector<Bar> ulpBars(const UlpHistogram& h);

} // namespace dumpscope::report

#pragma once

#include "dumpscope/result.h"

namespace dumpscope::detail {

// Warns of each group that is dumped at some of the analysis' steps but not at others (neither
// run has any of its buffers there): a hole in the dumps, which the matrix shows as an empty cell
// and the culprit table as "(no dump)" only at the first divergent step. Each such group is named
// once with every step it is missing at, so a hole before or after the divergence is seen too.
// Groups dumped at no step say nothing (a schema may describe more than a run dumps), and nor do
// unclassified files. Call once the plan has listed the buffers.
void warnGroupGaps(Analysis& an);

} // namespace dumpscope::detail

#pragma once

// The root cause by dataflow, decided after the culprit rows of the first divergent step.
#include "dumpscope/result.h"

namespace dumpscope::detail {

// Fills `root` (its step already set): the sources, the undecided groups and buffers with the
// inputs that kept them undecided, the groups that may be second sources, and each source's
// half-precision inputs. Leaves the kinds and the suggestion to the caller.
void findRootCause(const Analysis& analysis, const Verdict& verdict, RootCause& root);
// Fills `root`'s ranks, and its earliest buffer in dump order when the schema's dataflow says
// nothing of the sources' groups.
void findEarliest(const Analysis& analysis, RootCause& root);

// The root cause of a run in its own terms (no schema dataflow), at `root`'s step, per rank: a
// divergent buffer is a root when its captured inputs are known and none of them diverges, or,
// its inputs unknown, when no divergent buffer precedes it in production order. Fills the
// sources (roots, each with its rank), buffers, groups, downstream, order, earliest and ranks.
void findOwnRoot(const Analysis& analysis, RootCause& root);

} // namespace dumpscope::detail

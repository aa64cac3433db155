#pragma once
// Checks the tensors that every rank of a run should hold alike, rank against rank.
#include "dumpscope/cross_rank.h"
#include "dumpscope/result.h"

#include <vector>

namespace dumpscope::detail {

// For every buffer a rule names that a run holds on two ranks or more at a step (joined shards
// aside): the ranks' copies in each run are read against each other, and each rank whose copy
// is not the majority's gets a CrossRankDivergence on its buffer, which becomes a divergence of
// kind cross_rank. A copy that cannot be read is a warning, and its buffer is left as compared.
void checkReplicas(Analysis& analysis, const std::vector<ReplicatedRule>& rules);

} // namespace dumpscope::detail

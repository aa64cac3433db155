#pragma once
// Joins a run's shards of a tensor into one buffer before the two runs' buffers are paired.
#include "dumpscope/scan.h"
#include "dumpscope/shards.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace dumpscope::detail {

// By (step, name): the buffers held as shards in either run.
using ShardedPairs = std::map<std::pair<std::uint64_t, std::string>, std::shared_ptr<ShardedPair>>;

// For every buffer a rule names that either run holds on more than one rank (or that the two
// runs hold on different ranks): each run's files of it become one file at the lowest rank of
// both runs, its shape the whole tensor's, and the pieces are returned. A side whose pieces are
// not one tensor split along the axis (another type, another shape off the axis, an axis the
// shape does not have, a piece without a type or shape of its own) is that buffer's error.
ShardedPairs joinShards(RunScan& a, RunScan& b, const std::vector<ShardRule>& rules);

} // namespace dumpscope::detail

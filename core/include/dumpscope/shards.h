#pragma once

#include "dumpscope/dtype.h"
#include "dumpscope/tensor_location.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace dumpscope {

// A tensor split along one axis across a run's ranks (tensor parallelism, FSDP): every buffer
// whose whole name matches `pattern` is compared as the concatenation of its ranks' shards,
// rank order, along `axis`.
struct ShardRule {
    std::string text; // as given: "NAME_REGEX:AXIS"
    std::regex pattern;
    std::size_t axis = 0;
};

// "NAME_REGEX:AXIS" (the last colon splits them; AXIS a dimension index): the rule, or in
// `error` why it is not one.
std::optional<ShardRule> parseShardRule(const std::string& text, std::string& error);

// One rank's shard of a tensor, where its run holds it.
struct ShardPiece {
    std::uint64_t rank = 0;
    std::string fileName; // relative to the run
    std::shared_ptr<const TensorLocation> location;
    std::vector<std::uint64_t> shape;
};

// A buffer that one run or both hold as shards: each side's pieces, rank order (one piece for a
// side that holds the whole tensor), and the axis they are joined along.
// Filled by the compare: the rank of each side's piece that holds the first differing element
// (the index in the whole tensor is BufferStats::firstDiff).
struct ShardedPair {
    std::string rule;
    std::size_t axis = 0;
    std::vector<ShardPiece> a, b;
    std::optional<std::uint64_t> firstDiffRankA, firstDiffRankB;

    // The whole tensor's shape on one side: its pieces' joined along the axis.
    std::vector<std::uint64_t> wholeShape(const std::vector<ShardPiece>& side) const;
    // The piece of `side` that holds the element at `index` of the whole tensor (C order).
    std::size_t pieceAt(const std::vector<ShardPiece>& side, std::uint64_t index) const;
};

// "ranks 0, 1 in A, rank 0 in B, joined along axis 1": how the buffer was put together, and
// with `firstDiff` (an index of the whole tensor) the ranks whose shards hold that element.
std::string shardText(const ShardedPair& s, std::optional<std::uint64_t> firstDiff = {});

} // namespace dumpscope

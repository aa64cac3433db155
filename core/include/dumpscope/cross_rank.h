#pragma once

#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace dumpscope {

struct Analysis;

// A tensor that every rank of a run holds whole and alike (a LayerNorm weight under tensor
// parallelism, every parameter under data parallelism): each buffer whose whole name matches
// `pattern` is checked rank against rank within each run.
struct ReplicatedRule {
    std::string text; // as given: the NAME_REGEX
    std::regex pattern;
};

// The rule for NAME_REGEX, or in `error` why it is not one.
std::optional<ReplicatedRule> parseReplicatedRule(const std::string& text, std::string& error);

// One rank of a run whose copy of a replicated tensor is not its peers': the ranks holding the
// most common copy are the majority (the lowest rank's copy on a tie), and every other rank is
// named against the majority's lowest rank.
struct CrossRankDivergence {
    bool inA = true;        // the run that holds it: A or B
    std::uint64_t rank = 0; // the rank that disagrees
    std::uint64_t reference = 0;
    std::size_t agreeing = 0; // the majority's ranks
    std::size_t ranks = 0;    // the run's ranks that hold the tensor
    // Its first differing element (C order) and how many differ; none when it is not the same
    // length (`count` against `referenceCount` elements).
    std::optional<std::uint64_t> firstIndex;
    std::uint64_t nDiffer = 0;
    std::uint64_t count = 0, referenceCount = 0;
};

// "rank 1 of run A differs from rank 0 (1 of 2 ranks agree): 3 of 64 elements, first at index
// 5": the rank, its peers and where they part.
std::string crossRankText(const CrossRankDivergence& d);

// The cross-rank divergences of an analysis in one line: how many buffers, and the first (by
// step); empty when no rank disagrees with its peers.
std::string crossRankVerdict(const Analysis& analysis);

} // namespace dumpscope

#include "dumpscope/cross_rank.h"

#include "dumpscope/result.h"

namespace dumpscope {

std::optional<ReplicatedRule> parseReplicatedRule(const std::string& text, std::string& error) {
    if (text.empty()) {
        error = "needs a NAME_REGEX, the whole name of the tensors every rank holds alike";
        return std::nullopt;
    }
    try {
        return ReplicatedRule{text, std::regex(text, std::regex::ECMAScript)};
    } catch (const std::regex_error& e) {
        error = "\"" + text + "\" is not a regular expression (" + e.what() + ")";
        return std::nullopt;
    }
}

std::string crossRankText(const CrossRankDivergence& d) {
    std::string text = "rank " + std::to_string(d.rank) + " of run " + (d.inA ? "A" : "B") +
                       " differs from rank " + std::to_string(d.reference) + " (" +
                       std::to_string(d.agreeing) + " of " + std::to_string(d.ranks) +
                       " ranks agree): ";
    if (!d.firstIndex)
        return text + "it holds " + std::to_string(d.count) + " elements, rank " +
               std::to_string(d.reference) + " " + std::to_string(d.referenceCount);
    return text + std::to_string(d.nDiffer) + " of " + std::to_string(d.count) +
           " elements, first at index " + std::to_string(*d.firstIndex);
}

std::string crossRankVerdict(const Analysis& analysis) {
    std::size_t n = 0;
    const BufferResult* first = nullptr; // buffers are in step order
    for (const auto& b : analysis.buffers) {
        if (!b.crossRank()) continue;
        ++n;
        if (!first) first = &b;
    }
    if (!first) return {};
    return "across ranks: " + std::to_string(n) +
           " replicated buffer(s) held otherwise by a rank than by its peers; the first at step " +
           std::to_string(first->step) + ": \"" + first->name + "\" " +
           crossRankText(first->crossRank()->front());
}

} // namespace dumpscope

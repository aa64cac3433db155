#include "dumpscope/buffer_source.h"

#include "dumpscope/result.h"

namespace dumpscope {

namespace {

BufferSource sideOf(const std::filesystem::path& run, const BufferResult& buffer,
                    const std::shared_ptr<const TensorLocation>& location,
                    const std::shared_ptr<const LoggedFingerprint>& logged, bool present) {
    if (!present) return {};
    if (logged) return {run / logged->file, nullptr, logged};
    return {run / (location ? location->file : buffer.fileName), location, nullptr};
}

} // namespace

std::string BufferSource::displayName() const {
    if (logged) return path.string() + " (fingerprint only)";
    if (!location || location->key.empty()) return path.string();
    return path.string() + " [" + location->key + "]";
}

bool hasElementData(const BufferResult& b) {
    if (b.loggedA || b.loggedB) return false;
    if (!b.reading) return true;
    return !b.reading->precision && !b.reading->shards && !b.reading->crossRank.empty() &&
           !isOneSided(b.reading->pairStatus);
}

const CrossPrecision* BufferResult::precision() const {
    return reading && reading->precision ? &*reading->precision : nullptr;
}

const ShardedPair* BufferResult::shards() const {
    return reading ? reading->shards.get() : nullptr;
}

const std::vector<CrossRankDivergence>* BufferResult::crossRank() const {
    return reading && !reading->crossRank.empty() ? &reading->crossRank : nullptr;
}

std::string fullTensorsCall(const Analysis& analysis, const BufferResult& buffer) {
    std::string call;
    for (const auto& [run, logged] :
         {std::pair{&analysis.runA, &buffer.loggedA}, std::pair{&analysis.runB, &buffer.loggedB}}) {
        if (!*logged) continue;
        if (!call.empty()) call += " and ";
        call += "Capture(\"" + run->string() + "\", mode=\"full\", steps={" +
                std::to_string(buffer.step) + "})";
    }
    return call;
}

namespace {

// What the two runs hold at the buffer's rank: a cross-rank divergence overrides the status.
Status pairStatus(const BufferResult& buffer) {
    return buffer.crossRank() ? buffer.reading->pairStatus : buffer.status;
}

} // namespace

BufferSource sourceA(const Analysis& analysis, const BufferResult& buffer) {
    return sideOf(analysis.runA, buffer, buffer.locationA, buffer.loggedA,
                  pairStatus(buffer) != Status::only_in_b);
}

BufferSource sourceB(const Analysis& analysis, const BufferResult& buffer) {
    return sideOf(analysis.runB, buffer, buffer.locationB, buffer.loggedB,
                  pairStatus(buffer) != Status::only_in_a);
}

} // namespace dumpscope

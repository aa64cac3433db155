#include "dumpscope/buffer_source.h"

#include "dumpscope/result.h"

namespace dumpscope {

namespace {

BufferSource sideOf(const std::filesystem::path& run, const BufferResult& buffer,
                    const std::shared_ptr<const TensorLocation>& location, bool present) {
    if (!present) return {};
    return {run / (location ? location->file : buffer.fileName), location};
}

} // namespace

std::string BufferSource::displayName() const {
    if (!location || location->key.empty()) return path.string();
    return path.string() + " [" + location->key + "]";
}

BufferSource sourceA(const Analysis& analysis, const BufferResult& buffer) {
    return sideOf(analysis.runA, buffer, buffer.locationA, buffer.status != Status::only_in_b);
}

BufferSource sourceB(const Analysis& analysis, const BufferResult& buffer) {
    return sideOf(analysis.runB, buffer, buffer.locationB, buffer.status != Status::only_in_a);
}

} // namespace dumpscope

#include "analysis/pair_identity.h"

#include "formats/element_parts.h"

namespace dumpscope::detail {

// The side that says most about the buffer: one its reader listed over one it refused, bytes
// over a fingerprint alone (so that the bytes' own type and shape are the ones read and
// compared), a tensor whose file gives its type over a raw dump.
const DumpFile& either(const FilePair& pair) {
    if (!pair.first || !pair.second) return pair.first ? *pair.first : *pair.second;
    const auto says = [](const DumpFile& f) {
        return !f.error.empty() ? 0 : f.fingerprintOnly ? 1 : f.described ? 3 : 2;
    };
    return says(*pair.second) > says(*pair.first) ? *pair.second : *pair.first;
}

namespace {

// What a listed tensor's element type is, for telling two runs' types apart: its complex type
// when it was listed as its parts, its type of no arithmetic when compared as bytes.
std::string elementIdentity(const DumpFile& f) {
    if (detail::complexPartType(f.typeName))
        return "complex of " + std::string(dtypeName(*f.dtype));
    return f.dtype ? std::string(dtypeName(*f.dtype)) : "bytes of " + f.typeName;
}

} // namespace

// The two float precisions of a pair both of whose files describe it, one widening exactly into
// the other (precisionPair); none for a pair of one type, or of types that are not one tensor.
std::optional<CrossPrecision> acrossPrecisions(const FilePair& pair) {
    if (!pair.first || !pair.second || !pair.first->described || !pair.second->described ||
        !pair.first->dtype || !pair.second->dtype ||
        detail::complexPartType(pair.first->typeName) ||
        detail::complexPartType(pair.second->typeName))
        return std::nullopt;
    const auto types = precisionPair(*pair.first->dtype, *pair.second->dtype);
    if (!types) return std::nullopt;
    CrossPrecision p;
    p.narrow = types->first;
    p.wide = types->second;
    p.narrowInA = types->first == *pair.first->dtype;
    return p;
}

namespace {

std::string shapeText(const std::vector<std::uint64_t>& shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

} // namespace

// Why the two runs' copies of a buffer are not the same tensor, empty when they are: element
// type and shape are part of what a tensor is, so the same bytes under another type or shape
// are never equal. A raw dump's type is the schema's (`rawType`); it has no shape of its own.
std::string identityProblem(const Analysis& an, const FilePair& pair, const std::string& name,
                            DType rawType) {
    if (!pair.first || !pair.second || !pair.first->error.empty() || !pair.second->error.empty())
        return {};
    const DumpFile &a = *pair.first, &b = *pair.second;
    const auto where = an.runB.string() + "/" + b.fileName + ": tensor \"" + name + "\" ";
    if (a.described && b.described) {
        // Across precisions only the same shape is one tensor: no element lines up otherwise.
        const bool widens = acrossPrecisions(pair).has_value();
        if (elementIdentity(a) != elementIdentity(b) && (!widens || a.shape != b.shape))
            return where + "is " + b.typeName + " in run B but " + a.typeName + " in run A" +
                   (widens ? ", and has shape " + shapeText(b.shape) + " in run B but " +
                                 shapeText(a.shape) + " in run A"
                           : std::string()) +
                   "; not compared";
        if (a.shape != b.shape && a.location->count == b.location->count)
            return where + "has shape " + shapeText(b.shape) + " in run B but " +
                   shapeText(a.shape) + " in run A; not compared";
        return {};
    }
    const DumpFile* described = a.described ? &a : b.described ? &b : nullptr;
    if (!described || !described->dtype || *described->dtype == rawType) return {};
    // Named from the file that holds the tensor, with the raw dump's run and file beside it.
    const bool inA = described == &a;
    return ((inA ? an.runA : an.runB) / described->fileName).string() + ": tensor \"" + name +
           "\" is " + described->typeName + " in run " + (inA ? "A" : "B") + ", but run " +
           (inA ? "B" : "A") + "'s raw dump " +
           (inA ? an.runB / b.fileName : an.runA / a.fileName).string() + " is " +
           std::string(dtypeName(rawType)) + " by the schema; not compared";
}

} // namespace dumpscope::detail

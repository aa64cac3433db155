#include "compare/compare_fingerprint.h"

#include "dumpscope/fingerprint.h"
#include "io/source_reader.h"

#include <algorithm>
#include <memory>

namespace dumpscope::detail {

namespace {

struct SideFacts {
    std::uint64_t fingerprint = 0;
    std::string typeName;
    std::vector<std::uint64_t> shape; // empty with !shapeKnown
    bool shapeKnown = true;
    std::uint64_t count = 0;
};

BufferResult failed(Status status, std::string message, DType dtype) {
    BufferResult r;
    r.dtype = dtype;
    r.status = status;
    r.error = std::move(message);
    return r;
}

// A logged type that is none of dumpscope's (float8_e8m0fnu's f8_e8m0) is compared as its
// bytes, u8, on the side that has them: the same type, as far as the compare can tell.
bool sameType(const std::string& a, const std::string& b) {
    if (a == b) return true;
    const auto bytesOfOther = [](const std::string& x, const std::string& y) {
        return x == dtypeName(DType::u8) && !parseDType(y);
    };
    return bytesOfOther(a, b) || bytesOfOther(b, a);
}

} // namespace

std::uint64_t loggedCount(const LoggedFingerprint& logged) {
    std::uint64_t n = 1;
    for (std::uint64_t d : logged.shape)
        n *= d; // the log's reader refused a product that overflows
    return n;
}

BufferResult compareFingerprints(const BufferSource& a, const BufferSource& b, DType dtype,
                                 const CompareOptions& options, OpenedFiles* opened) {
    SideFacts facts[2];
    const BufferSource* sides[2] = {&a, &b};
    for (int s = 0; s < 2; ++s) {
        const BufferSource& side = *sides[s];
        SideFacts& f = facts[s];
        if (side.logged) {
            f = {side.logged->fingerprint, side.logged->typeName, side.logged->shape, true,
                 loggedCount(*side.logged)};
            continue;
        }
        // The side with bytes: its fingerprint computed as the capture computes it, over its
        // elements in C order, read as the byte compare reads them.
        SourceReader reader;
        const std::size_t es = dtypeSize(dtype);
        const bool isOpen =
            side.location ? reader.open(side.path, *side.location, es, ReadPattern::sequential)
                          : reader.open(side.path, ReadPattern::sequential);
        if (!isOpen)
            return failed(Status::error, reader.error() + (reader.notRegular() ? "; not read" : ""),
                          dtype);
        if (opened) (s == 0 ? opened->a : opened->b) = reader.openedIdentity();
        if (reader.size() % es != 0)
            return failed(Status::error,
                          side.path.string() + ": size " + std::to_string(reader.size()) +
                              " bytes is not a multiple of the element size " + std::to_string(es) +
                              " (" + std::string(dtypeName(dtype)) + ")",
                          dtype);
        Fingerprint fp;
        std::unique_ptr<unsigned char[]> chunk(new unsigned char[kChunkBytes]);
        bool shrank = false;
        for (std::uint64_t at = 0; at < reader.size(); at += kChunkBytes) {
            const auto n =
                static_cast<std::size_t>(std::min<std::uint64_t>(kChunkBytes, reader.size() - at));
            if (auto e = reader.readExact(chunk.get(), n, at, shrank); !e.empty())
                return failed(shrank ? Status::changed_while_reading : Status::error, e, dtype);
            fp.update(chunk.get(), n);
        }
        if (auto e = reader.changedSinceOpen(); !e.empty())
            return failed(Status::changed_while_reading, e, dtype);
        f = {fp.finish(), std::string(dtypeName(dtype)), options.shape, !options.shape.empty(),
             reader.size() / es};
    }

    BufferResult r;
    r.dtype = dtype;
    r.stats.nA = facts[0].count;
    r.stats.nB = facts[1].count;
    // A side with bytes but no shape of its own (a raw dump) is held to the logged element count.
    const bool sameShape = facts[0].shapeKnown && facts[1].shapeKnown
                               ? facts[0].shape == facts[1].shape
                               : facts[0].count == facts[1].count;
    const bool same = facts[0].fingerprint == facts[1].fingerprint &&
                      sameType(facts[0].typeName, facts[1].typeName) && sameShape;
    r.status = same ? Status::equal : Status::diverge;
    r.kind = same ? Kind::bit_identical : Kind::fingerprint_only;
    return r;
}

} // namespace dumpscope::detail

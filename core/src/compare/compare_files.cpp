// Compares one pair of dump files in bounded chunks: never more than two chunk buffers in
// memory, whatever the file size, and a file that changes under us is reported, not mixed.
#include "compare/compare_fingerprint.h"
#include "compare/compare_sides.h"
#include "dumpscope/analyze.h"
#include "dumpscope/shape.h"
#include "io/source_reader.h"

#include <algorithm>
#include <memory>

namespace dumpscope {

namespace fs = std::filesystem;

namespace {

std::string describe(const fs::path& p, const std::string& what) {
    return p.string() + ": " + what;
}

BufferResult oneSided(const BufferSource& side, DType dtype, bool sideA,
                      detail::OpenedFiles* opened) {
    BufferResult r;
    r.dtype = dtype;
    r.status = sideA ? Status::only_in_a : Status::only_in_b;
    if (side.logged) {
        (sideA ? r.stats.nA : r.stats.nB) = detail::loggedCount(*side.logged);
        return r;
    }
    detail::SourceReader f;
    if (auto err = detail::openSide(f, side, dtype); !err.empty()) {
        r.status = Status::error;
        r.error = err;
        return r;
    }
    if (opened) (sideA ? opened->a : opened->b) = f.openedIdentity();
    (sideA ? r.stats.nA : r.stats.nB) = f.size() / dtypeSize(dtype);
    return r;
}

} // namespace

namespace detail {

std::string openSide(SourceReader& file, const BufferSource& side, DType dtype) {
    const bool opened = side.location ? file.open(side.path, *side.location, dtypeSize(dtype),
                                                  ReadPattern::sequential)
                                      : file.open(side.path, ReadPattern::sequential);
    if (opened) return {};
    return file.error() + (file.notRegular() ? "; not read" : "");
}

std::string sizeProblem(const fs::path& path, std::uint64_t size, DType dtype) {
    const auto es = dtypeSize(dtype);
    if (size % es == 0) return {};
    return describe(path, "size " + std::to_string(size) +
                              " bytes is not a multiple of the element size " + std::to_string(es) +
                              " (" + std::string(dtypeName(dtype)) + ")");
}

} // namespace detail

BufferResult compareFiles(const fs::path& a, const fs::path& b, DType dtype,
                          const CompareOptions& options) {
    return compareSources({a, nullptr}, {b, nullptr}, dtype, options);
}

BufferResult compareSources(const BufferSource& a, const BufferSource& b, DType dtype,
                            const CompareOptions& options) {
    return detail::compareSides(a, b, dtype, options, nullptr);
}

BufferResult detail::compareSides(const BufferSource& a, const BufferSource& b, DType dtype,
                                  const CompareOptions& options, OpenedFiles* opened) {
    if (!a.present()) return oneSided(b, dtype, false, opened);
    if (!b.present()) return oneSided(a, dtype, true, opened);
    if (a.fingerprintOnly() || b.fingerprintOnly())
        return detail::compareFingerprints(a, b, dtype, options, opened);

    BufferResult r;
    r.dtype = dtype;
    auto fail = [&](Status s, std::string message) {
        r.status = s;
        r.error = std::move(message);
        return r;
    };
    detail::SourceReader fa, fb;
    std::string errA = detail::openSide(fa, a, dtype), errB = detail::openSide(fb, b, dtype);
    if (errA.empty()) errA = detail::sizeProblem(a.path, fa.size(), dtype);
    if (errB.empty()) errB = detail::sizeProblem(b.path, fb.size(), dtype);
    if (!errA.empty() || !errB.empty())
        return fail(Status::error, errA.empty() ? errB : errB.empty() ? errA : errA + "; " + errB);
    if (opened) *opened = {fa.openedIdentity(), fb.openedIdentity()};

    // A deflated member is held whole to its directory's size and CRC-32 once its elements
    // are read. Two members holding the same compressed bytes inflate to the same elements:
    // A's are inflated once and stand for both, verified as any other.
    bool sameStream = false;
    if (auto e = fa.sameCompressedStream(fb, sameStream); !e.empty()) return fail(Status::error, e);
    fa.checksumWholeMember();
    fb.checksumWholeMember();

    const std::size_t es = dtypeSize(dtype);
    const std::uint64_t nA = fa.size() / es, nB = fb.size() / es, common = std::min(nA, nB);
    const std::size_t chunkElems = detail::kChunkBytes / es;
    // A worker's two chunks, kept for its next pair: a run of many small buffers would otherwise
    // map and unmap 2 x 128 KiB per pair (the allocator maps blocks that large).
    thread_local const std::unique_ptr<unsigned char[]> bufA(
        new unsigned char[detail::kChunkBytes]);
    thread_local const std::unique_ptr<unsigned char[]> bufB(
        new unsigned char[detail::kChunkBytes]);
    StatsAccumulator acc(dtype, options.tolerance);
    if (options.shape.size() >= 2) acc.setShape(options.shape[0], shapeCols(options.shape));
    bool shrank = false;

    for (std::uint64_t i = 0; i < common; i += chunkElems) {
        const std::size_t n =
            static_cast<std::size_t>(std::min<std::uint64_t>(chunkElems, common - i));
        if (auto e = fa.readExact(bufA.get(), n * es, i * es, shrank); !e.empty())
            return fail(shrank ? Status::changed_while_reading : Status::error, e);
        if (sameStream) {
            acc.addPair(bufA.get(), bufA.get(), n, i);
            continue;
        }
        if (auto e = fb.readExact(bufB.get(), n * es, i * es, shrank); !e.empty())
            return fail(shrank ? Status::changed_while_reading : Status::error, e);
        acc.addPair(bufA.get(), bufB.get(), n, i);
    }
    // The longer side's tail is hashed and counted, never compared.
    for (auto* side : {&fa, &fb}) {
        const std::uint64_t n = side == &fa ? nA : nB;
        for (std::uint64_t i = common; i < n; i += chunkElems) {
            const std::size_t len =
                static_cast<std::size_t>(std::min<std::uint64_t>(chunkElems, n - i));
            if (auto e = side->readExact(bufA.get(), len * es, i * es, shrank); !e.empty())
                return fail(shrank ? Status::changed_while_reading : Status::error, e);
            if (side == &fa)
                acc.addTailA(bufA.get(), len);
            else
                acc.addTailB(bufA.get(), len);
        }
    }
    for (auto* side : {&fa, &fb})
        if (side == &fa || !sameStream)
            if (auto e = side->verifyWholeMember(); !e.empty()) return fail(Status::error, e);
    for (auto* side : {&fa, &fb})
        if (auto e = side->changedSinceOpen(); !e.empty())
            return fail(Status::changed_while_reading, e);

    r.stats = acc.finish();
    r.status = nA != nB ? Status::length_mismatch : r.stats.nDiff ? Status::diverge : Status::equal;
    r.kind = classifyKind(dtype, r.stats, nA != nB, options.roundingThreshold);
    if (r.status == Status::diverge && options.tolerance.any() && r.stats.outsideTolerance == 0)
        r.status = Status::within_tolerance;
    return r;
}

} // namespace dumpscope

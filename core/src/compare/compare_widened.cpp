#include "compare/compare_widened.h"

#include "compare/compare_sides.h"
#include "dumpscope/shape.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace dumpscope::detail {

namespace {

// Widens `n` narrow elements into `out` (little-endian wide elements) and judges each against
// the wide side's element at the same index.
void widenAndJudge(const unsigned char* narrow, const unsigned char* wide, unsigned char* out,
                   std::size_t n, std::uint64_t base, CrossPrecision& p) {
    const std::size_t es = dtypeSize(p.narrow), ws = dtypeSize(p.wide);
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint64_t bits = loadBits(p.narrow, narrow + k * es);
        const std::uint64_t widened = widenBits(p.narrow, bits, p.wide);
        for (std::size_t byte = 0; byte < ws; ++byte) // dumps are little-endian
            out[k * ws + byte] = static_cast<unsigned char>(widened >> (8 * byte));
        if (!wide) continue;
        const std::uint64_t wideBits = loadBits(p.wide, wide + k * ws);
        const RoundingJudgement j = judgeRounding(p.narrow, bits, bitsToDouble(p.wide, wideBits));
        const std::uint64_t index = base + k;
        if (j.ulps && (*j.ulps > p.maxUlps || !p.maxUlpsIndex)) {
            p.maxUlps = *j.ulps;
            p.maxUlpsIndex = index;
        }
        if (j.within) continue;
        p.nonFiniteMismatches += j.nonFiniteMismatch;
        if (p.nBeyond++ == 0) {
            p.firstBeyond = index;
            p.firstBeyondNarrowBits = bits;
            p.firstBeyondWideBits = wideBits;
        }
    }
}

} // namespace

BufferResult compareWidened(const BufferSource& a, const BufferSource& b,
                            const CrossPrecision& types, const CompareOptions& options) {
    BufferResult r;
    r.dtype = types.wide;
    auto fail = [&](Status s, std::string message) {
        r.status = s;
        r.error = std::move(message);
        return r;
    };
    const DType typeA = types.typeOf(true), typeB = types.typeOf(false);
    SourceReader fa, fb;
    std::string errA = openSide(fa, a, typeA), errB = openSide(fb, b, typeB);
    if (errA.empty()) errA = sizeProblem(a.path, fa.size(), typeA);
    if (errB.empty()) errB = sizeProblem(b.path, fb.size(), typeB);
    if (!errA.empty() || !errB.empty())
        return fail(Status::error, errA.empty() ? errB : errB.empty() ? errA : errA + "; " + errB);
    fa.checksumWholeMember();
    fb.checksumWholeMember();

    CrossPrecision p = types;
    const std::size_t esA = dtypeSize(typeA), esB = dtypeSize(typeB), ws = dtypeSize(p.wide);
    const std::uint64_t nA = fa.size() / esA, nB = fb.size() / esB, common = std::min(nA, nB);
    // Chunks of the wide type's size: the narrow side's raw chunk and its widened copy are
    // smaller or as large.
    const std::size_t chunkElems = kChunkBytes / ws;
    std::vector<unsigned char> rawA(kChunkBytes), rawB(kChunkBytes), widened(kChunkBytes);
    StatsAccumulator acc(p.wide, options.tolerance);
    if (options.shape.size() >= 2) acc.setShape(options.shape[0], shapeCols(options.shape));
    bool shrank = false;
    const bool narrowA = p.narrowInA;

    for (std::uint64_t i = 0; i < common; i += chunkElems) {
        const std::size_t n =
            static_cast<std::size_t>(std::min<std::uint64_t>(chunkElems, common - i));
        if (auto e = fa.readExact(rawA.data(), n * esA, i * esA, shrank); !e.empty())
            return fail(shrank ? Status::changed_while_reading : Status::error, e);
        if (auto e = fb.readExact(rawB.data(), n * esB, i * esB, shrank); !e.empty())
            return fail(shrank ? Status::changed_while_reading : Status::error, e);
        const unsigned char* narrow = narrowA ? rawA.data() : rawB.data();
        const unsigned char* wide = narrowA ? rawB.data() : rawA.data();
        widenAndJudge(narrow, wide, widened.data(), n, i, p);
        acc.addPair(narrowA ? widened.data() : wide, narrowA ? wide : widened.data(), n, i);
    }
    // The longer side's tail is hashed and counted, widened first when narrow, never compared.
    for (auto* side : {&fa, &fb}) {
        const bool isA = side == &fa;
        const std::uint64_t n = isA ? nA : nB;
        const std::size_t es = isA ? esA : esB;
        for (std::uint64_t i = common; i < n; i += chunkElems) {
            const std::size_t len =
                static_cast<std::size_t>(std::min<std::uint64_t>(chunkElems, n - i));
            if (auto e = side->readExact(rawA.data(), len * es, i * es, shrank); !e.empty())
                return fail(shrank ? Status::changed_while_reading : Status::error, e);
            const unsigned char* elements = rawA.data();
            if (isA == narrowA) {
                widenAndJudge(rawA.data(), nullptr, widened.data(), len, i, p);
                elements = widened.data();
            }
            if (isA)
                acc.addTailA(elements, len);
            else
                acc.addTailB(elements, len);
        }
    }
    for (auto* side : {&fa, &fb})
        if (auto e = side->verifyWholeMember(); !e.empty()) return fail(Status::error, e);
    for (auto* side : {&fa, &fb})
        if (auto e = side->changedSinceOpen(); !e.empty())
            return fail(Status::changed_while_reading, e);

    r.stats = acc.finish();
    PairReading reading;
    reading.precision = p;
    r.reading = std::make_shared<const PairReading>(std::move(reading));
    if (nA != nB) {
        r.status = Status::length_mismatch;
        r.kind = Kind::length_mismatch;
        return r;
    }
    // Rounded to the narrow type, no element differs: equal at the precision compared.
    if (p.withinRounding()) {
        r.status = Status::equal;
        r.kind = Kind::bit_identical;
        return r;
    }
    r.status = Status::diverge;
    r.kind = p.nonFiniteMismatches ? Kind::nan_inf_mismatch : Kind::numeric;
    if (options.tolerance.any() && r.stats.outsideTolerance == 0)
        r.status = Status::within_tolerance;
    return r;
}

} // namespace dumpscope::detail

#pragma once

// StatsAccumulator's state and its per-type compare loops, included by stats.cpp and
// stats_dense.cpp only. Split out so the fast paths (what equal bytes skip, how a difference is
// found and accounted) read on their own; tests/core/test_fast_paths.cpp holds them to a plain
// per-element pass. XXH3 from libxxhash: on x86-64 through its dispatcher, which hashes with AVX2
// or AVX-512 where the CPU has them (the header-only build is SSE2: a fifth of an equal block's
// time).
#if defined(__x86_64__) && __has_include(<xxh_x86dispatch.h>)
#define XXH_STATIC_LINKING_ONLY
#include <xxh_x86dispatch.h>
#else
#define XXH_INLINE_ALL
#include <xxhash.h>
#endif

#include "compare/decade_table.h"
#include "compare/dense_f32.h"
#include "compare/differing_words.h"
#include "compare/multiset_hash.h"
#include "compare/side_scan.h"
#include "schema/element_traits.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

namespace dumpscope::detail {

// Orders the kept "largest |Δ|" entries: larger |Δ| first, then the lower index.
inline bool largerDelta(const ElementDiff& x, const ElementDiff& y) {
    if (x.absDelta != y.absDelta) return x.absDelta > y.absDelta;
    return x.index < y.index;
}

} // namespace dumpscope::detail

namespace dumpscope {

struct StatsAccumulator::Impl {
    DType dtype;
    Tolerance tolerance;
    BufferStats s;
    XXH3_state_t hashA;
    XXH3_state_t hashB;
    // While every byte so far was equal on both sides, only A is hashed: B's state would be
    // the same. It is copied from A when the sides first part (a difference or a tail).
    bool hashShared = true;
    // Largest finite magnitude seen per side, as raw bits (magnitude bits order like values).
    std::uint64_t maxMagA = 0, maxMagB = 0;
    // Min-heap (by largerDelta) of the kKeep largest |Δ| seen so far.
    std::vector<ElementDiff> heap;
    // Shaped buffers: the element `shapeCursor` is at (shapeRow, shapeCol), so a difference
    // after it is placed without a division per element.
    std::uint64_t shapeCursor = 0, shapeRow = 0, shapeCol = 0;
    // float32: whether the last block with differences was dense (a quarter or more of its
    // elements differ), so the next one goes to the vector path; its scratch, made on first use.
    bool denseMode = false;
    std::unique_ptr<detail::DenseF32Block> dense;

    static constexpr std::size_t kBlockBytes = 4096; // compared with one memcmp before any detail

    Impl(DType t, const Tolerance& tol) : dtype(t), tolerance(tol) {
        XXH3_64bits_reset(&hashA);
        XXH3_64bits_reset(&hashB);
        heap.reserve(BufferStats::kKeep);
    }

    void unshareHash() {
        if (!hashShared) return;
        XXH3_copyState(&hashB, &hashA);
        hashShared = false;
    }
    // Hashes the block at byte `from` of a pair of `bytes` per side and returns where the
    // hashed bytes end. Once the sides part, the next kHashSpan bytes (16 blocks, still in L2
    // for the blocks' own passes) go in one update per side: XXH3's result does not depend on
    // how its input is split, and its per-update overhead cost a tenth of its time in 4 KiB
    // updates.
    static constexpr std::size_t kHashSpan = 16 * kBlockBytes;
    std::size_t hashBlock(const unsigned char* a, const unsigned char* b, std::size_t from,
                          std::size_t len, std::size_t bytes, bool equal) {
        if (hashShared && equal) {
            XXH3_64bits_update(&hashA, a + from, len);
            return from + len;
        }
        unshareHash();
        const std::size_t span = std::min(bytes - from, kHashSpan);
        XXH3_64bits_update(&hashA, a + from, span);
        XXH3_64bits_update(&hashB, b + from, span);
        return from + span;
    }

    template <typename Tr>
    bool scanSide(const unsigned char* p, std::size_t n, bool sideA, bool sideB);
    template <typename Tr>
    void countSpecials(const unsigned char* p, std::size_t n, std::uint64_t special, bool sideA,
                       bool sideB);
    template <typename Tr>
    void addPair(const unsigned char* a, const unsigned char* b, std::size_t n, std::uint64_t base);
    template <typename Tr>
    void diffBlock(const unsigned char* a, const unsigned char* b, std::size_t n,
                   std::uint64_t base, bool finite, std::uint64_t* marked);
    template <typename Tr>
    void addDiff(std::uint64_t index, typename Tr::Bits a, typename Tr::Bits b);
    void rankDiff(std::uint64_t index, std::uint64_t a, std::uint64_t b, double absDelta,
                  double scale, double absB);
    struct Tally;
    void denseBlock(const unsigned char* a, const unsigned char* b, std::size_t n,
                    std::uint64_t base, Tally& t);
    void addDenseHistograms(detail::DenseF32Block& d, std::size_t n);
    void foldDenseHistograms(); // adds denseBlock's histogram lanes to s
    double heapFloor() const {
        return heap.size() < BufferStats::kKeep ? -1.0 : heap.front().absDelta;
    }
    void placeDiff(std::uint64_t index);
    bool withinTolerance(double absDelta, double b, std::optional<std::uint64_t> ulp) const;
    void keepLargest(const ElementDiff& d);
};

// Per side, over every element (equal blocks too): NaN / Inf counts and the largest finite
// magnitude; NaN vs Inf is split only if any exist. Returns whether the side holds NaN or Inf.
template <typename Tr>
bool StatsAccumulator::Impl::scanSide(const unsigned char* p, std::size_t n, bool sideA,
                                      bool sideB) {
    if constexpr (Tr::kFloat) {
        const detail::SideScan r = detail::scanMagnitudes<Tr>(p, n);
        if (sideA) maxMagA = std::max(maxMagA, r.maxMag);
        if (sideB) maxMagB = std::max(maxMagB, r.maxMag);
        countSpecials<Tr>(p, n, r.special, sideA, sideB);
        return r.special != 0;
    } else {
        (void)p, (void)n, (void)sideA, (void)sideB;
        return false;
    }
}

// Inline: the compare loop calls it for every difference when a tolerance is set. An infinite
// |Δ| (Inf against a finite value or against -Inf) passes no atol or rtol, as in numpy's
// isclose: rtol * |B| is infinite too where B is Inf, or where the product overflows.
inline bool StatsAccumulator::Impl::withinTolerance(double absDelta, double b,
                                                    std::optional<std::uint64_t> ulp) const {
    if (std::isnan(absDelta)) return false; // NaN against a number
    if (absDelta == 0) return true;         // +0 against -0
    bool ok = true;
    if (tolerance.atol || tolerance.rtol)
        ok = !std::isinf(absDelta) &&
             absDelta <= tolerance.atol.value_or(0.0) + tolerance.rtol.value_or(0.0) * std::fabs(b);
    if (tolerance.ulp) ok = ok && ulp && *ulp <= *tolerance.ulp;
    return ok;
}

// `special` NaN and Inf elements were seen in these n: which are which.
template <typename Tr>
void StatsAccumulator::Impl::countSpecials(const unsigned char* p, std::size_t n,
                                           std::uint64_t special, bool sideA, bool sideB) {
    if (special == 0) return;
    std::uint64_t nan = 0;
    for (std::size_t i = 0; i < n; ++i)
        nan += Tr::isNan(Tr::load(p + i * sizeof(typename Tr::Bits)));
    const std::uint64_t inf = special - nan;
    if (sideA) s.nanA += nan, s.infA += inf;
    if (sideB) s.nanB += nan, s.infB += inf;
}

// Block by block: equal blocks (one memcmp) cost a scan and a hash of one side; the others
// are scanned per side and searched for their differences (float32 with AVX2: both sides
// scanned and their differing words marked in one pass).
template <typename Tr>
void StatsAccumulator::Impl::addPair(const unsigned char* a, const unsigned char* b, std::size_t n,
                                     std::uint64_t base) {
    constexpr std::size_t es = sizeof(typename Tr::Bits);
    constexpr std::size_t kBlock = kBlockBytes / es;
    std::size_t hashed = 0; // bytes of both sides' chunk hashed so far
    for (std::size_t start = 0; start < n; start += kBlock) {
        const std::size_t len = std::min(kBlock, n - start);
        const unsigned char* pa = a + start * es;
        const unsigned char* pb = b + start * es;
        const bool equal = std::memcmp(pa, pb, len * es) == 0;
        if (hashed == start * es) hashed = hashBlock(a, b, hashed, len * es, n * es, equal);
        if (equal) {
            scanSide<Tr>(pa, len, true, true);
            continue;
        }
        if constexpr (std::is_same_v<Tr, F32>) {
            if (detail::vectorPathsEnabled()) {
                std::uint64_t marked[kBlockBytes / 8 / 64 + 1] = {};
                const detail::PairScanF32 r = detail::scanAndMarkF32(pa, pb, len, marked);
                maxMagA = std::max<std::uint64_t>(maxMagA, r.maxMagA);
                maxMagB = std::max<std::uint64_t>(maxMagB, r.maxMagB);
                countSpecials<Tr>(pa, len, r.specialA, true, false);
                countSpecials<Tr>(pb, len, r.specialB, false, true);
                diffBlock<Tr>(pa, pb, len, base + start, r.specialA == 0 && r.specialB == 0,
                              marked);
                continue;
            }
        }
        const bool specialA = scanSide<Tr>(pa, len, true, false);
        const bool specialB = scanSide<Tr>(pb, len, false, true);
        diffBlock<Tr>(pa, pb, len, base + start, !specialA && !specialB, nullptr);
    }
}

// The running figures a typical difference changes, copied out of BufferStats for one block
// so that they live in registers (BufferStats' counters are reached through pointers that the
// compiler must assume every histogram increment may alias).
struct StatsAccumulator::Impl::Tally {
    std::uint64_t nDiff, lastDiff, maxUlp, signedZero, msA0, msA1, msB0, msB1, maxAbsIndex;
    double maxAbs; // -1 until a difference has a |Δ|
    double maxRel;
    double rtolToPass;
    double heapFloor; // the smallest kept |Δ|, or -1 while fewer than kKeep are kept
    explicit Tally(const Impl& im) {
        const BufferStats& s = im.s;
        nDiff = s.nDiff, lastDiff = s.lastDiff.value_or(0), maxUlp = s.maxUlp,
        signedZero = s.signedZeroDiffs;
        msA0 = s.multisetA[0], msA1 = s.multisetA[1], msB0 = s.multisetB[0], msB1 = s.multisetB[1];
        maxAbs = s.maxAbsDeltaIndex ? s.maxAbsDelta : -1.0;
        maxAbsIndex = s.maxAbsDeltaIndex.value_or(0);
        maxRel = s.maxRelDelta;
        rtolToPass = s.rtolToPass;
        heapFloor = im.heapFloor();
    }
    void store(Impl& im) const {
        BufferStats& s = im.s;
        if (nDiff != s.nDiff) s.lastDiff = lastDiff;
        s.nDiff = nDiff, s.maxUlp = maxUlp;
        s.deltaHistogram.zero += signedZero - s.signedZeroDiffs; // only +0 vs -0 has |Δ| == 0
        s.signedZeroDiffs = signedZero;
        s.multisetA = {msA0, msA1}, s.multisetB = {msB0, msB1};
        if (maxAbs >= 0) s.maxAbsDelta = maxAbs, s.maxAbsDeltaIndex = maxAbsIndex;
        s.maxRelDelta = maxRel;
        s.rtolToPass = rtolToPass;
    }
};

// Finds the differing 8-byte words (32 bytes per compare with AVX2), then each differing
// element inside a differing word by its lowest set bit. A difference of two finite
// values is accounted here on the Tally; NaN and Inf (and an infinite |Δ|) go to addDiff.
// A dense float32 block of finite values (`finite`: neither side holds NaN or Inf) after the
// first kKeep differences goes to denseBlock in multiples of 8 elements, the rest comes here.
// `marked`, when given, already holds the block's differing full words.
template <typename Tr>
void StatsAccumulator::Impl::diffBlock(const unsigned char* a, const unsigned char* b,
                                       std::size_t n, std::uint64_t base, bool finite,
                                       std::uint64_t* marked) {
    using Bits = typename Tr::Bits;
    constexpr std::size_t es = sizeof(Bits), kPerWord = 8 / es;
    Tally t(*this);
    std::uint64_t* const decades = s.deltaHistogram.counts.data() - DeltaHistogram::kMinDecade;
    std::uint64_t* const ulps = s.ulpHistogram.counts.data();
    const bool extras = tolerance.any() || !s.rowDiffs.empty();
    const detail::DecadeTable& decadeOf = detail::decadeTable();
    const std::uint64_t nDiffBefore = t.nDiff;
    std::size_t vectorised = 0; // elements [0, vectorised) accounted by denseBlock
    if constexpr (std::is_same_v<Tr, F32>) {
        // A tolerance is checked in the vector path too; per-row counts (a shape) are not.
        if (denseMode && finite && s.rowDiffs.empty() && t.nDiff >= BufferStats::kKeep &&
            detail::vectorPathsEnabled()) {
            vectorised = n / 8 * 8;
            denseBlock(a, b, vectorised, base, t);
        }
    } else {
        (void)finite;
    }
    const auto one = [&](std::uint64_t index, Bits x, Bits y) {
        std::uint64_t ulp;
        double absDelta, vy, scale;
        if constexpr (Tr::kFloat) {
            constexpr auto kMag = static_cast<Bits>(Tr::kSign - 1);
            const std::uint64_t mx = x & kMag, my = y & kMag;
            if (mx >= Tr::kExp || my >= Tr::kExp) [[unlikely]] { // NaN or Inf on a side
                t.store(*this), addDiff<Tr>(index, x, y), t = Tally(*this);
                return;
            }
            ulp = ((x ^ y) & Tr::kSign) ? mx + my + 1 : mx > my ? mx - my : my - mx;
            const double vx = Tr::value(x);
            vy = Tr::value(y);
            absDelta = std::fabs(vx - vy);
            if constexpr (es == 8) { // only doubles' finite values can be infinitely apart
                if (std::isinf(absDelta)) [[unlikely]] {
                    t.store(*this), addDiff<Tr>(index, x, y), t = Tally(*this);
                    return;
                }
            }
            scale = std::max(std::fabs(vx), std::fabs(vy));
            if (absDelta == 0)
                ++t.signedZero; // distinct bits, equal values: only +0 vs -0 can do that
            else
                ++decades[decadeOf.decade(absDelta)];
        } else {
            ulp = *Tr::ulp(x, y);
            absDelta = static_cast<double>(ulp); // exact even where x-y overflows the type
            vy = Tr::value(y);
            scale = std::max(std::fabs(Tr::value(x)), std::fabs(vy));
            ++decades[decadeOf.decade(absDelta)];
        }
        ++t.nDiff;
        t.lastDiff = index;
        const std::uint64_t hx = detail::multisetTerm(x), hy = detail::multisetTerm(y);
        t.msA0 += hx, t.msA1 += hx * hx, t.msB0 += hy, t.msB1 += hy * hy;
        t.maxUlp = std::max(t.maxUlp, ulp);
        ++ulps[ulpBin(ulp)];
        if (extras) [[unlikely]] {
            if (tolerance.any() && !withinTolerance(absDelta, vy, ulp)) ++s.outsideTolerance;
            if (!s.rowDiffs.empty()) placeDiff(index);
        }
        if (absDelta > t.maxAbs) t.maxAbs = absDelta, t.maxAbsIndex = index;
        raiseMaxRelative(t.maxRel, absDelta, scale);
        raiseRtolToPass(t.rtolToPass, absDelta, std::fabs(vy));
        if (absDelta >= t.heapFloor) [[unlikely]] {
            keepLargest({index, x, y, absDelta});
            t.heapFloor = heapFloor();
        }
        if (t.nDiff <= BufferStats::kKeep) [[unlikely]] {
            if (!s.firstDiff) s.firstDiff = index;
            s.firstDiffs.push_back({index, x, y, absDelta});
        }
    };
    // One call site for `one`, so that it is inlined and the Tally stays in registers: the
    // differing 8-byte words as a bitmap (the last partial word zero-padded), then each
    // differing element inside a word by its lowest set bit.
    const std::size_t words = n / kPerWord, rest = n % kPerWord * es;
    const auto word = [&](std::size_t w) {
        return loadLittle<std::uint64_t>(a + 8 * w) ^ loadLittle<std::uint64_t>(b + 8 * w);
    };
    const auto lastWord = [&] {
        std::uint64_t x = 0, y = 0;
        std::memcpy(&x, a + 8 * words, rest);
        std::memcpy(&y, b + 8 * words, rest);
        return x ^ y;
    };
    std::uint64_t own[kBlockBytes / 8 / 64 + 1] = {};
    std::uint64_t* const differing = marked ? marked : own;
    const std::size_t first = vectorised / kPerWord; // words before it were accounted by denseBlock
    if (marked) {
        std::fill(differing, differing + first / 64, std::uint64_t{0});
        if (first % 64) differing[first / 64] &= ~std::uint64_t{0} << (first % 64);
    } else {
        detail::markDifferingWords(a, b, first, words, differing);
    }
    if (rest && lastWord() != 0) differing[words / 64] |= std::uint64_t{1} << (words % 64);
    for (std::size_t m = 0; m <= words / 64; ++m)
        for (std::uint64_t bits = differing[m]; bits; bits &= bits - 1) {
            const std::size_t w = 64 * m + static_cast<std::size_t>(std::countr_zero(bits));
            for (std::uint64_t x = w < words ? word(w) : lastWord(); x;) {
                const std::size_t k = static_cast<std::size_t>(std::countr_zero(x)) / (8 * es);
                if constexpr (kPerWord == 1)
                    x = 0;
                else
                    x &= ~(((std::uint64_t{1} << (8 * es)) - 1) << (8 * es * k));
                const std::size_t i = w * kPerWord + k;
                one(base + i, Tr::load(a + i * es), Tr::load(b + i * es));
            }
        }
    denseMode = (t.nDiff - nDiffBefore) * 4 >= n;
    t.store(*this);
}

// One differing element, every case (NaN and Inf included), straight on BufferStats: the
// same numbers as pairDelta() and the simple per-element rules. diffBlock's Tally takes the
// common case off this path.
template <typename Tr>
void StatsAccumulator::Impl::addDiff(std::uint64_t index, typename Tr::Bits a,
                                     typename Tr::Bits b) {
    ++s.nDiff;
    if (!s.firstDiff) s.firstDiff = index;
    s.lastDiff = index;
    const std::uint64_t ha = detail::multisetTerm(a), hb = detail::multisetTerm(b);
    s.multisetA[0] += ha, s.multisetA[1] += ha * ha;
    s.multisetB[0] += hb, s.multisetB[1] += hb * hb;

    std::uint64_t ulp;
    double absDelta, scale;
    double vb;
    if constexpr (Tr::kFloat) {
        constexpr auto kMag = static_cast<typename Tr::Bits>(Tr::kSign - 1);
        const std::uint64_t ma = a & kMag, mb = b & kMag;
        const bool nanA = ma >= Tr::kNan, nanB = mb >= Tr::kNan;
        if (nanA || nanB) [[unlikely]] {
            ++(nanA && nanB ? s.nanPayloadDiffs : s.nonFiniteMismatches);
            ++s.ulpHistogram.undefined;
            ++s.deltaHistogram.nan;
            if (tolerance.any() && !(nanA && nanB)) ++s.outsideTolerance; // NaN against a number
            if (s.firstDiffs.size() < BufferStats::kKeep)
                s.firstDiffs.push_back({index, a, b, std::nan("")});
            if (!s.rowDiffs.empty()) placeDiff(index);
            return;
        }
        // NaN returned above: a magnitude of kExp is Inf here (never, for E4M3).
        if ((ma == Tr::kExp) != (mb == Tr::kExp)) ++s.nonFiniteMismatches;
        ulp = ((a ^ b) & Tr::kSign) ? ma + mb + 1 : ma > mb ? ma - mb : mb - ma;
        const double va = Tr::value(a);
        vb = Tr::value(b);
        absDelta = std::fabs(va - vb);
        scale = std::max(std::fabs(va), std::fabs(vb));
        if (absDelta == 0) {
            ++s.signedZeroDiffs; // distinct bits, equal values: only +0 vs -0 can do that
            ++s.deltaHistogram.zero;
        } else if (std::isinf(absDelta)) [[unlikely]] {
            ++s.deltaHistogram.infinite;
        } else {
            ++s.deltaHistogram.counts[deltaDecade(absDelta) - DeltaHistogram::kMinDecade];
        }
    } else {
        ulp = *Tr::ulp(a, b);
        absDelta = static_cast<double>(ulp); // exact even where a-b overflows the type
        const double va = Tr::value(a);
        vb = Tr::value(b);
        scale = std::max(std::fabs(va), std::fabs(vb));
        ++s.deltaHistogram.counts[deltaDecade(absDelta) - DeltaHistogram::kMinDecade];
    }
    s.maxUlp = std::max(s.maxUlp, ulp);
    ++s.ulpHistogram.counts[ulpBin(ulp)];
    if (tolerance.any() && !withinTolerance(absDelta, vb, ulp)) ++s.outsideTolerance;
    rankDiff(index, a, b, absDelta, scale, std::fabs(vb));
}

} // namespace dumpscope

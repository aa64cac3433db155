#include "dumpscope/stats.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

#include "element_traits.h"

namespace dumpscope {

namespace {

// Powers of ten as the nearest doubles, for the decade of |Δ| without a log10 per element.
struct Pow10Table {
    double v[DeltaHistogram::kMaxDecade - DeltaHistogram::kMinDecade + 2];
    Pow10Table() {
        for (int d = DeltaHistogram::kMinDecade; d <= DeltaHistogram::kMaxDecade + 1; ++d)
            v[d - DeltaHistogram::kMinDecade] = std::strtod(("1e" + std::to_string(d)).c_str(), nullptr);
    }
    double at(int d) const { return v[d - DeltaHistogram::kMinDecade]; }
};
const Pow10Table& pow10() {
    static const Pow10Table table;
    return table;
}

} // namespace

// floor(log10(x)) for finite x > 0, without a log10 per element.
int deltaDecade(double x) {
    const int e2 = std::ilogb(x); // x in [2^e2, 2^(e2+1))
    int d = (e2 * 78913) >> 18;   // floor(e2 * log10(2)), exact for |e2| < 2620
    const auto& p = pow10();
    if (d + 1 <= DeltaHistogram::kMaxDecade && x >= p.at(d + 1)) ++d;
    if (d > DeltaHistogram::kMinDecade && x < p.at(d)) --d;
    return std::clamp(d, DeltaHistogram::kMinDecade, DeltaHistogram::kMaxDecade);
}

namespace {

// SplitMix64's finaliser: spreads each value over 64 bits before the order-independent sum.
std::uint64_t mix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// Orders the kept "largest |Δ|" entries: larger |Δ| first, then the lower index.
bool largerDelta(const ElementDiff& x, const ElementDiff& y) {
    if (x.absDelta != y.absDelta) return x.absDelta > y.absDelta;
    return x.index < y.index;
}

} // namespace

struct StatsAccumulator::Impl {
    DType dtype;
    Tolerance tolerance;
    BufferStats s;
    XXH3_state_t hashA;
    XXH3_state_t hashB;
    // Largest finite magnitude seen per side, as raw bits (magnitude bits order like values).
    std::uint64_t maxMagA = 0, maxMagB = 0;
    // Min-heap (by largerDelta) of the kKeep largest |Δ| seen so far.
    std::vector<ElementDiff> heap;

    Impl(DType t, const Tolerance& tol) : dtype(t), tolerance(tol) {
        XXH3_64bits_reset(&hashA);
        XXH3_64bits_reset(&hashB);
        heap.reserve(BufferStats::kKeep);
    }

    template <typename Tr> void scanSide(const unsigned char* p, std::size_t n, bool sideA, bool sideB);
    template <typename Tr> void addPair(const unsigned char* a, const unsigned char* b, std::size_t n, std::uint64_t base);
    template <typename Tr> void addDiff(std::uint64_t index, typename Tr::Bits a, typename Tr::Bits b);
    bool withinTolerance(double absDelta, double b, std::optional<std::uint64_t> ulp) const;
    void keepLargest(const ElementDiff& d);
};

// Per side, over every element (equal blocks too): NaN / Inf counts and the largest finite
// magnitude. Branch-free first pass (it vectorises); NaN vs Inf is split only if any exist.
template <typename Tr>
void StatsAccumulator::Impl::scanSide(const unsigned char* p, std::size_t n, bool sideA, bool sideB) {
    if constexpr (Tr::kFloat) {
        using Bits = typename Tr::Bits;
        // Magnitudes fit the signed type of the same width, and signed compares and a counter
        // of the element's own width let GCC vectorise this loop at baseline x86-64 (unsigned
        // 32-bit max and a size_t counter kept it scalar: 39% of an equal-heavy run).
        using SBits = std::make_signed_t<Bits>;
        constexpr SBits kMag = static_cast<SBits>(Tr::kSign - 1);
        constexpr SBits kExp = static_cast<SBits>(Tr::kExp);
        constexpr std::size_t kSub = 4096; // the per-lane counter cannot overflow within it
        std::uint64_t special = 0;
        SBits maxMag = 0;
        for (std::size_t start = 0; start < n; start += kSub) {
            const std::size_t len = std::min(kSub, n - start);
            const unsigned char* q = p + start * sizeof(Bits);
            SBits count = 0;
            for (std::size_t i = 0; i < len; ++i) {
                const SBits m = static_cast<SBits>(static_cast<SBits>(Tr::load(q + i * sizeof(Bits))) & kMag);
                count += m >= kExp;
                maxMag = std::max<SBits>(maxMag, m < kExp ? m : SBits{0});
            }
            special += static_cast<std::uint64_t>(count);
        }
        if (sideA) maxMagA = std::max<std::uint64_t>(maxMagA, static_cast<std::uint64_t>(maxMag));
        if (sideB) maxMagB = std::max<std::uint64_t>(maxMagB, static_cast<std::uint64_t>(maxMag));
        if (special == 0) return;
        std::uint64_t nan = 0;
        for (std::size_t i = 0; i < n; ++i) nan += Tr::isNan(Tr::load(p + i * sizeof(Bits)));
        const std::uint64_t inf = special - nan;
        if (sideA) s.nanA += nan, s.infA += inf;
        if (sideB) s.nanB += nan, s.infB += inf;
    } else {
        (void)p, (void)n, (void)sideA, (void)sideB;
    }
}

template <typename Tr>
void StatsAccumulator::Impl::addPair(const unsigned char* a, const unsigned char* b, std::size_t n,
                                     std::uint64_t base) {
    using Bits = typename Tr::Bits;
    constexpr std::size_t kBlock = 1024; // elements compared with one memcmp before any detail
    for (std::size_t start = 0; start < n; start += kBlock) {
        const std::size_t len = std::min(kBlock, n - start);
        const unsigned char* pa = a + start * sizeof(Bits);
        const unsigned char* pb = b + start * sizeof(Bits);
        if (std::memcmp(pa, pb, len * sizeof(Bits)) == 0) {
            scanSide<Tr>(pa, len, true, true);
            continue;
        }
        scanSide<Tr>(pa, len, true, false);
        scanSide<Tr>(pb, len, false, true);
        for (std::size_t i = 0; i < len; ++i) {
            const Bits x = Tr::load(pa + i * sizeof(Bits));
            const Bits y = Tr::load(pb + i * sizeof(Bits));
            if (x != y) addDiff<Tr>(base + start + i, x, y);
        }
    }
}

template <typename Tr>
void StatsAccumulator::Impl::addDiff(std::uint64_t index, typename Tr::Bits a, typename Tr::Bits b) {
    ++s.nDiff;
    if (!s.firstDiff) s.firstDiff = index;
    s.lastDiff = index;

    const ElementDelta e = pairDelta<Tr>(a, b);
    const auto& ulp = e.ulp; // nullopt when a side is NaN
    ElementDiff d{index, a, b, e.absDelta};
    s.multisetA[0] += mix64(a);
    s.multisetA[1] += mix64(~static_cast<std::uint64_t>(a));
    s.multisetB[0] += mix64(b);
    s.multisetB[1] += mix64(~static_cast<std::uint64_t>(b));
    if (Tr::isNan(a) && Tr::isNan(b)) ++s.nanPayloadDiffs;
    if (Tr::isNan(a) != Tr::isNan(b) || Tr::isInf(a) != Tr::isInf(b)) ++s.nonFiniteMismatches;
    if (ulp) {
        s.maxUlp = std::max(s.maxUlp, *ulp);
        ++s.ulpHistogram.counts[ulpBin(*ulp)];
    } else {
        ++s.ulpHistogram.undefined;
    }

    if constexpr (Tr::kFloat) {
        if (!ulp) {
            ++s.deltaHistogram.nan;
        } else {
            if (d.absDelta == 0) {
                ++s.signedZeroDiffs; // distinct bits, equal values: only +0 vs -0 can do that
                ++s.deltaHistogram.zero;
            } else if (std::isinf(d.absDelta)) {
                ++s.deltaHistogram.infinite;
            } else {
                ++s.deltaHistogram.counts[deltaDecade(d.absDelta) - DeltaHistogram::kMinDecade];
            }
        }
    } else {
        ++s.deltaHistogram.counts[deltaDecade(d.absDelta) - DeltaHistogram::kMinDecade];
    }

    if (tolerance.any() && !(Tr::isNan(a) && Tr::isNan(b)) && !withinTolerance(d.absDelta, e.b, ulp))
        ++s.outsideTolerance;

    if (!std::isnan(d.absDelta)) {
        if (!s.maxAbsDeltaIndex || d.absDelta > s.maxAbsDelta) {
            s.maxAbsDelta = d.absDelta;
            s.maxAbsDeltaIndex = index;
        }
        s.maxRelDelta = std::max(s.maxRelDelta, e.relDelta);
        keepLargest(d);
    }
    if (s.firstDiffs.size() < BufferStats::kKeep) s.firstDiffs.push_back(d);
    if (!s.rowDiffs.empty() && index < s.rowDiffs.size() * s.colDiffs.size()) {
        ++s.rowDiffs[index / s.colDiffs.size()];
        ++s.colDiffs[index % s.colDiffs.size()];
    }
}

bool StatsAccumulator::Impl::withinTolerance(double absDelta, double b, std::optional<std::uint64_t> ulp) const {
    if (std::isnan(absDelta)) return false; // NaN against a number
    if (absDelta == 0) return true;         // +0 against -0
    bool ok = true;
    if (tolerance.atol || tolerance.rtol)
        ok = absDelta <= tolerance.atol.value_or(0.0) + tolerance.rtol.value_or(0.0) * std::fabs(b);
    if (tolerance.ulp) ok = ok && ulp && *ulp <= *tolerance.ulp;
    return ok;
}

void StatsAccumulator::Impl::keepLargest(const ElementDiff& d) {
    // std heap functions keep the "largest" by comparator at the front; with largerDelta the
    // front is the smallest kept entry, the one to evict.
    if (heap.size() < BufferStats::kKeep) {
        heap.push_back(d);
        std::push_heap(heap.begin(), heap.end(), largerDelta);
    } else if (largerDelta(d, heap.front())) {
        std::pop_heap(heap.begin(), heap.end(), largerDelta);
        heap.back() = d;
        std::push_heap(heap.begin(), heap.end(), largerDelta);
    }
}

StatsAccumulator::StatsAccumulator(DType dtype, const Tolerance& tolerance)
    : m_impl(std::make_unique<Impl>(dtype, tolerance)) {}
StatsAccumulator::~StatsAccumulator() = default;

void StatsAccumulator::setShape(std::uint64_t rows, std::uint64_t cols) {
    if (rows == 0 || cols == 0 || rows > kMaxShapeCounts || cols > kMaxShapeCounts) return;
    m_impl->s.rowDiffs.assign(static_cast<std::size_t>(rows), 0);
    m_impl->s.colDiffs.assign(static_cast<std::size_t>(cols), 0);
}

void StatsAccumulator::addPair(const unsigned char* a, const unsigned char* b, std::size_t n,
                               std::uint64_t base) {
    auto& im = *m_impl;
    const std::size_t bytes = n * dtypeSize(im.dtype);
    XXH3_64bits_update(&im.hashA, a, bytes);
    XXH3_64bits_update(&im.hashB, b, bytes);
    im.s.nA += n;
    im.s.nB += n;
    visitTraits(im.dtype, [&]<typename Tr>() { im.addPair<Tr>(a, b, n, base); });
}

void StatsAccumulator::addTailA(const unsigned char* a, std::size_t n) {
    auto& im = *m_impl;
    XXH3_64bits_update(&im.hashA, a, n * dtypeSize(im.dtype));
    im.s.nA += n;
    visitTraits(im.dtype, [&]<typename Tr>() { im.scanSide<Tr>(a, n, true, false); });
}

void StatsAccumulator::addTailB(const unsigned char* b, std::size_t n) {
    auto& im = *m_impl;
    XXH3_64bits_update(&im.hashB, b, n * dtypeSize(im.dtype));
    im.s.nB += n;
    visitTraits(im.dtype, [&]<typename Tr>() { im.scanSide<Tr>(b, n, false, true); });
}

BufferStats StatsAccumulator::finish() {
    auto& im = *m_impl;
    im.s.hashA = XXH3_64bits_digest(&im.hashA);
    im.s.hashB = XXH3_64bits_digest(&im.hashB);
    if (isFloat(im.dtype)) {
        im.s.maxAbsA = bitsToDouble(im.dtype, im.maxMagA);
        im.s.maxAbsB = bitsToDouble(im.dtype, im.maxMagB);
    }
    im.s.largestDiffs = im.heap;
    if (im.s.nDiff == 0) { // nothing to place: do not keep per-row / per-column zeros around
        std::vector<std::uint64_t>().swap(im.s.rowDiffs);
        std::vector<std::uint64_t>().swap(im.s.colDiffs);
    }
    std::sort(im.s.largestDiffs.begin(), im.s.largestDiffs.end(), largerDelta);
    return std::move(im.s);
}

ElementDelta elementDelta(DType t, std::uint64_t bitsA, std::uint64_t bitsB) {
    return visitTraits(t, [&]<typename Tr>() {
        return pairDelta<Tr>(static_cast<typename Tr::Bits>(bitsA), static_cast<typename Tr::Bits>(bitsB));
    });
}

BufferStats compareMemory(DType dtype, const void* a, std::size_t bytesA, const void* b,
                          std::size_t bytesB, const Tolerance& tolerance) {
    const std::size_t es = dtypeSize(dtype);
    const std::size_t nA = bytesA / es, nB = bytesB / es, common = std::min(nA, nB);
    const auto* pa = static_cast<const unsigned char*>(a);
    const auto* pb = static_cast<const unsigned char*>(b);
    StatsAccumulator acc(dtype, tolerance);
    acc.addPair(pa, pb, common, 0);
    if (nA > common) acc.addTailA(pa + common * es, nA - common);
    if (nB > common) acc.addTailB(pb + common * es, nB - common);
    return acc.finish();
}

} // namespace dumpscope

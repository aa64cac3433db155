// The scalar half of a dense float32 block (see dense_f32.h): denseF32 has |Δ|, the ULP
// distances, extremes, counts and multiset sums; the histograms come from threshold counts (or,
// over a wide span of decades or bins, a walk), then the few elements that may enter the kept
// largest |Δ| are ranked in index order.
#include "compare/stats_accumulator_impl.h"

namespace dumpscope {

namespace {

double absDeltaF32(std::uint32_t x, std::uint32_t y) {
    return std::fabs(static_cast<double>(std::bit_cast<float>(x)) -
                     static_cast<double>(std::bit_cast<float>(y)));
}

// Thresholds per block beyond which the scalar walk is cheaper (a decade threshold costs a
// compare per 4 elements, a ULP one per 8; in measurements the walk cost as much as 25 to 30
// decade thresholds).
constexpr int kMaxThresholdCost = 40;

// Adds to bins[0..m] the counts of `total` values of which atLeast[k] are in bin k + 1 or above.
void addFromAtLeast(std::uint64_t* bins, std::uint64_t total, const std::uint64_t* atLeast,
                    std::size_t m) {
    std::uint64_t above = total;
    for (std::size_t k = 0; k < m; ++k)
        bins[k] += above - atLeast[k], above = atLeast[k];
    bins[m] += above;
}

// atLeast[k] = how many of the n values are at least 10^(lowDecade + 1 + k), for k < m. A
// float32 |Δ| is compared with the smallest float32 not below the power of ten.
template <typename T>
void countDecadesAtLeast(const T* values, std::size_t n, int lowDecade, std::size_t m,
                         std::uint64_t* atLeast) {
    T tens[kMaxThresholdCost / 2];
    for (std::size_t k = 0; k < m; ++k) {
        const double ten = detail::tenTo(lowDecade + 1 + static_cast<int>(k));
        if constexpr (std::is_same_v<T, float>)
            tens[k] = detail::floatAtLeast(ten);
        else
            tens[k] = ten;
    }
    detail::countAtLeast(values, n, tens, m, atLeast);
}

// The block's |Δ| decades and ULP bins, from its |Δ| (float32 or double, as the kernel stored
// them). Every |Δ| > 0 lies in [minAbs, maxAbs], so its decade is one of
// deltaDecade(minAbs)..deltaDecade(maxAbs); the count in decade d is the count at least 10^d
// minus the count at least 10^(d+1). The same for ULP bins with powers of two.
template <typename T>
void binDenseBlock(const T* absDelta, detail::DenseF32Block& d, std::size_t n,
                   DeltaHistogram& deltas, UlpHistogram& ulpBins) {
    using Block = detail::DenseF32Block;
    const std::uint64_t nonzero = d.nDiff - d.signedZero; // differences with |Δ| > 0
    const int lowDecade = nonzero ? deltaDecade(d.minAbs) : 0,
              highDecade = nonzero ? deltaDecade(d.maxAbs) : 0;
    const int lowBin = ulpBin(d.minUlp), highBin = ulpBin(d.maxUlp); // nDiff > 0: minUlp >= 1
    const bool clamped =
        lowDecade == DeltaHistogram::kMinDecade || highDecade == DeltaHistogram::kMaxDecade;
    if (!clamped && 2 * (highDecade - lowDecade) + (highBin - lowBin) <= kMaxThresholdCost) {
        detail::countThresholdBlock();
        // At most kMaxThresholdCost / 2 decade thresholds and kMaxThresholdCost ULP ones.
        std::uint64_t atLeast[kMaxThresholdCost];
        if (nonzero) {
            const auto m = static_cast<std::size_t>(highDecade - lowDecade);
            countDecadesAtLeast(absDelta, n, lowDecade, m, atLeast);
            addFromAtLeast(deltas.counts.data() + (lowDecade - DeltaHistogram::kMinDecade), nonzero,
                           atLeast, m);
        }
        std::uint32_t twos[kMaxThresholdCost];
        const auto m = static_cast<std::size_t>(highBin - lowBin);
        for (std::size_t k = 0; k < m; ++k)
            twos[k] = std::uint32_t{1} << (lowBin + 1 + static_cast<int>(k));
        detail::countAtLeast(d.ulp, n, twos, m, atLeast);
        addFromAtLeast(ulpBins.counts.data() + lowBin, d.nDiff, atLeast, m);
        return;
    }
    const detail::DecadeTable& table = detail::decadeTable();
    const auto bin = [&](std::size_t i, std::uint64_t* decades, std::uint64_t* ulps) {
        // deltaDecade by the table; |Δ| == 0 (equal bits, +0 vs -0) goes to the discard bin.
        const double x = absDelta[i];
        const std::uint64_t e = std::bit_cast<std::uint64_t>(x) >> 52;
        const std::size_t decade = static_cast<std::size_t>(table.low[e] + (x >= table.step[e]) -
                                                            DeltaHistogram::kMinDecade);
        ++decades[e ? decade : Block::kDecades];
        ++ulps[std::bit_width(d.ulp[i])]; // bin 0 discards distance 0 (equal bits)
    };
    static_assert(Block::kLanes == 4);
    for (std::size_t i = 0; i < n; i += 4) { // n is a multiple of 8
        bin(i, d.decades[0], d.ulps[0]);
        bin(i + 1, d.decades[1], d.ulps[1]);
        bin(i + 2, d.decades[2], d.ulps[2]);
        bin(i + 3, d.decades[3], d.ulps[3]);
    }
}

} // namespace

void StatsAccumulator::Impl::addDenseHistograms(detail::DenseF32Block& d, std::size_t n) {
    if (d.single)
        binDenseBlock(d.absDeltaF, d, n, s.deltaHistogram, s.ulpHistogram);
    else
        binDenseBlock(d.absDelta, d, n, s.deltaHistogram, s.ulpHistogram);
}

void StatsAccumulator::Impl::denseBlock(const unsigned char* a, const unsigned char* b,
                                        std::size_t n, std::uint64_t base, Tally& t) {
    using Block = detail::DenseF32Block;
    if (!dense) dense = std::make_unique<Block>();
    Block& d = *dense;
    detail::denseF32(a, b, n, t.heapFloor, t.rtolToPass, tolerance.any() ? &tolerance : nullptr, d);
    if (d.nDiff == 0) return;
    addDenseHistograms(d, n);
    t.msA0 += d.multisetA[0], t.msA1 += d.multisetA[1], t.msB0 += d.multisetB[0],
        t.msB1 += d.multisetB[1];
    // Candidates had |Δ| >= the floor when the block began; the floor only rises, and the kept
    // set does not depend on the order its entries arrive in.
    for (std::size_t w = 0; w < (n + 63) / 64; ++w)
        for (std::uint64_t bits = d.candidates[w]; bits; bits &= bits - 1) {
            const std::size_t i = 64 * w + static_cast<std::size_t>(std::countr_zero(bits));
            const std::uint32_t x = F32::load(a + 4 * i), y = F32::load(b + 4 * i);
            const double absDelta = absDeltaF32(x, y);
            if (absDelta >= t.heapFloor) {
                keepLargest({base + i, x, y, absDelta});
                t.heapFloor = heapFloor();
            }
        }
    t.nDiff += d.nDiff;
    t.lastDiff = base + d.last;
    t.signedZero += d.signedZero;
    s.outsideTolerance += d.outside;
    t.maxUlp = std::max<std::uint64_t>(t.maxUlp, d.maxUlp);
    t.maxRel = std::max(t.maxRel, d.maxRel);
    t.rtolToPass = std::max(t.rtolToPass, d.rtolToPass);
    if (d.maxAbs >
        t.maxAbs) { // the first element holding the block's largest |Δ|, as in index order
        std::size_t i = 0;
        for (; i < n; ++i) { // found before n: maxAbs is one of the block's |Δ|
            const std::uint32_t x = F32::load(a + 4 * i), y = F32::load(b + 4 * i);
            if (x != y && absDeltaF32(x, y) == d.maxAbs) break;
        }
        t.maxAbs = d.maxAbs;
        t.maxAbsIndex = base + i;
    }
}

void StatsAccumulator::Impl::foldDenseHistograms() {
    if (!dense) return;
    for (std::size_t lane = 0; lane < detail::DenseF32Block::kLanes; ++lane) {
        for (std::size_t k = 0; k < detail::DenseF32Block::kDecades; ++k)
            s.deltaHistogram.counts[k] += dense->decades[lane][k];
        for (std::size_t k = 0; k < detail::DenseF32Block::kUlpBins; ++k)
            s.ulpHistogram.counts[k] += dense->ulps[lane][k + 1]; // indexed by bit width
    }
    dense.reset();
}

} // namespace dumpscope

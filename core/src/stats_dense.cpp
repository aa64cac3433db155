// The scalar half of a dense float32 block (see dense_f32.h): denseF32 has the ULP distances,
// |Δ| and the block's extremes; one walk over the differing elements adds what needs a table,
// a heap or a multiply per value — the two histograms, the multiset hashes, the kept largest.
#include "stats_accumulator_impl.h"

namespace dumpscope {

void StatsAccumulator::Impl::denseBlock(const unsigned char* a, const unsigned char* b, std::size_t n,
                                        std::uint64_t base, Tally& t) {
    if (!dense) dense = std::make_unique<detail::DenseF32Block>();
    detail::DenseF32Block& d = *dense;
    detail::denseF32(a, b, n, d);
    if (d.nDiff == 0) return;
    const detail::DecadeTable& decadeOf = detail::decadeTable();
    // Locals, not the Tally's fields: a histogram increment could alias those for the compiler.
    std::uint64_t msA0 = t.msA0, msA1 = t.msA1, msB0 = t.msB0, msB1 = t.msB1;
    double heapFloor = t.heapFloor;
    std::size_t last = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t ulp = d.ulp[i];
        if (ulp == 0) continue;
        last = i;
        const double absDelta = d.absDelta[i];
        const std::size_t lane = i % detail::DenseF32Block::kLanes;
        if (absDelta != 0) ++d.decades[lane][decadeOf.decade(absDelta) - DeltaHistogram::kMinDecade]; // not +0 vs -0
        ++d.ulps[lane][ulpBin(ulp)];
        const std::uint32_t x = F32::load(a + 4 * i), y = F32::load(b + 4 * i);
        const std::uint64_t hx = detail::mum(x), hy = detail::mum(y);
        msA0 += hx, msA1 += hx * hx, msB0 += hy, msB1 += hy * hy;
        if (absDelta >= heapFloor) [[unlikely]] {
            keepLargest({base + i, x, y, absDelta});
            heapFloor = this->heapFloor();
        }
    }
    t.msA0 = msA0, t.msA1 = msA1, t.msB0 = msB0, t.msB1 = msB1;
    t.heapFloor = heapFloor;
    t.nDiff += d.nDiff;
    t.lastDiff = base + last;
    t.signedZero += d.signedZero;
    t.maxUlp = std::max<std::uint64_t>(t.maxUlp, d.maxUlp);
    t.maxRel = std::max(t.maxRel, d.maxRel);
    if (d.maxAbs > t.maxAbs) { // the first element holding the block's largest |Δ|, as in index order
        std::size_t i = 0;
        while (d.ulp[i] == 0 || d.absDelta[i] != d.maxAbs) ++i;
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
            s.ulpHistogram.counts[k] += dense->ulps[lane][k];
    }
    dense.reset();
}

} // namespace dumpscope

#include "dumpscope/stats.h"

#include "compare/stats_accumulator_impl.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

namespace dumpscope {

namespace {

// Powers of ten as the nearest doubles, for the decade of |Δ| without a log10 per element.
struct Pow10Table {
    double v[DeltaHistogram::kMaxDecade - DeltaHistogram::kMinDecade + 2];
    Pow10Table() {
        for (int d = DeltaHistogram::kMinDecade; d <= DeltaHistogram::kMaxDecade + 1; ++d)
            v[d - DeltaHistogram::kMinDecade] =
                std::strtod(("1e" + std::to_string(d)).c_str(), nullptr);
    }
    double at(int d) const { return v[d - DeltaHistogram::kMinDecade]; }
};
const Pow10Table& pow10() {
    static const Pow10Table table;
    return table;
}

// floor(log10(x)) for finite x > 0: the binary exponent's decade, corrected by one compare
// against the nearest double of the power of ten.
int slowDecade(double x) {
    const int e2 = std::ilogb(x); // x in [2^e2, 2^(e2+1))
    int d = (e2 * 78913) >> 18;   // floor(e2 * log10(2)), exact for |e2| < 2620
    const auto& p = pow10();
    if (d + 1 <= DeltaHistogram::kMaxDecade && x >= p.at(d + 1)) ++d;
    if (d > DeltaHistogram::kMinDecade && x < p.at(d)) --d;
    return std::clamp(d, DeltaHistogram::kMinDecade, DeltaHistogram::kMaxDecade);
}

} // namespace

namespace detail {

DecadeTable::DecadeTable() {
    for (int e = 1; e < 0x7ff; ++e) {
        const double first = std::ldexp(1.0, e - 1023);
        low[e] = static_cast<std::int16_t>(slowDecade(first));
        const double last = std::nextafter(std::ldexp(1.0, e - 1022), 0.0);
        step[e] = slowDecade(last) == low[e] ? INFINITY : pow10().at(low[e] + 1);
    }
}

const DecadeTable& decadeTable() {
    static const DecadeTable table;
    return table;
}

double tenTo(int d) {
    return pow10().at(d);
}

} // namespace detail

int deltaDecade(double x) {
    // The exponent bits of a positive normal double index the table; anything else (the sign
    // bit lands above 0x7ff) is computed.
    const std::uint64_t e = std::bit_cast<std::uint64_t>(x) >> 52;
    if (e - 1 < 0x7fe) [[likely]] {
        const detail::DecadeTable& t = detail::decadeTable();
        return t.low[e] + (x >= t.step[e]);
    }
    return slowDecade(x);
}

// The extremes and the kept entries of a difference whose |Δ| is a number.
void StatsAccumulator::Impl::rankDiff(std::uint64_t index, std::uint64_t a, std::uint64_t b,
                                      double absDelta, double scale, double absB) {
    if (!s.maxAbsDeltaIndex || absDelta > s.maxAbsDelta) {
        s.maxAbsDelta = absDelta;
        s.maxAbsDeltaIndex = index;
    }
    if (std::isinf(absDelta)) {
        s.maxRelDelta = INFINITY;
        s.rtolToPass = INFINITY;
    } else {
        raiseMaxRelative(s.maxRelDelta, absDelta, scale);
        raiseRtolToPass(s.rtolToPass, absDelta, absB);
    }
    const ElementDiff d{index, a, b, absDelta};
    if (heap.size() < BufferStats::kKeep || detail::largerDelta(d, heap.front())) keepLargest(d);
    if (s.firstDiffs.size() < BufferStats::kKeep) s.firstDiffs.push_back(d);
    if (!s.rowDiffs.empty()) placeDiff(index);
}

// Per-row and per-column counts; a difference within a row of the previous one moves the
// cursor instead of dividing.
void StatsAccumulator::Impl::placeDiff(std::uint64_t index) {
    const std::uint64_t cols = s.colDiffs.size();
    if (index >= s.rowDiffs.size() * cols) return;
    const std::uint64_t step = index - shapeCursor;
    if (index >= shapeCursor && step < cols) {
        shapeCol += step;
        if (shapeCol >= cols) shapeCol -= cols, ++shapeRow;
    } else {
        shapeRow = index / cols;
        shapeCol = index % cols;
    }
    shapeCursor = index;
    ++s.rowDiffs[shapeRow];
    ++s.colDiffs[shapeCol];
}

void StatsAccumulator::Impl::keepLargest(const ElementDiff& d) {
    // std heap functions keep the "largest" by comparator at the front; with largerDelta the
    // front is the smallest kept entry, the one to evict.
    if (heap.size() < BufferStats::kKeep) {
        heap.push_back(d);
        std::push_heap(heap.begin(), heap.end(), detail::largerDelta);
    } else if (detail::largerDelta(d, heap.front())) {
        std::pop_heap(heap.begin(), heap.end(), detail::largerDelta);
        heap.back() = d;
        std::push_heap(heap.begin(), heap.end(), detail::largerDelta);
    }
}

StatsAccumulator::StatsAccumulator(DType dtype, const Tolerance& tolerance)
    : m_impl(std::make_unique<Impl>(dtype, tolerance)) {}
StatsAccumulator::~StatsAccumulator() = default;

// A row's count is at most its columns, a column's at most the rows: both fit rowDiffs' type.
static_assert(StatsAccumulator::kMaxShapeCounts <= std::numeric_limits<std::uint32_t>::max());

void StatsAccumulator::setShape(std::uint64_t rows, std::uint64_t cols) {
    if (rows == 0 || cols == 0 || rows > kMaxShapeCounts || cols > kMaxShapeCounts) return;
    m_impl->s.rowDiffs.assign(static_cast<std::size_t>(rows), 0);
    m_impl->s.colDiffs.assign(static_cast<std::size_t>(cols), 0);
}

void StatsAccumulator::addPair(const unsigned char* a, const unsigned char* b, std::size_t n,
                               std::uint64_t base) {
    auto& im = *m_impl;
    im.s.nA += n;
    im.s.nB += n;
    visitTraits(im.dtype, [&]<typename Tr>() { im.addPair<Tr>(a, b, n, base); });
}

void StatsAccumulator::addTailA(const unsigned char* a, std::size_t n) {
    auto& im = *m_impl;
    im.unshareHash();
    XXH3_64bits_update(&im.hashA, a, n * dtypeSize(im.dtype));
    im.s.nA += n;
    visitTraits(im.dtype, [&]<typename Tr>() { im.scanSide<Tr>(a, n, true, false); });
}

void StatsAccumulator::addTailB(const unsigned char* b, std::size_t n) {
    auto& im = *m_impl;
    im.unshareHash();
    XXH3_64bits_update(&im.hashB, b, n * dtypeSize(im.dtype));
    im.s.nB += n;
    visitTraits(im.dtype, [&]<typename Tr>() { im.scanSide<Tr>(b, n, false, true); });
}

BufferStats StatsAccumulator::finish() {
    auto& im = *m_impl;
    im.foldDenseHistograms();
    im.unshareHash();
    im.s.hashA = XXH3_64bits_digest(&im.hashA);
    im.s.hashB = XXH3_64bits_digest(&im.hashB);
    if (isFloat(im.dtype)) {
        im.s.maxAbsA = bitsToDouble(im.dtype, im.maxMagA);
        im.s.maxAbsB = bitsToDouble(im.dtype, im.maxMagB);
    }
    im.s.largestDiffs = im.heap;
    if (im.s.nDiff == 0) { // nothing to place: do not keep per-row / per-column zeros around
        std::vector<std::uint32_t>().swap(im.s.rowDiffs);
        std::vector<std::uint32_t>().swap(im.s.colDiffs);
    }
    std::sort(im.s.largestDiffs.begin(), im.s.largestDiffs.end(), detail::largerDelta);
    im.s.deltaHistogram.counts.shrink();
    im.s.ulpHistogram.counts.shrink();
    return std::move(im.s);
}

ElementDelta elementDelta(DType t, std::uint64_t bitsA, std::uint64_t bitsB) {
    return visitTraits(t, [&]<typename Tr>() {
        return pairDelta<Tr>(static_cast<typename Tr::Bits>(bitsA),
                             static_cast<typename Tr::Bits>(bitsB));
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

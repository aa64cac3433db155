// The value heatmaps: one pass over both files of a buffer, every element decoded, each block
// keeping its largest-magnitude value per side and its largest |Δ|.
#include "dumpscope/value_heatmap.h"

#include "analysis/map_pass.h"
#include "schema/element_traits.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace dumpscope {

namespace {

template <typename Tr> void addValue(HeatSide& s, typename Tr::Bits v) {
    if (Tr::isNan(v)) {
        ++s.nNan;
        return;
    }
    s.nInf += Tr::isInf(v);
    const double x = Tr::value(v);
    if (!s.hasNumber || std::fabs(x) > std::fabs(s.peak)) s.peak = x;
    s.hasNumber = true;
}

template <typename Tr>
void addPair(HeatCell& c, std::uint64_t index, typename Tr::Bits x, typename Tr::Bits y) {
    addValue<Tr>(c.a, x);
    addValue<Tr>(c.b, y);
    if (x == y) return;
    ++c.nDiff;
    if (!c.firstDiff) c.firstDiff = index; // elements arrive in index order
    if (Tr::isNan(x) != Tr::isNan(y)) ++c.nNanMismatch;
    const double delta = pairDelta<Tr>(x, y).absDelta; // NaN with a NaN side: not ranked here
    if (delta > c.maxAbsDelta) c.maxAbsDelta = delta;
}

// A later part of the same block's side: its larger magnitude wins (a tie keeps the earlier).
void merge(HeatSide& into, const HeatSide& part) {
    into.nNan += part.nNan;
    into.nInf += part.nInf;
    if (part.hasNumber && (!into.hasNumber || std::fabs(part.peak) > std::fabs(into.peak)))
        into.peak = part.peak;
    into.hasNumber = into.hasNumber || part.hasNumber;
}

// `a` and `b` hold m elements starting at element `base`: walked one run of a cell's columns
// at a time, so the cell is found once per run, not per element. A run whose bytes are equal
// on both sides (one memcmp) is decoded once, from A, and counts for both.
template <typename Tr>
void addChunk(ValueHeatmap& map, const unsigned char* a, const unsigned char* b, std::size_t m,
              std::uint64_t base) {
    using Bits = typename Tr::Bits;
    std::uint64_t index = base;
    for (std::size_t i = 0; i < m;) {
        const std::uint64_t row = index / map.cols, col = index % map.cols;
        const std::uint64_t cellCol = col / map.colsPerCell;
        const std::uint64_t runEnd = std::min(map.cols, (cellCol + 1) * map.colsPerCell);
        const std::size_t len = std::size_t(std::min<std::uint64_t>(m - i, runEnd - col));
        HeatCell& c = map.cells[std::size_t(row / map.rowsPerCell) * map.gridCols + cellCol];
        const unsigned char* pa = a + i * sizeof(Bits);
        const unsigned char* pb = b + i * sizeof(Bits);
        if (std::memcmp(pa, pb, len * sizeof(Bits)) == 0) {
            HeatSide run;
            for (std::size_t k = 0; k < len; ++k)
                addValue<Tr>(run, Tr::load(pa + k * sizeof(Bits)));
            merge(c.a, run);
            merge(c.b, run);
        } else {
            for (std::size_t k = 0; k < len; ++k)
                addPair<Tr>(c, index + k, Tr::load(pa + k * sizeof(Bits)),
                            Tr::load(pb + k * sizeof(Bits)));
        }
        i += len;
        index += len;
    }
}

// The explicit NaN rules, then the scales' ends.
void finish(ValueHeatmap& map) {
    double low = INFINITY, high = 0;
    for (HeatCell& c : map.cells) {
        for (HeatSide* s : {&c.a, &c.b}) {
            if (s->nNan) s->peak = std::nan("");
            if (std::isfinite(s->peak)) map.peakLimit = std::max(map.peakLimit, std::fabs(s->peak));
        }
        if (c.nNanMismatch) c.maxAbsDelta = std::nan("");
        if (c.maxAbsDelta > 0 && std::isfinite(c.maxAbsDelta)) {
            low = std::min(low, c.maxAbsDelta);
            high = std::max(high, c.maxAbsDelta);
        }
    }
    if (high > 0) {
        map.deltaLow = low;
        map.deltaHigh = high;
    }
}

ValueHeatmap failed(std::string message, bool cancelled = false) {
    ValueHeatmap map;
    map.error = std::move(message);
    map.cancelled = cancelled;
    return map;
}

} // namespace

std::optional<std::uint64_t> ValueHeatmap::elementOfCell(std::uint32_t row,
                                                         std::uint32_t col) const {
    if (row >= gridRows || col >= gridCols) return std::nullopt;
    if (const auto& first = cell(row, col).firstDiff) return first;
    return firstElementOfCell(row, col);
}

ValueHeatmap computeValueHeatmap(const std::filesystem::path& a, const std::filesystem::path& b,
                                 DType dtype, const std::vector<std::uint64_t>& shape,
                                 const MapResolution& resolution, const ScanProgressFn& progress) {
    return computeValueHeatmap(BufferSource{a, nullptr}, BufferSource{b, nullptr}, dtype, shape,
                               resolution, progress);
}

ValueHeatmap computeValueHeatmap(const BufferSource& a, const BufferSource& b, DType dtype,
                                 const std::vector<std::uint64_t>& shape,
                                 const MapResolution& resolution, const ScanProgressFn& progress) {
    map_pass::Pair pair;
    if (auto e = map_pass::open(a, b, dtype, pair); !e.empty()) return failed(e);
    ValueHeatmap map;
    if (auto e = map_pass::layout(map, pair.n, shape, resolution, a.displayName()); !e.empty())
        return failed(e);
    map.cells.assign(std::size_t(map.gridRows) * map.gridCols, HeatCell{});
    bool cancelled = false;
    const std::string failure = map_pass::run(
        pair,
        [&](const unsigned char* pa, const unsigned char* pb, std::size_t m, std::uint64_t base) {
            visitTraits(dtype, [&]<typename Tr>() { addChunk<Tr>(map, pa, pb, m, base); });
        },
        progress, cancelled);
    if (!failure.empty()) return failed(failure, cancelled);
    finish(map);
    return map;
}

} // namespace dumpscope

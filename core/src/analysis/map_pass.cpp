// The grid and the pass over a buffer pair that the divergence map and the value heatmaps share.
#include "analysis/map_pass.h"

#include <algorithm>

namespace dumpscope {

namespace {

std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) {
    return a / b + (a % b != 0);
}

std::string shapeText(const std::vector<std::uint64_t>& shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

// Splits `extent` elements into at most `most` blocks of equal size (the last may be short).
void cut(std::uint64_t extent, std::uint32_t most, std::uint64_t& perCell, std::uint32_t& cells) {
    perCell = std::max<std::uint64_t>(1, ceilDiv(extent, std::max<std::uint32_t>(1, most)));
    cells = static_cast<std::uint32_t>(ceilDiv(extent, perCell));
}

std::string wholeElements(const BufferView& v, DType dtype) {
    const std::size_t es = dtypeSize(dtype);
    if (v.byteSize() % es == 0) return {};
    return v.path().string() + ": size " + std::to_string(v.byteSize()) +
           " bytes is not a multiple of the element size " + std::to_string(es) + " (" +
           std::string(dtypeName(dtype)) + ")";
}

} // namespace

MapGrid::Range MapGrid::cellRange(std::uint32_t row, std::uint32_t col) const {
    Range r;
    r.rowFirst = std::min(rows, std::uint64_t(row) * rowsPerCell);
    r.rowEnd = std::min(rows, r.rowFirst + rowsPerCell);
    r.colFirst = std::min(cols, std::uint64_t(col) * colsPerCell);
    r.colEnd = std::min(cols, r.colFirst + colsPerCell);
    return r;
}

std::uint64_t MapGrid::firstElementOfCell(std::uint32_t row, std::uint32_t col) const {
    const Range r = cellRange(row, col);
    return r.rowFirst * cols + r.colFirst;
}

std::optional<std::pair<std::uint32_t, std::uint32_t>>
MapGrid::cellOfElement(std::uint64_t index) const {
    if (index >= elementCount()) return std::nullopt;
    return std::pair{static_cast<std::uint32_t>(index / cols / rowsPerCell),
                     static_cast<std::uint32_t>(index % cols / colsPerCell)};
}

namespace map_pass {

std::string open(const BufferSource& a, const BufferSource& b, DType dtype, Pair& pair) {
    // A side known by its fingerprint has no elements: its path is the log, never read as one.
    for (const BufferSource* side : {&a, &b})
        if (side->fingerprintOnly())
            return side->displayName() + ": only the fingerprint was captured; no elements to map";
    if (!pair.a.open(a, dtype)) return pair.a.error();
    if (!pair.b.open(b, dtype)) return pair.b.error();
    if (auto e = wholeElements(pair.a, dtype); !e.empty()) return e;
    if (auto e = wholeElements(pair.b, dtype); !e.empty()) return e;
    pair.n = pair.a.size();
    if (pair.b.size() != pair.n)
        return "the runs' files differ in length (" + std::to_string(pair.n) + " elements in " +
               a.displayName() + ", " + std::to_string(pair.b.size()) + " in " + b.displayName() +
               "): no map";
    return {};
}

std::string layout(MapGrid& grid, std::uint64_t n, const std::vector<std::uint64_t>& shape,
                   const MapResolution& resolution, const std::string& file) {
    grid.flat = shape.size() < 2;
    grid.rows = grid.flat ? 1 : shape[0];
    grid.cols = n;
    bool fits = shape.size() != 1 || shape[0] == n;
    if (!grid.flat) {
        grid.cols = 1;
        for (std::size_t i = 1; i < shape.size() && fits; ++i)
            fits = !__builtin_mul_overflow(grid.cols, shape[i], &grid.cols);
        std::uint64_t product = 0;
        fits = fits && !__builtin_mul_overflow(grid.rows, grid.cols, &product) && product == n;
    }
    if (!fits)
        return "shape " + shapeText(shape) + " does not fit the " + std::to_string(n) +
               " elements of " + file;
    cut(grid.rows, grid.flat ? 1 : resolution.rows, grid.rowsPerCell, grid.gridRows);
    cut(grid.cols, grid.flat ? resolution.bins : resolution.cols, grid.colsPerCell, grid.gridCols);
    return {};
}

std::string run(const Pair& pair, const ChunkFn& chunk, const ScanProgressFn& progress,
                bool& cancelled) {
    cancelled = false;
    const std::string failure = forEachChunkPair(
        pair.a, pair.b, pair.n, kChunkElements,
        [&](const unsigned char* pa, const unsigned char* pb, std::size_t m, std::uint64_t base) {
            chunk(pa, pb, m, base);
            cancelled = progress && !progress(base + m, pair.n);
            return !cancelled;
        });
    if (!failure.empty()) return failure;
    if (cancelled) return "cancelled";
    for (const BufferView* v : {&pair.a, &pair.b})
        if (auto e = v->changedSinceOpen(); !e.empty()) return e;
    return {};
}

} // namespace map_pass

} // namespace dumpscope

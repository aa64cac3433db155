// The divergence map: one bitwise pass over a buffer pair, each differing element counted into
// the block of the grid it falls in. Memory is the cells plus two chunk buffers.
#include "dumpscope/divergence_map.h"

#include "dumpscope/buffer_view.h"
#include "schema/element_traits.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace dumpscope {

namespace {

// Elements per read: 512 KiB per side for 8-byte elements, as DiffIndex reads.
constexpr std::size_t kChunkElements = 64 * 1024;

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

void merge(MapCell& into, const MapCell& c) {
    if (c.nDiff == 0) return;
    into.nDiff += c.nDiff;
    into.nNonFinite += c.nNonFinite;
    into.maxAbsDelta = std::max(into.maxAbsDelta, c.maxAbsDelta);
    if (!into.firstDiff || (c.firstDiff && *c.firstDiff < *into.firstDiff))
        into.firstDiff = c.firstDiff;
}

// Which cell an element falls in. Four divisions per difference cost more than everything else
// on an all-divergent buffer, so a nearby element is reached by stepping instead; a far one
// (sparse differences) by dividing, rather than stepping over every equal element between.
class CellCursor {
  public:
    explicit CellCursor(const DivergenceMap& map) : m_map(map) {}

    void moveTo(std::uint64_t index) {
        if (index >= m_index && index - m_index <= kMaxSteps) {
            while (m_index < index)
                next();
        } else {
            seek(index);
        }
    }
    std::size_t cell() const { return m_cell; }

  private:
    static constexpr std::uint64_t kMaxSteps = 16;

    void seek(std::uint64_t index) {
        m_index = index;
        const std::uint64_t row = index / m_map.cols;
        m_col = index % m_map.cols;
        m_colInCell = m_col % m_map.colsPerCell;
        m_rowInCell = row % m_map.rowsPerCell;
        m_rowBase = std::size_t(row / m_map.rowsPerCell) * m_map.gridCols;
        m_cell = m_rowBase + std::size_t(m_col / m_map.colsPerCell);
    }
    void next() {
        ++m_index;
        if (++m_col == m_map.cols) {
            m_col = m_colInCell = 0;
            if (++m_rowInCell == m_map.rowsPerCell) {
                m_rowInCell = 0;
                m_rowBase += m_map.gridCols;
            }
            m_cell = m_rowBase;
        } else if (++m_colInCell == m_map.colsPerCell) {
            m_colInCell = 0;
            ++m_cell;
        }
    }

    const DivergenceMap& m_map;
    std::uint64_t m_index = ~std::uint64_t{0}; // the element the cursor is on; none yet
    std::uint64_t m_col = 0, m_colInCell = 0, m_rowInCell = 0;
    std::size_t m_rowBase = 0, m_cell = 0;
};

class MapBuilder {
  public:
    explicit MapBuilder(DivergenceMap& map) : m_map(map), m_cursor(map) {}

    // `a` and `b` hold m elements starting at element `base`.
    template <typename Tr>
    void addChunk(const unsigned char* a, const unsigned char* b, std::size_t m,
                  std::uint64_t base) {
        using Bits = typename Tr::Bits;
        constexpr std::size_t kBlock = 1024; // one memcmp skips an equal run this long
        for (std::size_t start = 0; start < m; start += kBlock) {
            const std::size_t len = std::min(kBlock, m - start);
            const unsigned char* pa = a + start * sizeof(Bits);
            const unsigned char* pb = b + start * sizeof(Bits);
            if (std::memcmp(pa, pb, len * sizeof(Bits)) == 0) continue;
            for (std::size_t i = 0; i < len; ++i) {
                const Bits x = Tr::load(pa + i * sizeof(Bits));
                const Bits y = Tr::load(pb + i * sizeof(Bits));
                if (x == y) continue;
                m_cursor.moveTo(base + start + i);
                addDiff<Tr>(m_map.cells[m_cursor.cell()], base + start + i, x, y);
            }
        }
    }

  private:
    template <typename Tr>
    static void addDiff(MapCell& c, std::uint64_t index, typename Tr::Bits x, typename Tr::Bits y) {
        ++c.nDiff;
        if (!c.firstDiff) c.firstDiff = index; // elements arrive in index order
        if (Tr::isNan(x) != Tr::isNan(y) || Tr::isInf(x) != Tr::isInf(y)) ++c.nNonFinite;
        const double delta = pairDelta<Tr>(x, y).absDelta; // NaN with a NaN side: not ranked
        if (delta > c.maxAbsDelta) c.maxAbsDelta = delta;
    }

    DivergenceMap& m_map;
    CellCursor m_cursor;
};

DivergenceMap failed(std::string message) {
    DivergenceMap map;
    map.error = std::move(message);
    return map;
}

std::string wholeElements(const BufferView& v, DType dtype) {
    const std::size_t es = dtypeSize(dtype);
    if (v.byteSize() % es == 0) return {};
    return v.path().string() + ": size " + std::to_string(v.byteSize()) +
           " bytes is not a multiple of the element size " + std::to_string(es) + " (" +
           std::string(dtypeName(dtype)) + ")";
}

} // namespace

DivergenceMap::Range DivergenceMap::cellRange(std::uint32_t row, std::uint32_t col) const {
    Range r;
    r.rowFirst = std::min(rows, std::uint64_t(row) * rowsPerCell);
    r.rowEnd = std::min(rows, r.rowFirst + rowsPerCell);
    r.colFirst = std::min(cols, std::uint64_t(col) * colsPerCell);
    r.colEnd = std::min(cols, r.colFirst + colsPerCell);
    return r;
}

std::optional<std::uint64_t> DivergenceMap::elementOfCell(std::uint32_t row,
                                                          std::uint32_t col) const {
    if (row >= gridRows || col >= gridCols) return std::nullopt;
    if (const auto& first = cell(row, col).firstDiff) return first;
    const Range r = cellRange(row, col);
    return r.rowFirst * cols + r.colFirst;
}

std::optional<std::pair<std::uint32_t, std::uint32_t>>
DivergenceMap::cellOfElement(std::uint64_t index) const {
    if (index >= elementCount()) return std::nullopt;
    return std::pair{static_cast<std::uint32_t>(index / cols / rowsPerCell),
                     static_cast<std::uint32_t>(index % cols / colsPerCell)};
}

DivergenceMap computeDivergenceMap(const std::filesystem::path& a, const std::filesystem::path& b,
                                   DType dtype, const std::vector<std::uint64_t>& shape,
                                   const MapResolution& resolution,
                                   const ScanProgressFn& progress) {
    return computeDivergenceMap(BufferSource{a, nullptr}, BufferSource{b, nullptr}, dtype, shape,
                                resolution, progress);
}

DivergenceMap computeDivergenceMap(const BufferSource& sideA, const BufferSource& sideB,
                                   DType dtype, const std::vector<std::uint64_t>& shape,
                                   const MapResolution& resolution,
                                   const ScanProgressFn& progress) {
    const std::string a = sideA.displayName(), b = sideB.displayName();
    BufferView va, vb;
    if (!va.open(sideA, dtype)) return failed(va.error());
    if (!vb.open(sideB, dtype)) return failed(vb.error());
    if (auto e = wholeElements(va, dtype); !e.empty()) return failed(e);
    if (auto e = wholeElements(vb, dtype); !e.empty()) return failed(e);
    const std::uint64_t n = va.size();
    if (vb.size() != n)
        return failed("the runs' files differ in length (" + std::to_string(n) + " elements in " +
                      a + ", " + std::to_string(vb.size()) + " in " + b + "): no map");

    DivergenceMap map;
    map.flat = shape.size() < 2;
    map.rows = map.flat ? 1 : shape[0];
    map.cols = n;
    bool fits = shape.size() != 1 || shape[0] == n;
    if (!map.flat) {
        map.cols = 1;
        for (std::size_t i = 1; i < shape.size() && fits; ++i)
            fits = !__builtin_mul_overflow(map.cols, shape[i], &map.cols);
        std::uint64_t product = 0;
        fits = fits && !__builtin_mul_overflow(map.rows, map.cols, &product) && product == n;
    }
    if (!fits)
        return failed("shape " + shapeText(shape) + " does not fit the " + std::to_string(n) +
                      " elements of " + a);
    cut(map.rows, map.flat ? 1 : resolution.rows, map.rowsPerCell, map.gridRows);
    cut(map.cols, map.flat ? resolution.bins : resolution.cols, map.colsPerCell, map.gridCols);
    map.cells.assign(std::size_t(map.gridRows) * map.gridCols, MapCell{});

    MapBuilder builder(map);
    bool cancelled = false;
    const std::string failure = forEachChunkPair(
        va, vb, n, kChunkElements,
        [&](const unsigned char* pa, const unsigned char* pb, std::size_t m, std::uint64_t base) {
            visitTraits(dtype, [&]<typename Tr>() { builder.addChunk<Tr>(pa, pb, m, base); });
            cancelled = progress && !progress(base + m, n);
            return !cancelled;
        });
    if (!failure.empty()) return failed(failure);
    if (cancelled) {
        DivergenceMap stopped = failed("cancelled");
        stopped.cancelled = true;
        return stopped;
    }
    for (const BufferView* v : {&va, &vb})
        if (auto e = v->changedSinceOpen(); !e.empty()) return failed(e);
    for (const MapCell& c : map.cells)
        merge(map.total, c);
    return map;
}

} // namespace dumpscope

// The divergence map: one bitwise pass over a buffer pair, each differing element counted into
// the block of the grid it falls in. Memory is the cells plus two chunk buffers.
#include "dumpscope/divergence_map.h"

#include "analysis/map_pass.h"
#include "schema/element_traits.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace dumpscope {

namespace {

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

} // namespace

std::optional<std::uint64_t> DivergenceMap::elementOfCell(std::uint32_t row,
                                                          std::uint32_t col) const {
    if (row >= gridRows || col >= gridCols) return std::nullopt;
    if (const auto& first = cell(row, col).firstDiff) return first;
    return firstElementOfCell(row, col);
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
    map_pass::Pair pair;
    if (auto e = map_pass::open(sideA, sideB, dtype, pair); !e.empty()) return failed(e);
    DivergenceMap map;
    if (auto e = map_pass::layout(map, pair.n, shape, resolution, sideA.displayName()); !e.empty())
        return failed(e);
    map.cells.assign(std::size_t(map.gridRows) * map.gridCols, MapCell{});

    MapBuilder builder(map);
    bool cancelled = false;
    const std::string failure = map_pass::run(
        pair,
        [&](const unsigned char* pa, const unsigned char* pb, std::size_t m, std::uint64_t base) {
            visitTraits(dtype, [&]<typename Tr>() { builder.addChunk<Tr>(pa, pb, m, base); });
        },
        progress, cancelled);
    if (!failure.empty()) {
        DivergenceMap stopped = failed(failure);
        stopped.cancelled = cancelled;
        return stopped;
    }
    for (const MapCell& c : map.cells)
        merge(map.total, c);
    return map;
}

} // namespace dumpscope

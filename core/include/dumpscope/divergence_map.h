#pragma once

#include "dumpscope/buffer_source.h"

#include "dumpscope/diff_index.h"
#include "dumpscope/dtype.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace dumpscope {

// One block of a divergence map: what the differing elements inside it amount to.
struct MapCell {
    std::uint64_t nDiff = 0;      // elements whose bits differ
    std::uint64_t nNonFinite = 0; // of those, NaN or Inf on one side only (as nonFiniteMismatches)
    double maxAbsDelta = 0;       // largest |Δ| that is a number (+Inf included); 0 when none
    std::optional<std::uint64_t> firstDiff; // index of the block's first differing element
};

// How finely to cut: a 2-D map has at most rows × cols cells, a flat strip at most `bins`.
struct MapResolution {
    std::uint32_t rows = 128;
    std::uint32_t cols = 128;
    std::uint32_t bins = 512;
};

// Where the differences of one buffer pair sit, downsampled to a grid of blocks. A shape of two
// or more dimensions is read as the core's per-row counts read it: rows are the outermost
// dimension, columns everything inside it (so "rows 3 and 17 differ" in the CLI is rows 3 and
// 17 here). A flat buffer, or one with a single dimension, is one row of n columns: a density
// strip. Each cell covers rowsPerCell × colsPerCell elements (fewer at the last row / column).
struct DivergenceMap {
    std::string error;      // why there is no map (the other fields are then empty)
    bool cancelled = false; // the progress callback stopped the scan (error says so too)
    bool flat = true;
    std::uint64_t rows = 0, cols = 0; // elements: shape rows × columns; flat: 1 × n
    std::uint64_t rowsPerCell = 1, colsPerCell = 1;
    std::uint32_t gridRows = 0, gridCols = 0;
    std::vector<MapCell> cells; // gridRows × gridCols, row by row
    MapCell total;              // the whole buffer as one cell

    bool ok() const { return error.empty(); }
    std::uint64_t elementCount() const { return rows * cols; }
    const MapCell& cell(std::uint32_t row, std::uint32_t col) const {
        return cells[std::size_t(row) * gridCols + col];
    }

    // The element rows [rowFirst, rowEnd) and columns [colFirst, colEnd) a cell covers.
    struct Range {
        std::uint64_t rowFirst = 0, rowEnd = 0, colFirst = 0, colEnd = 0;
    };
    Range cellRange(std::uint32_t row, std::uint32_t col) const;
    // Where a click on a cell goes: its first differing element, else its first element;
    // nullopt outside the grid.
    std::optional<std::uint64_t> elementOfCell(std::uint32_t row, std::uint32_t col) const;
    // The cell holding element `index`; nullopt past the end.
    std::optional<std::pair<std::uint32_t, std::uint32_t>> cellOfElement(std::uint64_t index) const;
};

// Compares the two files of one buffer bit for bit in bounded chunks (memory: the cells plus two
// read buffers, whatever the file size) and fills the map. |Δ| is the statistics' |Δ|. `shape`
// is the buffer's resolved shape, outermost first (empty: flat); its product must be the element
// count. Never throws for a bad pair: unreadable files, sizes that differ or are not whole
// elements, a shape that does not fit, and files that change while being read all come back as
// `error`, naming the file. `progress` (elements done, total) may cancel.
DivergenceMap computeDivergenceMap(const std::filesystem::path& a, const std::filesystem::path& b,
                                   DType dtype, const std::vector<std::uint64_t>& shape,
                                   const MapResolution& resolution = {},
                                   const ScanProgressFn& progress = {});
// The same for two sides that may be tensors inside self-describing files.
DivergenceMap computeDivergenceMap(const BufferSource& a, const BufferSource& b, DType dtype,
                                   const std::vector<std::uint64_t>& shape,
                                   const MapResolution& resolution = {},
                                   const ScanProgressFn& progress = {});

} // namespace dumpscope

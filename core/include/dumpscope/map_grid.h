#pragma once

#include <cstdint>
#include <optional>
#include <utility>

namespace dumpscope {

// How finely to cut: a 2-D map has at most rows × cols cells, a flat strip at most `bins`.
struct MapResolution {
    std::uint32_t rows = 128;
    std::uint32_t cols = 128;
    std::uint32_t bins = 512;
};

// A buffer's elements cut into a grid of blocks, shared by the divergence map and the value
// heatmaps so that a block means the same elements in both. A shape of two or more dimensions
// is read as the core's per-row counts read it: rows are the outermost dimension, columns
// everything inside it. A flat buffer, or one with a single dimension, is one row of n columns:
// a strip. Each cell covers rowsPerCell × colsPerCell elements (fewer at the last row / column).
struct MapGrid {
    bool flat = true;
    std::uint64_t rows = 0, cols = 0; // elements: shape rows × columns; flat: 1 × n
    std::uint64_t rowsPerCell = 1, colsPerCell = 1;
    std::uint32_t gridRows = 0, gridCols = 0;

    std::uint64_t elementCount() const { return rows * cols; }

    // The element rows [rowFirst, rowEnd) and columns [colFirst, colEnd) a cell covers.
    struct Range {
        std::uint64_t rowFirst = 0, rowEnd = 0, colFirst = 0, colEnd = 0;
    };
    Range cellRange(std::uint32_t row, std::uint32_t col) const;
    // The first element of a cell (its top-left one).
    std::uint64_t firstElementOfCell(std::uint32_t row, std::uint32_t col) const;
    // The cell holding element `index`; nullopt past the end.
    std::optional<std::pair<std::uint32_t, std::uint32_t>> cellOfElement(std::uint64_t index) const;
};

} // namespace dumpscope

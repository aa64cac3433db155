#pragma once

#include "dumpscope/buffer_source.h"

#include "dumpscope/diff_index.h"
#include "dumpscope/dtype.h"
#include "dumpscope/map_grid.h"

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

// Where the differences of one buffer pair sit, downsampled to a grid of blocks (MapGrid says
// how a shape is cut; so "rows 3 and 17 differ" in the CLI is rows 3 and 17 here, and a flat
// buffer is a density strip).
struct DivergenceMap : MapGrid {
    std::string error;          // why there is no map (the other fields are then empty)
    bool cancelled = false;     // the progress callback stopped the scan (error says so too)
    std::vector<MapCell> cells; // gridRows × gridCols, row by row
    MapCell total;              // the whole buffer as one cell

    bool ok() const { return error.empty(); }
    const MapCell& cell(std::uint32_t row, std::uint32_t col) const {
        return cells[std::size_t(row) * gridCols + col];
    }

    // Where a click on a cell goes: its first differing element, else its first element;
    // nullopt outside the grid.
    std::optional<std::uint64_t> elementOfCell(std::uint32_t row, std::uint32_t col) const;
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

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

// One side's values in a block, reduced to one: the value of largest magnitude, its sign kept
// (the first such element when several tie), so that a lone spike is not averaged away and the
// result is a value the buffer holds, exact. A block holding a NaN has a NaN peak: one NaN
// makes the block suspect however large its numbers. ±Inf is the peak of a block that holds it
// (and no NaN); a block of zeros has the first zero's sign.
struct HeatSide {
    double peak = 0;
    std::uint64_t nNan = 0, nInf = 0;
    bool hasNumber = false; // any element that is not NaN (peak is one of them until a NaN)
};

// One block of the value heatmaps: both sides' peaks and how far apart the sides are.
struct HeatCell {
    HeatSide a, b;
    std::uint64_t nDiff = 0;        // elements whose bits differ
    std::uint64_t nNanMismatch = 0; // of those, NaN on one side only
    // The largest |A−B| over the block (the statistics' |Δ|; +Inf included), 0 when none; NaN
    // when an element is NaN on one side only. A pair of NaNs whose bits differ is not a number
    // apart: it counts in nDiff but not here.
    double maxAbsDelta = 0;
    std::optional<std::uint64_t> firstDiff; // the block's first differing element
};

// A's and B's values and their |Δ| per block, on the divergence map's grid (same MapGrid for the
// same shape and resolution). A flat buffer is a one-row strip, as in the map.
struct ValueHeatmap : MapGrid {
    std::string error;           // why there is none (the other fields are then empty)
    bool cancelled = false;      // the progress callback stopped the scan (error says so too)
    std::vector<HeatCell> cells; // gridRows × gridCols, row by row
    double peakLimit = 0;        // the largest finite |peak| over both sides: their shared scale
    double deltaLow = 0, deltaHigh = 0; // the smallest and largest finite |Δ| > 0 over the cells

    bool ok() const { return error.empty(); }
    const HeatCell& cell(std::uint32_t row, std::uint32_t col) const {
        return cells[std::size_t(row) * gridCols + col];
    }
    // Where a click on a cell goes, as on the divergence map: its first differing element, else
    // its first element; nullopt outside the grid.
    std::optional<std::uint64_t> elementOfCell(std::uint32_t row, std::uint32_t col) const;
};

// Reads both files of one buffer once, in bounded chunks (memory: the cells plus two read
// buffers), and fills the heatmaps. Every element is decoded, so this is a pass of its own, run
// only when the heatmaps are wanted: the divergence map's pass skips equal runs unread. Fails
// as computeDivergenceMap fails (`error`, naming the file); `progress` may cancel.
ValueHeatmap computeValueHeatmap(const std::filesystem::path& a, const std::filesystem::path& b,
                                 DType dtype, const std::vector<std::uint64_t>& shape,
                                 const MapResolution& resolution = {},
                                 const ScanProgressFn& progress = {});
// The same for two sides that may be tensors inside self-describing files.
ValueHeatmap computeValueHeatmap(const BufferSource& a, const BufferSource& b, DType dtype,
                                 const std::vector<std::uint64_t>& shape,
                                 const MapResolution& resolution = {},
                                 const ScanProgressFn& progress = {});

} // namespace dumpscope

#include "report/report_map.h"

#include "dumpscope/buffer_source.h"
#include "dumpscope/divergence_map.h"

#include "report/report_svg.h"
#include "report/report_text.h"

namespace dumpscope::report {

namespace {

// "64 rows × 1024 columns, 1 × 16 elements per cell" or "flat, 5000 elements, 40 per cell".
std::string layoutText(const DivergenceMap& m) {
    if (m.flat)
        return "flat, " + std::to_string(m.cols) + " elements, " + std::to_string(m.colsPerCell) +
               " per cell";
    return std::to_string(m.rows) + " rows × " + std::to_string(m.cols) + " columns, " +
           std::to_string(m.rowsPerCell) + " × " + std::to_string(m.colsPerCell) +
           " elements per cell";
}

std::string swatch(const std::string& background) {
    return "<span class=\"swatch\" style=\"background:" + background + "\"></span>";
}

std::string legend(const DivergenceMap& m) {
    std::size_t differing = 0;
    for (const MapCell& c : m.cells)
        differing += c.nDiff != 0;
    return "<p class=\"note\">" + htmlEscape(layoutText(m)) + "; " + std::to_string(m.total.nDiff) +
           " elements differ, in " + std::to_string(differing) + " of " +
           std::to_string(m.cells.size()) + " cells. " + swatch(kMapEqualColour) + "equal " +
           swatch(std::string("linear-gradient(90deg,") + kMapScaleColours[0] + "," +
                  kMapScaleColours[1] + ")") +
           "the cell's max |Δ|, log scale from this map's smallest to its largest " +
           swatch(kMapNonFiniteColour) + "NaN or Inf on one side</p>\n";
}

} // namespace

std::string htmlDivergenceMap(const Analysis& analysis, const BufferResult& b, MapBudget& budget) {
    if (budget.maps == 0) return "";
    if (!hasElementData(b) && !b.loggedA && !b.loggedB)
        return "<p class=\"note\">No divergence map: its sides are read as two element types, or "
               "joined from shards.</p>\n";
    if (!hasElementData(b))
        return "<p class=\"note\">No divergence map: known by fingerprints alone; " +
               htmlEscape(fullTensorsCall(analysis, b)) + " writes the full tensors.</p>\n";
    const std::uint64_t bytes = (b.stats.nA + b.stats.nB) * dtypeSize(b.dtype);
    if (bytes > budget.bytes)
        return "<p class=\"note\">No divergence map: its files would take the maps past the " +
               std::to_string(kMapByteBudget >> 30) +
               " GiB a report reads for them (the window's Map panel draws it).</p>\n";
    --budget.maps;
    budget.bytes -= bytes;
    MapResolution resolution;
    resolution.rows = resolution.cols = kMapGrid;
    resolution.bins = kMapBins;
    const DivergenceMap m = computeDivergenceMap(sourceA(analysis, b), sourceB(analysis, b),
                                                 b.dtype, b.shape, resolution);
    if (!m.ok()) return "<p class=\"note\">No divergence map: " + htmlEscape(m.error) + "</p>\n";
    return "<div class=\"mapbox\"><p>Where the differences sit</p>" +
           svgDivergenceMap(m, "divergence map of " + b.name) + legend(m) + "</div>\n";
}

} // namespace dumpscope::report

#pragma once

// Inline SVG for the HTML report: static markup, no script, no external reference.

#include "report/report_common.h"

#include <string>
#include <string_view>
#include <vector>

namespace dumpscope {
struct DivergenceMap;
}

namespace dumpscope::report {

// What a bar chart's axes say: x is what the bars are bins of ("|Δ| decade"), y what they count.
struct ChartAxes {
    std::string_view x;
    std::string_view y = "elements";
};

// A bar chart of `bars` with `caption` as its accessible name: heights linear in count (every
// non-zero bar at least 1 px tall) on a y axis of round ticks (1, 2 or 5 times a power of ten),
// bars labelled at round exponents (every 1, 2, 5, 10… decades or powers of two, as far apart
// as their labels need), and both axes titled. Labels and titles are HTML-escaped here.
std::string svgBarChart(const std::vector<Bar>& bars, std::string_view caption,
                        const ChartAxes& axes);

// A divergence map as a grid of cells: grey where the runs are equal, yellow through dark red
// by the cell's max|Δ| on a log scale from the map's smallest to its largest, blue where a NaN
// or Inf is on one side only. A flat map is a strip. `map` must be ok().
std::string svgDivergenceMap(const DivergenceMap& map, std::string_view caption);
// The map's fixed colours, for the legend beside it; the scale's ends are kMapScaleColours.
inline constexpr const char* kMapEqualColour = "#e0e0e0";
inline constexpr const char* kMapNonFiniteColour = "#1e88e5";
inline constexpr const char* kMapScaleColours[] = {"#fed976", "#67000d"}; // smallest, largest

} // namespace dumpscope::report

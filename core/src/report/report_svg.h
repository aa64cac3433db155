#pragma once

// Inline SVG bar charts for the HTML report: static markup, no script, no external reference.

#include "report/report_common.h"

#include <string>
#include <string_view>
#include <vector>

namespace dumpscope::report {

// A bar chart of `bars` (heights linear in count, every non-zero bar at least 1 px tall) with
// `caption` as its accessible name. Labels and caption are HTML-escaped here.
std::string svgBarChart(const std::vector<Bar>& bars, std::string_view caption);

} // namespace dumpscope::report

#include "report/report_svg.h"

#include "report/report_text.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

namespace dumpscope::report {

namespace {
constexpr int kPlotHeight = 100;
constexpr int kTop = 14;    // room for count labels above the bars
constexpr int kBottom = 16; // room for bin labels below
constexpr int kMargin = 4;

// Count labels must fit above a bar: "1966" -> "2.0k", "2504133" -> "2.5M". The exact count
// is in the bar's tooltip.
std::string compactCount(std::uint64_t n) {
    if (n < 1000) return std::to_string(n);
    const char* units[] = {"k", "M", "G", "T", "P", "E"};
    double v = static_cast<double>(n);
    std::size_t u = 0;
    for (v /= 1000; v >= 999.5 && u + 1 < std::size(units); v /= 1000)
        ++u;
    char buf[32];
    std::snprintf(buf, sizeof buf, v < 9.95 ? "%.1f%s" : "%.0f%s", v, units[u]);
    return buf;
}
} // namespace

std::string svgBarChart(const std::vector<Bar>& bars, std::string_view caption) {
    const std::string name = htmlEscape(caption);
    if (bars.empty()) return "<p class=\"nochart\">" + name + ": no bins</p>";

    const int n = static_cast<int>(bars.size());
    const int barWidth = std::clamp(480 / n, 6, 28);
    const int width = 2 * kMargin + n * barWidth;
    const int height = kTop + kPlotHeight + kBottom;
    // Label every bar while they fit, otherwise about a dozen evenly spaced ones.
    const int labelEvery = n <= 16 ? 1 : (n + 11) / 12;
    std::uint64_t maxCount = 1;
    for (const auto& b : bars)
        maxCount = std::max(maxCount, b.count);

    std::string svg = "<svg class=\"chart\" role=\"img\" width=\"" + std::to_string(width) +
                      "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " +
                      std::to_string(width) + " " + std::to_string(height) + "\" aria-label=\"" +
                      name + "\"><title>" + name + "</title>";
    svg += "<line class=\"axis\" x1=\"" + std::to_string(kMargin) + "\" y1=\"" +
           std::to_string(kTop + kPlotHeight) + "\" x2=\"" + std::to_string(width - kMargin) +
           "\" y2=\"" + std::to_string(kTop + kPlotHeight) + "\"/>";
    for (int i = 0; i < n; ++i) {
        const auto& bar = bars[static_cast<std::size_t>(i)];
        const int x = kMargin + i * barWidth;
        const double fraction = static_cast<double>(bar.count) / static_cast<double>(maxCount);
        int h = static_cast<int>(fraction * kPlotHeight + 0.5);
        if (bar.count && h == 0) h = 1;
        const std::string label = htmlEscape(bar.label);
        const std::string count = std::to_string(bar.count);
        svg += "<rect class=\"bar\" x=\"" + std::to_string(x + 1) + "\" y=\"" +
               std::to_string(kTop + kPlotHeight - h) + "\" width=\"" +
               std::to_string(barWidth - 2) + "\" height=\"" + std::to_string(h) + "\"><title>" +
               label + ": " + count + "</title></rect>";
        const int mid = x + barWidth / 2;
        if (bar.count && labelEvery == 1)
            svg += "<text x=\"" + std::to_string(mid) + "\" y=\"" +
                   std::to_string(kTop + kPlotHeight - h - 2) + "\" text-anchor=\"middle\">" +
                   compactCount(bar.count) + "</text>";
        if (i % labelEvery == 0)
            svg += "<text x=\"" + std::to_string(mid) + "\" y=\"" + std::to_string(height - 4) +
                   "\" text-anchor=\"middle\">" + label + "</text>";
    }
    return svg + "</svg>";
}

} // namespace dumpscope::report

#include "report/report_svg.h"

#include "dumpscope/chart_axis.h"
#include "dumpscope/divergence_map.h"

#include "report/report_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>

namespace dumpscope::report {

namespace {

// Bar chart geometry, in px. The text is 11 px; kCharWidth is a digit's advance in it, used to
// keep labels from running into each other.
constexpr int kPlotHeight = 150;
constexpr int kPlotWidth = 360; // what the bars share, within kMinBar..kMaxBar each
constexpr int kMinBar = 8, kMaxBar = 64;
constexpr int kLeft = 50;   // y tick labels, then the y-axis title
constexpr int kTop = 16;    // count labels above the tallest bar
constexpr int kBottom = 38; // x tick labels, then the x-axis title
constexpr int kRight = 10;
constexpr double kCharWidth = 6.5;

std::string num(long long v) {
    return std::to_string(v);
}

std::string text(int x, int y, const char* anchor, const std::string& escaped,
                 const char* extra = "") {
    return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"" + anchor + "\"" +
           extra + ">" + escaped + "</text>";
}

std::string line(int x1, int y1, int x2, int y2, const char* cls) {
    return "<line class=\"" + std::string(cls) + "\" x1=\"" + num(x1) + "\" y1=\"" + num(y1) +
           "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) + "\"/>";
}

// Label every n-th exponent, n in 1, 2, 5, 10, 20, 50…: the smallest that keeps labels of
// `chars` characters apart on bars `barWidth` px wide.
int labelEvery(std::size_t chars, int barWidth) {
    const double need = (static_cast<double>(chars) * kCharWidth + 6) / barWidth;
    for (int power = 1;; power *= 10)
        for (int m : {1, 2, 5})
            if (power * m >= need) return power * m;
}

} // namespace

std::string svgBarChart(const std::vector<Bar>& bars, std::string_view caption,
                        const ChartAxes& axes) {
    const std::string name = htmlEscape(caption);
    if (bars.empty()) return "<p class=\"nochart\">" + name + ": no bins</p>";

    const int n = static_cast<int>(bars.size());
    const int barWidth = std::clamp(kPlotWidth / n, kMinBar, kMaxBar);
    const int plotRight = kLeft + n * barWidth;
    const int width = plotRight + kRight;
    const int height = kTop + kPlotHeight + kBottom;
    const int base = kTop + kPlotHeight; // the x axis
    std::uint64_t maxCount = 1;
    std::size_t longestLabel = 1;
    for (const auto& b : bars) {
        maxCount = std::max(maxCount, b.count);
        longestLabel = std::max(longestLabel, b.label.size());
    }
    const CountAxis axis = countAxis(maxCount, 4);
    const std::uint64_t step = axis.step, top = axis.top;
    const auto yOf = [&](std::uint64_t v) {
        return base - static_cast<int>(
                          static_cast<double>(v) / static_cast<double>(top) * kPlotHeight + 0.5);
    };

    std::string svg = "<svg class=\"chart\" role=\"img\" width=\"" + num(width) + "\" height=\"" +
                      num(height) + "\" viewBox=\"0 0 " + num(width) + " " + num(height) +
                      "\" aria-label=\"" + name + "\"><title>" + name + "</title>";
    for (std::uint64_t v = 0; v <= top; v += step) {
        const int y = yOf(v);
        svg += line(kLeft, y, plotRight, y, v ? "grid" : "axis") +
               line(kLeft - 4, y, kLeft, y, "axis") +
               text(kLeft - 6, y + 4, "end", compactCount(v));
    }
    svg += line(kLeft, kTop, kLeft, base, "axis");
    const int every = labelEvery(longestLabel, barWidth);
    const bool countLabels = barWidth >= 26; // "2.5M" above a bar
    for (int i = 0; i < n; ++i) {
        const auto& bar = bars[static_cast<std::size_t>(i)];
        const int x = kLeft + i * barWidth;
        int h = base - yOf(bar.count);
        if (bar.count && h == 0) h = 1;
        const std::string label = htmlEscape(bar.label);
        svg += "<rect class=\"bar\" x=\"" + num(x + 1) + "\" y=\"" + num(base - h) + "\" width=\"" +
               num(barWidth - 2) + "\" height=\"" + num(h) + "\"><title>" + label + ": " +
               std::to_string(bar.count) + "</title></rect>";
        const int mid = x + barWidth / 2;
        if (bar.count && countLabels)
            svg += text(mid, base - h - 3, "middle", compactCount(bar.count));
        if (bar.exponent % every == 0)
            svg += line(mid, base, mid, base + 4, "axis") + text(mid, base + 16, "middle", label);
    }
    svg +=
        text((kLeft + plotRight) / 2, height - 4, "middle", htmlEscape(axes.x), " class=\"title\"");
    svg += text(-(kTop + kPlotHeight / 2), 13, "middle", htmlEscape(axes.y),
                " class=\"title\" transform=\"rotate(-90)\"");
    return svg + "</svg>";
}

namespace {

// The colour scale of the window's map, yellow (smallest |Δ|) through orange and red to dark
// red (largest), cut into kLevels steps so that neighbouring cells of one step merge into one
// rectangle.
constexpr int kLevels = 8;
constexpr unsigned kAnchors[][3] = {{0xfe, 0xd9, 0x76},
                                    {0xfd, 0x8d, 0x3c},
                                    {0xf0, 0x3b, 0x20},
                                    {0xbd, 0x00, 0x26},
                                    {0x67, 0x00, 0x0d}};

std::string levelColour(int level) {
    constexpr int last = static_cast<int>(std::size(kAnchors)) - 1;
    const double x = static_cast<double>(level) / (kLevels - 1) * last;
    const int i = std::min(static_cast<int>(x), last - 1);
    const double f = x - i;
    char buf[8];
    unsigned rgb[3];
    for (int c = 0; c < 3; ++c)
        rgb[c] = static_cast<unsigned>(std::lround(
            kAnchors[i][c] +
            (static_cast<double>(kAnchors[i + 1][c]) - static_cast<double>(kAnchors[i][c])) * f));
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
    return buf;
}

constexpr int kEqual = -1, kNonFinite = kLevels;

// The level of each cell: kEqual, kNonFinite, or a step of log10 max|Δ| between the map's
// smallest and largest finite non-zero max|Δ|.
std::vector<int> cellLevels(const DivergenceMap& m) {
    double lo = std::numeric_limits<double>::infinity(), hi = 0;
    for (const MapCell& c : m.cells)
        if (c.nDiff && c.maxAbsDelta > 0 && std::isfinite(c.maxAbsDelta)) {
            lo = std::min(lo, c.maxAbsDelta);
            hi = std::max(hi, c.maxAbsDelta);
        }
    const double loLog = std::isfinite(lo) ? std::log10(lo) : 0,
                 hiLog = hi > 0 ? std::log10(hi) : 0;
    std::vector<int> levels;
    levels.reserve(m.cells.size());
    for (const MapCell& c : m.cells) {
        if (c.nDiff == 0)
            levels.push_back(kEqual);
        else if (c.nNonFinite > 0 || std::isinf(c.maxAbsDelta))
            levels.push_back(kNonFinite);
        else if (c.maxAbsDelta <= 0) // only ±0 or NaN payloads differ
            levels.push_back(0);
        else if (hiLog <= loLog)
            levels.push_back(kLevels - 1);
        else
            levels.push_back(static_cast<int>(std::lround((std::log10(c.maxAbsDelta) - loLog) /
                                                          (hiLog - loLog) * (kLevels - 1))));
    }
    return levels;
}

} // namespace

std::string svgDivergenceMap(const DivergenceMap& m, std::string_view caption) {
    const int rows = static_cast<int>(m.gridRows), cols = static_cast<int>(m.gridCols);
    if (rows == 0 || cols == 0) return "";
    // A grid of up to about 384 × 256 px, whatever its number of rows and columns; a flat map
    // is one strip 20 px tall.
    const int cellW = std::clamp((m.flat ? 512 : 384) / cols, 2, 24);
    const int cellH = m.flat ? 20 : std::clamp(256 / rows, 2, 24);
    const std::string lastRow = std::to_string(m.rows ? m.rows - 1 : 0);
    const std::string lastCol = std::to_string(m.cols ? m.cols - 1 : 0);
    const int left = m.flat ? 8 : 20 + static_cast<int>(lastRow.size() * kCharWidth);
    const int top = 16;
    const int gridW = cols * cellW, gridH = rows * cellH;
    const int width = left + std::max(gridW, static_cast<int>(lastCol.size() * kCharWidth) + 8) + 8;
    const int height = top + gridH + 20;
    const std::string name = htmlEscape(caption);

    std::string svg = "<svg class=\"map\" role=\"img\" width=\"" + num(width) + "\" height=\"" +
                      num(height) + "\" viewBox=\"0 0 " + num(width) + " " + num(height) +
                      "\" aria-label=\"" + name + "\"><title>" + name + "</title>";
    svg += "<rect x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(gridW) +
           "\" height=\"" + num(gridH) + "\" fill=\"" + kMapEqualColour + "\"/>";
    // Each run of equally coloured cells in a row is one subpath of its colour's one path:
    // a 64 × 64 map stays a few kilobytes.
    const std::vector<int> levels = cellLevels(m);
    std::string paths[kLevels + 1];
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols;) {
            const int level = levels[static_cast<std::size_t>(r) * cols + c];
            int end = c + 1;
            while (end < cols && levels[static_cast<std::size_t>(r) * cols + end] == level)
                ++end;
            if (level != kEqual)
                paths[level] += "M" + num(left + c * cellW) + " " + num(top + r * cellH) + "h" +
                                num((end - c) * cellW) + "v" + num(cellH) + "h-" +
                                num((end - c) * cellW) + "z";
            c = end;
        }
    for (int level = 0; level <= kLevels; ++level)
        if (!paths[level].empty())
            svg += "<path fill=\"" +
                   (level == kNonFinite ? std::string(kMapNonFiniteColour) : levelColour(level)) +
                   "\" d=\"" + paths[level] + "\"/>";
    // Where the grid starts and ends, in elements: rows down the left, columns along the top.
    svg += text(left, top - 4, "start", "0") + text(left + gridW, top - 4, "end", lastCol);
    if (!m.flat)
        svg += text(left - 4, top + 10, "end", "0") + text(left - 4, top + gridH, "end", lastRow) +
               text(-(top + gridH / 2), 11, "middle", "row",
                    " class=\"title\" transform=\"rotate(-90)\"");
    svg += text(left + gridW / 2, height - 4, "middle", m.flat ? "element" : "column",
                " class=\"title\"");
    return svg + "</svg>";
}

} // namespace dumpscope::report

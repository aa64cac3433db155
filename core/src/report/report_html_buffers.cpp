#include "report/report_html_buffers.h"

#include "dumpscope/shape.h"
#include "dumpscope/tolerance_to_pass.h"
#include "dumpscope/verdict.h"

#include "report/report_common.h"
#include "report/report_map.h"
#include "report/report_svg.h"
#include "report/report_text.h"

#include <utility>

namespace dumpscope::report {

namespace {

// A cell; `title`, when not empty, is its tooltip (escaped here).
std::string td(const std::string& escapedText, const char* cls = nullptr,
               const std::string& title = {}) {
    std::string open = "<td";
    if (cls) open += " class=\"" + std::string(cls) + "\"";
    if (!title.empty()) open += " title=\"" + htmlEscape(title) + "\"";
    return open + ">" + escapedText + "</td>";
}

// Short headers keep the table within a page; a tooltip says what each one counts.
constexpr std::pair<const char*, const char*> kColumns[] = {
    {"step", ""},
    {"group", ""},
    {"buffer", ""},
    {"dtype", ""},
    {"kind", ""},
    {"differ", "elements that differ / elements compared"},
    {"first", "index of the first differing element (its values in the tooltip)"},
    {"last", "index of the last differing element"},
    {"max |Δ|", "largest |A − B| (where, in the tooltip)"},
    {"max rel", "largest |A − B| / max(|A|, |B|)"},
    {"ULP", "largest distance in units in the last place"},
    {"to pass", "the smallest --atol / --rtol / --ulp that would each alone make the buffer within "
                "tolerance (exact values in the tooltip); none: no value would"},
    {"NaN A/B", "NaN elements in run A / run B"},
    {"Inf A/B", "infinite elements in run A / run B"},
    {"±0", "differences that are only +0 against −0"},
    {"hash A", "XXH3-64 of run A's bytes: the first 8 hex digits, all 16 in the tooltip"},
    {"hash B", "XXH3-64 of run B's bytes: the first 8 hex digits, all 16 in the tooltip"},
};

// A count in at most four characters, exact in the tooltip when shortened.
std::string countCell(std::uint64_t n) {
    const std::string shown = compactCount(n);
    return td(shown, "n", shown == std::to_string(n) ? std::string() : std::to_string(n));
}

// "3/10", "2.5M/4.2M" (exact in the tooltip, with both runs' lengths when they differ).
std::string differCell(const BufferResult& b) {
    const auto& s = b.stats;
    const std::string shown = compactCount(s.nDiff) + "/" + compactCount(std::min(s.nA, s.nB)) +
                              (s.nA != s.nB ? " (A≠B)" : "");
    const std::string exact = countText(b);
    return td(htmlEscape(shown), "n", shown == exact ? std::string() : exact);
}

std::string pairCell(std::uint64_t a, std::uint64_t b) {
    const std::string shown = compactCount(a) + "/" + compactCount(b);
    const std::string exact = std::to_string(a) + "/" + std::to_string(b);
    return td(shown, "n", shown == exact ? std::string() : exact);
}

// "1.19e-07 / 2.83e-06 / 32": atol / rtol / ulp to three digits, exact in the tooltip.
std::string toPassCell(const BufferResult& b) {
    const auto t = toleranceToPass(b);
    if (!t) return td("", "n");
    const auto value = [](const std::optional<double>& v) {
        return v ? formatNumber(*v, 3) : std::string("none");
    };
    const std::string shown = value(t->atol) + " / " + value(t->rtol) + " / " +
                              (t->ulp ? compactCount(*t->ulp) : std::string("none"));
    return td(htmlEscape(shown), "n", toleranceToPassText(*t));
}

std::string hashCell(std::uint64_t hash) {
    const std::string full = hex16(hash);
    return td(full.substr(0, 8), "mono", full);
}

} // namespace

std::string breakableName(const std::string& name) {
    std::string out;
    for (char c : htmlEscape(name)) {
        out += c;
        if (c == '_') out += "<wbr>";
    }
    return out;
}

void htmlDifferingTable(std::string& h, const Analysis& a,
                        const std::vector<std::size_t>& differing, std::size_t shown) {
    h += "<h2>Differing buffers</h2>\n<table class=\"stats\"><tr>";
    for (const auto& [name, title] : kColumns)
        h += *title ? "<th title=\"" + htmlEscape(title) + "\">" + htmlEscape(name) + "</th>"
                    : "<th>" + std::string(name) + "</th>";
    h += "</tr>\n";
    for (std::size_t r = 0; r < shown; ++r) {
        const auto& b = a.buffers[differing[r]];
        const auto& s = b.stats;
        const std::string first = s.firstDiff ? indexText(b, *s.firstDiff) : "";
        const std::string where =
            s.maxAbsDeltaIndex ? "at " + indexText(b, *s.maxAbsDeltaIndex) : std::string();
        h += "<tr>" + td(std::to_string(b.step), "n") +
             td("<code>" + breakableName(b.group) + "</code>", "name") +
             td("<a href=\"#b" + std::to_string(differing[r]) + "\"><code>" +
                    breakableName(b.name) + "</code></a>",
                "name buf") +
             td(htmlEscape(dtypeName(b.dtype))) + td(breakableName(kindText(b)), "name") +
             differCell(b) + td("<code>" + htmlEscape(first) + "</code>", "n", firstDiffText(b)) +
             td(s.lastDiff ? htmlEscape(indexText(b, *s.lastDiff)) : "", "n") +
             td(htmlEscape(formatNumber(s.maxAbsDelta, 3)), "n",
                formatNumber(s.maxAbsDelta) + (where.empty() ? "" : " " + where)) +
             td(htmlEscape(formatNumber(s.maxRelDelta, 3)), "n", formatNumber(s.maxRelDelta)) +
             countCell(s.maxUlp) + toPassCell(b) + pairCell(s.nanA, s.nanB) +
             pairCell(s.infA, s.infB) + countCell(s.signedZeroDiffs) + hashCell(s.hashA) +
             hashCell(s.hashB) + "</tr>\n";
    }
    h += "</table>\n";
    if (shown < differing.size())
        h += "<p class=\"note\">… and " + std::to_string(differing.size() - shown) +
             " more differing buffers (see the JSON report).</p>\n";
}

namespace {

void diffTable(std::string& h, const BufferResult& b, const std::vector<ElementDiff>& diffs,
               const char* title) {
    if (diffs.empty()) return;
    h += "<table class=\"diffs\"><tr><th colspan=\"6\">" + std::string(title) +
         "</th></tr><tr><th>index</th><th>A</th><th>B</th><th>A bits</th><th>B bits</th>"
         "<th>|Δ|</th></tr>";
    for (const auto& d : diffs)
        h += "<tr>" + td(htmlEscape(indexText(b, d.index)), "n") +
             td(htmlEscape(formatValue(b.dtype, d.bitsA)), "n") +
             td(htmlEscape(formatValue(b.dtype, d.bitsB)), "n") +
             td(htmlEscape(formatBits(b.dtype, d.bitsA)), "mono") +
             td(htmlEscape(formatBits(b.dtype, d.bitsB)), "mono") +
             td(htmlEscape(formatNumber(d.absDelta)), "n") + "</tr>";
    h += "</table>\n";
}

// ", shape [64, 8]" or ", shape not applied: <why>".
std::string shapeText(const BufferResult& b) {
    if (!b.shapeError.empty()) return ", shape not applied: " + htmlEscape(b.shapeError);
    if (b.shape.empty()) return "";
    std::string dims;
    for (auto d : b.shape)
        dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    return ", shape [" + dims + "]";
}

// Where the differences sit in a shaped buffer: whole rows or a scatter name different bugs.
std::string placement(const BufferResult& b) {
    const std::string text = placementSummary(b.stats, b.shape);
    return text.empty() ? "" : "<p>" + htmlEscape(text) + "</p>\n";
}

std::string charts(const BufferStats& s) {
    return "<div class=\"charts\"><div>"
           "<p>log10 |Δ| per decade</p>" +
           svgBarChart(deltaBars(s.deltaHistogram), "log10 |Δ| per decade", {"|Δ| decade"}) +
           "<p class=\"note\">|Δ| = 0 (sign of zero only): " +
           std::to_string(s.deltaHistogram.zero) +
           " · NaN: " + std::to_string(s.deltaHistogram.nan) +
           " · infinite: " + std::to_string(s.deltaHistogram.infinite) +
           "</p></div><div>"
           "<p>ULP distance per power of two</p>" +
           svgBarChart(ulpBars(s.ulpHistogram), "ULP distance per power of two", {"ULP distance"}) +
           "<p class=\"note\">no ULP distance (NaN): " + std::to_string(s.ulpHistogram.undefined) +
           "</p></div></div>\n";
}

} // namespace

void htmlDifferingDetails(std::string& h, const Analysis& a,
                          const std::vector<std::size_t>& differing, std::size_t shown) {
    h += "<h2>Differing buffers in detail</h2>\n";
    if (shown > kMaxMaps)
        h += "<p class=\"note\">Divergence maps are drawn for the first " +
             std::to_string(kMaxMaps) +
             " buffers below; the window's Map panel draws any buffer's.</p>\n";
    MapBudget budget;
    for (std::size_t r = 0; r < shown; ++r) {
        const auto& b = a.buffers[differing[r]];
        h += "<section id=\"b" + std::to_string(differing[r]) + "\"><h3>step " +
             std::to_string(b.step) + " · <code>" + htmlEscape(b.group) + "</code> · <code>" +
             htmlEscape(b.name) + "</code> <span class=\"note\">(" + htmlEscape(b.fileName) + ", " +
             htmlEscape(dtypeName(b.dtype)) + shapeText(b) + ")</span></h3>\n" + placement(b) +
             charts(b.stats) + htmlDivergenceMap(a, b, budget);
        diffTable(h, b, b.stats.firstDiffs, "first differing elements");
        diffTable(h, b, b.stats.largestDiffs, "largest |Δ|");
        h += "</section>\n";
    }
}

} // namespace dumpscope::report

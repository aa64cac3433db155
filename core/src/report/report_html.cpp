// One self-contained HTML page: inline <style>, inline SVG, no <script>, no external
// reference, so it can be attached to a ticket and opened anywhere. Every piece of text that
// comes from a file name, a schema or a message goes through htmlEscape, so a hostile
// name cannot add markup; only markup written here is emitted raw.

#include "dumpscope/growth.h"
#include "dumpscope/report.h"
#include "dumpscope/shape.h"
#include "dumpscope/verdict.h"
#include "dumpscope/version.h"

#include "report/report_common.h"
#include "report/report_svg.h"
#include "report/report_text.h"

#include <algorithm>

namespace dumpscope {

namespace {

using report::htmlEscape;

// One-sided cells are hatched so they read differently from "missing" in print too.
constexpr const char* kStyle = R"(
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em 2em;color:#212121;max-width:80em}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ddd}
h3{font-size:1em;margin:1.2em 0 .3em}
table{border-collapse:collapse;margin:.4em 0}
th,td{border:1px solid #ccc;padding:2px 7px;vertical-align:top}
th{background:#f5f5f5;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}
table.matrix td{text-align:center;min-width:3.5em}
.eq{background:#c8e6c9}
.div{background:#ef9a9a;font-weight:bold}
.miss{background:#eee;color:#888}
.onea,.oneb{background:repeating-linear-gradient(45deg,#d6d6d6 0 4px,#fff 4px 8px)}
.err{background:#ffcc80}
.tol{background:#e6ee9c}
.pend{background:#fff;color:#888;font-style:italic}
.verdict{padding:.6em 1em;border-radius:4px;border:1px solid #bbb}
code,pre,.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.95em}
pre{background:#f7f7f7;padding:.7em;border:1px solid #e0e0e0;overflow-x:auto}
.charts{display:flex;flex-wrap:wrap;gap:2em}
.chart .bar{fill:#c62828}.chart .axis{stroke:#555}
.chart text{font:9px sans-serif;fill:#333}
.legend span{display:inline-block;padding:0 .6em;margin-right:.4em;border:1px solid #ccc}
.note{color:#666}
)";

std::string td(const std::string& escapedText, const char* cls = nullptr) {
    return cls ? "<td class=\"" + std::string(cls) + "\">" + escapedText + "</td>"
               : "<td>" + escapedText + "</td>";
}

std::string joinEscaped(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names)
        out += (out.empty() ? "" : ", ") + ("<code>" + htmlEscape(n) + "</code>");
    return out.empty() ? "none" : out;
}

void header(std::string& h, const Analysis& a) {
    h += "<h1>dumpscope report</h1>\n<table class=\"meta\">";
    h += "<tr><th>Run A</th><td class=\"mono\">" + htmlEscape(report::pathBytes(a.runA)) +
         "</td></tr>";
    h += "<tr><th>Run B</th><td class=\"mono\">" + htmlEscape(report::pathBytes(a.runB)) +
         "</td></tr>";
    if (a.schema) h += "<tr><th>Schema</th><td>" + htmlEscape(a.schema->name) + "</td></tr>";
    if (const std::string t = report::toleranceText(a); !t.empty())
        h += "<tr><th>Tolerance</th><td>" + htmlEscape(t) + "</td></tr>";
    h += "<tr><th>Tool</th><td>dumpscope " + htmlEscape(version()) + "</td></tr></table>\n";
}

void verdict(std::string& h, const Analysis& a) {
    const Verdict& v = a.verdict;
    const bool inputError = !a.errorA.empty() || !a.errorB.empty();
    const std::string_view notCompared = notComparedReason(a);
    const char* cls = !notCompared.empty() ? "err" : v.firstDivergentStep ? "div" : "eq";
    h += "<h2>Verdict</h2>\n<div class=\"verdict " + std::string(cls) + "\">";
    if (inputError)
        h += "<strong>Input error.</strong>";
    else if (!notCompared.empty())
        h += "<strong>Nothing compared:</strong> " + htmlEscape(notCompared) + ".";
    else if (v.firstDivergentStep)
        h += "<strong>Divergence.</strong> First divergent step <strong>" +
             std::to_string(*v.firstDivergentStep) + "</strong>; diverged groups " +
             joinEscaped(v.divergedGroups) + ".";
    else
        h += "<strong>All compared buffers are bitwise equal.</strong>";
    h += " Decision case <code>" + htmlEscape(decisionCaseName(v.decisionCase)) +
         "</code>, exit code " + std::to_string(v.exitCode) + ".";
    if (a.cancelled) h += " <em>The analysis was cancelled: results are incomplete.</em>";
    for (const auto* err : {&a.errorA, &a.errorB})
        if (!err->empty()) h += "<br>" + htmlEscape(*err);
    if (const std::string oneSided = oneSidedWarning(v); !oneSided.empty())
        h += "<br><strong>Warning:</strong> " + htmlEscape(oneSided) + ".";
    h += "</div>\n";
    const RootCause& rc = v.rootCause;
    if (!rc.step) return;
    h += "<h2>Root cause</h2>\n<p>At step " + std::to_string(*rc.step) +
         ", following the dataflow upstream: ";
    if (!rc.groups.empty() || rc.undecidedGroups.empty())
        h +=
            "groups " + joinEscaped(rc.groups) + "; buffers " + joinEscaped(rc.buffers) + ".</p>\n";
    else
        h += "not determined: an input could not be judged.</p>\n";
    if (const std::string kind = report::rootKindText(v); !kind.empty())
        h += "<p>Kind: " + htmlEscape(kind) + "</p>\n";
    if (const auto lines = undecidedRootLines(a); !lines.empty()) {
        h += "<ul>";
        for (const auto& line : lines)
            h += "<li>" + htmlEscape(line) + "</li>";
        h += "</ul>\n";
    }
    if (rc.groups.size() > 1) { // independent sources: each needs its own fix
        h += "<p>Sources:";
        for (const auto& s : rc.sources)
            h += std::string(&s == &rc.sources.front() ? " " : ", ") + "<code>" +
                 htmlEscape(s.group + "/" + s.buffer) + "</code> (" + htmlEscape(kindName(s.kind)) +
                 ")";
        h += "</p>\n";
    }
    if (const auto notes = rootCauseNotes(a); !notes.empty()) {
        h += "<ul class=\"notes\">";
        for (const auto& line : notes)
            h += "<li><strong>Note:</strong> " + htmlEscape(line) + "</li>";
        h += "</ul>\n";
    }
}

void matrix(std::string& h, const Analysis& a) {
    if (a.matrix.empty()) return;
    const auto columns = report::matrixColumns(a);
    h += "<h2>Step × group matrix</h2>\n<table class=\"matrix\"><tr><th>step</th>";
    for (const auto& id : columns) {
        const GroupSpec* g = a.schema ? a.schema->group(id) : nullptr;
        h += "<th title=\"" + htmlEscape(g ? g->label : id) + "\">" + htmlEscape(id) + "</th>";
    }
    h += "</tr>\n";
    const std::size_t shown = std::min(a.matrix.size(), report::kMaxTableRows);
    for (std::size_t r = 0; r < shown; ++r) {
        const auto& step = a.matrix[r];
        h += "<tr><th>" + std::to_string(step.step) + "</th>";
        for (const auto& id : columns) {
            const GroupCell* cell = report::findCell(step, id);
            std::string title = cell ? std::string(statusName(cell->status)) : "missing";
            if (cell && isDivergent(cell->status))
                title += ", max |Δ| " + report::formatNumber(cell->maxAbsDelta);
            h += "<td class=\"" + std::string(report::cellClass(cell)) + "\" title=\"" +
                 htmlEscape(title) + "\">" + htmlEscape(report::cellText(a, cell)) + "</td>";
        }
        h += "</tr>\n";
    }
    h += "</table>\n";
    if (shown < a.matrix.size())
        h += "<p class=\"note\">… and " + std::to_string(a.matrix.size() - shown) +
             " more steps (see the JSON report).</p>\n";
    h +=
        "<p class=\"legend\"><span class=\"eq\">=</span>equal <span class=\"div\">n/m</span>n of m "
        "compared buffers diverge <span class=\"tol\">≈n/m</span>within tolerance "
        "<span class=\"onea\">A only</span>one run only "
        "<span class=\"err\">err</span>unreadable or malformed <span class=\"miss\">—</span>not "
        "dumped";
    if (a.cancelled) h += " <span class=\"pend\">…</span>not compared (cancelled)";
    h += "</p>\n";
}

void statsTable(std::string& h, const Analysis& a, const std::vector<std::size_t>& differing,
                std::size_t shown) {
    h += "<h2>Differing buffers</h2>\n<table class=\"stats\"><tr><th>step</th><th>group</th>"
         "<th>buffer</th><th>dtype</th><th>kind</th><th>n_diff/n</th><th>first diff</th><th>last "
         "diff</th>"
         "<th>max |Δ| [index]</th><th>max rel Δ</th><th>max ULP</th><th>to pass: atol / rtol / "
         "ulp</th><th>NaN A/B</th>"
         "<th>Inf A/B</th><th>±0 only</th><th>hash A</th><th>hash B</th></tr>\n";
    for (std::size_t r = 0; r < shown; ++r) {
        const auto& b = a.buffers[differing[r]];
        const auto& s = b.stats;
        std::string maxDelta = report::formatNumber(s.maxAbsDelta);
        if (s.maxAbsDeltaIndex) maxDelta += " " + report::indexText(b, *s.maxAbsDeltaIndex);
        h += "<tr>" + td(std::to_string(b.step), "n") +
             td("<code>" + htmlEscape(b.group) + "</code>") +
             td("<a href=\"#b" + std::to_string(differing[r]) + "\"><code>" + htmlEscape(b.name) +
                "</code></a>") +
             td(htmlEscape(dtypeName(b.dtype))) + td(htmlEscape(report::kindText(b))) +
             td(htmlEscape(report::countText(b)), "n") +
             td("<code>" + htmlEscape(report::firstDiffText(b)) + "</code>") +
             td(s.lastDiff ? std::to_string(*s.lastDiff) : "", "n") +
             td(htmlEscape(maxDelta), "n") +
             td(htmlEscape(report::formatNumber(s.maxRelDelta, 3)), "n") +
             td(std::to_string(s.maxUlp), "n") + td(htmlEscape(report::toPassText(b)), "n") +
             td(std::to_string(s.nanA) + "/" + std::to_string(s.nanB), "n") +
             td(std::to_string(s.infA) + "/" + std::to_string(s.infB), "n") +
             td(std::to_string(s.signedZeroDiffs), "n") + td(report::hex16(s.hashA), "mono") +
             td(report::hex16(s.hashB), "mono") + "</tr>\n";
    }
    h += "</table>\n";
    if (shown < differing.size())
        h += "<p class=\"note\">… and " + std::to_string(differing.size() - shown) +
             " more differing buffers (see the JSON report).</p>\n";
}

void diffTable(std::string& h, const BufferResult& b, const std::vector<ElementDiff>& diffs,
               const char* title) {
    if (diffs.empty()) return;
    h += "<table class=\"diffs\"><tr><th colspan=\"6\">" + std::string(title) +
         "</th></tr><tr><th>index</th><th>A</th><th>B</th><th>A bits</th><th>B bits</th>"
         "<th>|Δ|</th></tr>";
    for (const auto& d : diffs)
        h += "<tr>" + td(htmlEscape(report::indexText(b, d.index)), "n") +
             td(htmlEscape(formatValue(b.dtype, d.bitsA)), "n") +
             td(htmlEscape(formatValue(b.dtype, d.bitsB)), "n") +
             td(htmlEscape(formatBits(b.dtype, d.bitsA)), "mono") +
             td(htmlEscape(formatBits(b.dtype, d.bitsB)), "mono") +
             td(htmlEscape(report::formatNumber(d.absDelta)), "n") + "</tr>";
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

void details(std::string& h, const Analysis& a, const std::vector<std::size_t>& differing,
             std::size_t shown) {
    h += "<h2>Differing buffers in detail</h2>\n";
    for (std::size_t r = 0; r < shown; ++r) {
        const auto& b = a.buffers[differing[r]];
        const auto& s = b.stats;
        h +=
            "<section id=\"b" + std::to_string(differing[r]) + "\"><h3>step " +
            std::to_string(b.step) + " · <code>" + htmlEscape(b.group) + "</code> · <code>" +
            htmlEscape(b.name) + "</code> <span class=\"note\">(" + htmlEscape(b.fileName) + ", " +
            htmlEscape(dtypeName(b.dtype)) + shapeText(b) + ")</span></h3>\n" + placement(b) +
            "<div class=\"charts\"><div>"
            "<p>log10 |Δ| per decade</p>" +
            report::svgBarChart(report::deltaBars(s.deltaHistogram), "log10 |Δ| per decade") +
            "<p class=\"note\">|Δ| = 0 (sign of zero only): " +
            std::to_string(s.deltaHistogram.zero) +
            " · NaN: " + std::to_string(s.deltaHistogram.nan) +
            " · infinite: " + std::to_string(s.deltaHistogram.infinite) +
            "</p></div><div>"
            "<p>ULP distance per power of two</p>" +
            report::svgBarChart(report::ulpBars(s.ulpHistogram), "ULP distance per power of two") +
            "<p class=\"note\">no ULP distance (NaN): " + std::to_string(s.ulpHistogram.undefined) +
            "</p></div></div>\n";
        diffTable(h, b, s.firstDiffs, "first differing elements");
        diffTable(h, b, s.largestDiffs, "largest |Δ|");
        h += "</section>\n";
    }
}

// n_diff per step of every buffer that differs somewhere; the tooltip has max |Δ|.
void growth(std::string& h, const Analysis& a) {
    auto series = growthSeries(a);
    std::erase_if(series, [](const GrowthSeries& s) { return !s.anyDifference(); });
    if (series.empty() || a.steps.empty()) return;
    const std::size_t nSteps = std::min(a.steps.size(), report::kMaxGrowthSteps);
    h += "<h2>Growth across steps (differing elements)</h2>\n<table class=\"matrix\"><tr>"
         "<th>group</th><th>buffer</th>";
    for (std::size_t c = 0; c < nSteps; ++c)
        h += "<th>" + std::to_string(a.steps[c]) + "</th>";
    h += "</tr>\n";
    const std::size_t shown = std::min(series.size(), report::kMaxTableRows);
    for (std::size_t r = 0; r < shown; ++r) {
        h += "<tr><td><code>" + htmlEscape(series[r].group) + "</code></td><td><code>" +
             htmlEscape(series[r].name) + "</code></td>";
        for (std::size_t c = 0; c < nSteps; ++c) {
            const auto& p = series[r].points[c];
            GroupCell cell; // reuse the matrix colours for a single buffer
            cell.status = p.status;
            std::string title(statusName(p.status));
            if (differsBitwise(p.status))
                title += ", max |Δ| " + report::formatNumber(p.maxAbsDelta);
            h += "<td class=\"" + std::string(report::cellClass(&cell)) + "\" title=\"" +
                 htmlEscape(title) + "\">" + htmlEscape(report::growthCellText(p.status, p.nDiff)) +
                 "</td>";
        }
        h += "</tr>\n";
    }
    h += "</table>\n";
    if (shown < series.size() || nSteps < a.steps.size())
        h += "<p class=\"note\">The table is cut to " + std::to_string(shown) + " buffers and " +
             std::to_string(nSteps) + " steps; the JSON report has them all.</p>\n";
}

void problems(std::string& h, const Analysis& a) {
    const auto errors = report::errorBuffers(a);
    if (!errors.empty()) {
        h += "<h2>Errors</h2>\n<ul>";
        for (std::size_t i : errors) {
            const auto& b = a.buffers[i];
            h += "<li>step " + std::to_string(b.step) + " <code>" + htmlEscape(b.fileName) +
                 "</code>: " +
                 htmlEscape(b.error.empty() ? std::string(statusName(b.status)) : b.error) +
                 "</li>";
        }
        h += "</ul>\n";
    }
    const auto oneSided = report::oneSidedBuffers(a);
    if (!oneSided.empty()) {
        h += "<h2>Present in one run only</h2>\n<ul>";
        for (std::size_t i : oneSided)
            h += "<li><code>" + htmlEscape(a.buffers[i].fileName) + "</code> only in run " +
                 (a.buffers[i].status == Status::only_in_a ? "A" : "B") + "</li>";
        h += "</ul>\n";
    }
    const auto list = [&h](const char* title, const auto& items, bool mono) {
        if (items.empty()) return;
        h += "<h2>" + std::string(title) + "</h2>\n<ul>";
        for (const auto& item : items)
            h += mono ? "<li><code>" + htmlEscape(item) + "</code></li>"
                      : "<li>" + htmlEscape(item) + "</li>";
        h += "</ul>\n";
    };
    list("Unclassified files", a.unclassified, true);
    list("Warnings", a.warnings, false);
}

} // namespace

std::string reportHtml(const Analysis& analysis) {
    std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<title>dumpscope report</title>\n<style>";
    h += kStyle;
    h += "</style>\n</head>\n<body>\n";
    header(h, analysis);
    verdict(h, analysis);
    matrix(h, analysis);
    const auto differing = report::differingBuffers(analysis);
    const std::size_t shown = std::min(differing.size(), report::kMaxTableRows);
    if (!differing.empty()) {
        statsTable(h, analysis, differing, shown);
        details(h, analysis, differing, shown);
    }
    growth(h, analysis);
    problems(h, analysis);
    if (!analysis.verdict.text.empty())
        h += "<h2>Interpretation (reference decision tree)</h2>\n<pre>" +
             htmlEscape(analysis.verdict.text, true) + "</pre>\n";
    h += "</body>\n</html>\n";
    return h;
}

} // namespace dumpscope

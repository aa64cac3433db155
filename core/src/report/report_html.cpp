// One self-contained HTML page: inline <style>, inline SVG, no <script>, no external
// reference, so it can be attached to a ticket and opened anywhere. Every piece of text that
// comes from a file name, a schema or a message goes through htmlEscape, so a hostile
// name cannot add markup; only markup written here is emitted raw.

#include "dumpscope/growth.h"
#include "dumpscope/report.h"
#include "dumpscope/shape.h"
#include "dumpscope/verdict.h"
#include "dumpscope/version.h"

#include "dumpscope/noise_floor.h"

#include "report/report_common.h"
#include "report/report_html_buffers.h"
#include "report/report_text.h"

#include <algorithm>
#include <ctime>

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
.chart .bar{fill:#c62828}.chart .axis{stroke:#555}.chart .grid{stroke:#e6e6e6}
.chart text,.map text{font:11px sans-serif;fill:#333}
.chart .title,.map .title{font-weight:600}
table.stats{font-size:12.5px}
table.stats th,table.stats td{padding:2px 4px}
table.stats td{white-space:nowrap}
table.stats td.name{white-space:normal}
table.stats td.buf{min-width:11em}
.swatch{display:inline-block;width:1.6em;height:.9em;border:1px solid #bbb;vertical-align:middle;
margin:0 .3em 0 .6em}
.legend span{display:inline-block;padding:0 .6em;margin-right:.4em;border:1px solid #ccc}
.note{color:#666}
)";

std::string joinEscaped(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names)
        out += (out.empty() ? "" : ", ") + ("<code>" + htmlEscape(n) + "</code>");
    return out.empty() ? "none" : out;
}

// "2026-05-04T13:07Z". To the minute: a report is dated for the reader, and two renders of one
// analysis a moment apart (an export, then a check of it) should not differ by their seconds.
std::string isoMinuteUtc(std::chrono::system_clock::time_point t) {
    const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%MZ", &utc);
    return buf;
}

// "bitwise", or the tolerance given; and the noise floor the pair was read over, if any.
std::string comparisonMode(const Analysis& a) {
    const std::string tolerance = report::toleranceText(a);
    std::string mode = tolerance.empty() ? "bitwise" : "tolerance: " + tolerance;
    if (a.noiseFloor) {
        const std::size_t n = a.noiseFloor->reruns.size();
        mode += "; over the noise floor of " + std::to_string(n) + (n == 1 ? " rerun" : " reruns");
    }
    return mode;
}

void header(std::string& h, const Analysis& a, std::chrono::system_clock::time_point madeAt) {
    const std::string date = isoMinuteUtc(madeAt);
    h += "<h1>dumpscope report</h1>\n<table class=\"meta\">";
    h += "<tr><th>Run A</th><td class=\"mono\">" + htmlEscape(report::pathBytes(a.runA)) +
         "</td></tr>";
    h += "<tr><th>Run B</th><td class=\"mono\">" + htmlEscape(report::pathBytes(a.runB)) +
         "</td></tr>";
    h += "<tr><th>Comparison</th><td>" + htmlEscape(comparisonMode(a)) + "</td></tr>";
    if (a.schema) h += "<tr><th>Schema</th><td>" + htmlEscape(a.schema->name) + "</td></tr>";
    h += "<tr><th>Made</th><td><time datetime=\"" + date + "\">" + date + "</time> (UTC)</td></tr>";
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
    // The reference's reading of the case, before any table: what to look at next.
    const bool own = a.terms == VerdictTerms::own;
    if (!v.text.empty())
        h += std::string(own ? "<h2>Verdict in the runs' own terms</h2>"
                             : "<h2>Interpretation (reference decision tree)</h2>") +
             "\n<pre>" + htmlEscape(v.text, true) + "</pre>\n";
    const RootCause& rc = v.rootCause;
    if (!rc.step) return;
    h += "<h2>Root cause</h2>\n<p>At step " + std::to_string(*rc.step) +
         (own ? std::string(", in production order") : ", following the dataflow upstream") + ": ";
    if (own && rc.order)
        h += "root buffers " + joinEscaped(rc.buffers) + " (production order from " +
             htmlEscape(orderSourceText(*rc.order)) + "); " + std::to_string(rc.downstream.size()) +
             " more diverge downstream (the JSON report lists them).</p>\n";
    else if (!rc.groups.empty() || rc.undecidedGroups.empty())
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

std::string reportHtml(const Analysis& analysis, const HtmlReportOptions& options) {
    std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<title>dumpscope report</title>\n<style>";
    h += kStyle;
    h += "</style>\n</head>\n<body>\n";
    header(h, analysis, options.madeAt.value_or(std::chrono::system_clock::now()));
    verdict(h, analysis);
    matrix(h, analysis);
    const auto differing = report::differingBuffers(analysis);
    const std::size_t shown = std::min(differing.size(), report::kMaxTableRows);
    if (!differing.empty()) {
        report::htmlDifferingTable(h, analysis, differing, shown);
        report::htmlDifferingDetails(h, analysis, differing, shown);
    }
    growth(h, analysis);
    problems(h, analysis);
    h += "</body>\n</html>\n";
    return h;
}

} // namespace dumpscope

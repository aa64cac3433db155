// Multi-run Markdown and HTML reports: the summary first (what the reader came for), then each
// pair's own report, unchanged apart from its headings.

#include "dumpscope/multi_report.h"
#include "dumpscope/version.h"

#include "report/report_text.h"

#include <stdexcept>

namespace dumpscope {

namespace {

using report::htmlEscape;
using report::markdownCode;
using report::markdownText;

// A pair's Markdown with every heading one level down, fenced blocks left alone.
std::string demoteHeadings(const std::string& md) {
    std::string out;
    bool fenced = false;
    std::size_t pos = 0;
    while (pos < md.size()) {
        std::size_t end = md.find('\n', pos);
        end = end == std::string::npos ? md.size() : end + 1;
        const std::string_view line(md.data() + pos, end - pos);
        if (line.starts_with("```")) fenced = !fenced;
        if (!fenced && line.starts_with("#")) out += '#';
        out += line;
        pos = end;
    }
    return out;
}

// The part of a pair's HTML report between <body> and </body>; `style`, when given, receives
// its style sheet.
std::string htmlBody(const std::string& html, std::string* style = nullptr) {
    const auto cut = [&](const std::string& open, const std::string& close) {
        const auto from = html.find(open), to = html.rfind(close);
        return from == std::string::npos || to == std::string::npos || to < from + open.size()
                   ? std::string()
                   : html.substr(from + open.size(), to - from - open.size());
    };
    if (style) *style = cut("<style>", "</style>");
    return cut("<body>\n", "</body>");
}

std::string mdSummary(const MultiRunAnalysis& m) {
    const MultiRunSummary& s = m.summary;
    std::string md = "## Summary: which candidate diverges first where\n\n|";
    std::string rule = "|";
    for (const char* column : kMultiSummaryColumns) {
        md += std::string(" ") + column + " |";
        rule += "---|";
    }
    md += "\n" + rule + "\n";
    for (auto k : s.ranking) {
        md += "|";
        for (const auto& cell : multiSummaryRow(s, k))
            md += " " + markdownCode(cell, true) + " |";
        md += "\n";
    }
    if (!s.againstFloor.empty()) {
        md += "\n## Against the noise floor\n\n" +
              markdownText("In this reading " + noiseFloorIntro(s)) + ".\n\n";
        for (const auto& f : s.againstFloor)
            md += "- **" + std::string(floorReadingName(f.reading)) +
                  "**: " + markdownText(f.text) + "\n";
    }
    return md + "\n";
}

} // namespace

std::string multiReportMarkdown(const MultiRunAnalysis& m) {
    std::string md =
        "# dumpscope report: a base against " + std::to_string(m.pairs.size()) + " candidates\n\n";
    md += "- Base: " + markdownCode(report::pathBytes(m.base), false) + "\n";
    for (std::size_t k = 0; k < m.pairs.size(); ++k)
        md += "- Candidate " + std::to_string(k + 1) + ": " +
              markdownCode(report::pathBytes(m.pairs[k].runB), false) + "\n";
    md += "- Exit code " + std::to_string(m.summary.exitCode) + "; dumpscope " +
          std::string(version()) + "\n\n";
    md += mdSummary(m);
    for (std::size_t k = 0; k < m.pairs.size(); ++k)
        md += "---\n\n# Candidate " + std::to_string(k + 1) + "\n\n" +
              demoteHeadings(reportMarkdown(m.pairs[k]));
    return md;
}

std::string multiReportHtml(const MultiRunAnalysis& m) {
    const MultiRunSummary& s = m.summary;
    std::string style, bodies;
    for (std::size_t k = 0; k < m.pairs.size(); ++k)
        bodies += "<hr>\n<section id=\"candidate-" + std::to_string(k + 1) + "\">\n" +
                  htmlBody(reportHtml(m.pairs[k]), k == 0 ? &style : nullptr) + "</section>\n";
    std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<title>dumpscope report: several candidates</title>\n<style>" +
                    style + "</style>\n</head>\n<body>\n";
    h += "<h1>dumpscope report: a base against " + std::to_string(m.pairs.size()) +
         " candidates</h1>\n";
    h += "<p>Base <code>" + htmlEscape(report::pathBytes(m.base)) + "</code>; exit code " +
         std::to_string(s.exitCode) + "; dumpscope " + htmlEscape(version()) + "</p>\n";
    h += "<h2>Summary: which candidate diverges first where</h2>\n<table>\n<tr>";
    for (const char* column : kMultiSummaryColumns)
        h += "<th>" + std::string(column) + "</th>";
    h += "</tr>\n";
    for (auto k : s.ranking) {
        const bool diverges = s.candidates[k].exitCode == 1;
        h += "<tr>";
        for (const auto& cell : multiSummaryRow(s, k))
            h += std::string(diverges ? "<td class=\"div\">" : "<td>") + htmlEscape(cell) + "</td>";
        h += "</tr>\n";
    }
    h += "</table>\n";
    if (!s.againstFloor.empty()) {
        h += "<h2>Against the noise floor</h2>\n<p>In this reading " +
             htmlEscape(noiseFloorIntro(s)) + ".</p>\n<ul>\n";
        for (const auto& f : s.againstFloor)
            h += "<li><b>" + std::string(floorReadingName(f.reading)) +
                 "</b>: " + htmlEscape(f.text) + "</li>\n";
        h += "</ul>\n";
    }
    return h + bodies + "</body>\n</html>\n";
}

std::string renderMultiReport(const MultiRunAnalysis& m, ReportFormat format) {
    switch (format) {
    case ReportFormat::json:
        return multiReportJson(m) + "\n";
    case ReportFormat::markdown:
        return multiReportMarkdown(m);
    case ReportFormat::html:
        return multiReportHtml(m);
    }
    return {};
}

void writeMultiReport(const MultiRunAnalysis& m, const std::filesystem::path& path) {
    const auto format = reportFormatFor(path);
    if (!format)
        throw std::runtime_error("cannot write report " + path.string() +
                                 ": unknown report format (use .json, .md or .html)");
    std::vector<std::filesystem::path> runs{m.base};
    for (const auto& an : m.pairs)
        runs.push_back(an.runB);
    writeReportText(path, runs, [&] { return renderMultiReport(m, *format); });
}

} // namespace dumpscope

// A Markdown summary meant to be pasted into a GitHub issue: short, tables that render, names
// that cannot break the layout. Names go in code spans (so `_` and `*` stay literal and `<`
// is not HTML); inside table cells `|` is escaped as `\|`, which GFM honours even in code.

#include "dumpscope/growth.h"
#include "dumpscope/report.h"
#include "dumpscope/shape.h"
#include "dumpscope/verdict.h"
#include "dumpscope/version.h"

#include "report/report_common.h"
#include "report/report_text.h"

#include <algorithm>
#include <string_view>

namespace dumpscope {

namespace {

// GitHub refuses issue bodies over 65,536 characters: three tables of this many rows stay
// well under it (the HTML and JSON reports carry the rest).
constexpr std::size_t kMaxRows = 100;

std::string code(std::string_view raw, bool inTable) {
    return report::markdownCode(raw, inTable);
}

std::string joinCode(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names)
        out += (out.empty() ? "" : ", ") + code(n, false);
    return out.empty() ? "none" : out;
}

std::string plain(std::string_view raw) {
    return report::markdownText(raw);
}

void verdictSection(std::string& md, const Analysis& a) {
    const Verdict& v = a.verdict;
    md += "**Verdict:** ";
    if (!a.errorA.empty() || !a.errorB.empty())
        md += "input error";
    else if (const std::string_view why = notComparedReason(a); !why.empty())
        md += "nothing compared: " + std::string(why);
    else if (v.firstDivergentStep)
        md += "divergence — first divergent step **" + std::to_string(*v.firstDivergentStep) +
              "**, diverged groups " + joinCode(v.divergedGroups);
    else
        md += "all compared buffers are bitwise equal";
    md += ", decision case `" + std::string(decisionCaseName(v.decisionCase)) + "`, exit code " +
          std::to_string(v.exitCode) + (a.cancelled ? " (analysis cancelled: incomplete)" : "") +
          "\n\n";
    const std::string oneSided = oneSidedWarning(v);
    for (const auto* err : {&a.errorA, &a.errorB})
        if (!err->empty()) md += "- Run error: " + plain(*err) + "\n";
    if (!oneSided.empty()) md += "- **Warning:** " + plain(oneSided) + "\n";
    if (!a.errorA.empty() || !a.errorB.empty() || !oneSided.empty()) md += "\n";

    const RootCause& rc = v.rootCause;
    if (rc.step) {
        const bool own = a.terms == VerdictTerms::own;
        md += "## Root cause\n\nAt step " + std::to_string(*rc.step) +
              (own ? ", in production order: " : ", by dataflow: ");
        if (own && rc.order)
            md += "root buffers " + joinCode(rc.buffers) + " (production order from " +
                  plain(std::string(orderSourceText(*rc.order))) + "); " +
                  std::to_string(rc.downstream.size()) +
                  " more diverge downstream (the JSON report lists them).\n\n";
        else if (!rc.groups.empty() || rc.undecidedGroups.empty())
            md += "groups " + joinCode(rc.groups) + "; buffers " + joinCode(rc.buffers) + ".\n\n";
        else
            md += "not determined: an input could not be judged.\n\n";
        if (const std::string kind = report::rootKindText(v); !kind.empty())
            md += "Kind: " + plain(kind) + "\n\n";
        for (const auto& line : undecidedRootLines(a))
            md += "- " + plain(line) + "\n";
        if (!rc.undecidedGroups.empty()) md += "\n";
        if (rc.groups.size() > 1) { // independent sources: each needs its own fix
            md += "Sources:";
            for (const auto& s : rc.sources)
                md += (&s == &rc.sources.front() ? " " : ", ") +
                      code(s.group + "/" + s.buffer, false) + " (" + std::string(kindName(s.kind)) +
                      ")";
            md += "\n\n";
        }
        const auto notes = rootCauseNotes(a);
        for (const auto& line : notes)
            md += "- **Note:** " + plain(line) + "\n";
        if (!notes.empty()) md += "\n";
    }
}

void matrixSection(std::string& md, const Analysis& a) {
    if (a.matrix.empty()) return;
    const auto columns = report::matrixColumns(a);
    md += "## Step × group matrix\n\n| step |";
    for (const auto& id : columns)
        md += " " + code(id, true) + " |";
    md += "\n|---:|";
    for (std::size_t i = 0; i < columns.size(); ++i)
        md += ":---:|";
    md += "\n";
    const std::size_t shown = std::min(a.matrix.size(), kMaxRows);
    for (std::size_t r = 0; r < shown; ++r) {
        const auto& step = a.matrix[r];
        md += "| " + std::to_string(step.step) + " |";
        for (const auto& id : columns)
            md += " " + report::cellText(a, report::findCell(step, id)) + " |";
        md += "\n";
    }
    if (shown < a.matrix.size())
        md += "\n… and " + std::to_string(a.matrix.size() - shown) +
              " more steps (see the JSON report).\n";
    md +=
        "\n`=` equal · `n/m` n of m compared buffers diverge · `≈n/m` n differ within tolerance · "
        "`A only` / `B only` one-sided · `err` unreadable or malformed · `—` not dumped";
    md += a.cancelled ? " · `…` not compared (cancelled)\n\n" : "\n\n";
}

void buffersSection(std::string& md, const Analysis& a) {
    const auto differing = report::differingBuffers(a);
    if (differing.empty()) return;
    md +=
        "## Differing buffers\n\n"
        "| step | group | buffer | dtype | kind | n_diff/n | first diff | max \\|Δ\\| | max rel Δ "
        "| max ULP |\n"
        "|---:|---|---|---|---|---:|---|---:|---:|---:|\n";
    const std::size_t shown = std::min(differing.size(), kMaxRows);
    for (std::size_t r = 0; r < shown; ++r) {
        const auto& b = a.buffers[differing[r]];
        const auto& s = b.stats;
        const std::string first = report::firstDiffText(b);
        md += "| " + std::to_string(b.step) + " | " + code(b.group, true) + " | " +
              code(b.name, true) + " | " + std::string(dtypeName(b.dtype)) + " | " +
              report::kindText(b) + " | " + report::countText(b) + " | " +
              (first.empty() ? "" : code(first, true)) + " | " +
              report::formatNumber(s.maxAbsDelta) + " | " + report::formatNumber(s.maxRelDelta, 3) +
              " | " + std::to_string(s.maxUlp) + " |\n";
    }
    if (shown < differing.size())
        md += "\n… and " + std::to_string(differing.size() - shown) +
              " more differing buffers (see the JSON report).\n";
    md += "\n";
    // Where the differences sit in shaped buffers: whole rows or a scatter name different bugs.
    std::string where;
    for (std::size_t r = 0; r < shown; ++r) {
        const auto& b = a.buffers[differing[r]];
        if (const std::string text = placementSummary(b.stats, b.shape); !text.empty())
            where += "- step " + std::to_string(b.step) + " " + code(b.name, false) + ": " +
                     plain(text) + "\n";
    }
    if (!where.empty()) md += "Where the differences sit:\n\n" + where + "\n";
}

// The smallest tolerance of each kind that would alone make each listed buffer within
// tolerance: the thresholds to choose, next to the table they are read from.
void toPassSection(std::string& md, const Analysis& a) {
    std::string rows;
    const auto differing = report::differingBuffers(a);
    for (std::size_t r = 0; r < std::min(differing.size(), kMaxRows); ++r) {
        const auto& b = a.buffers[differing[r]];
        if (const std::string text = report::toPassText(b); !text.empty())
            rows +=
                "| " + std::to_string(b.step) + " | " + code(b.name, true) + " | " + text + " |\n";
    }
    if (rows.empty()) return;
    md += "The smallest tolerance that would alone make each buffer within tolerance (`none`: no "
          "value would):\n\n| step | buffer | to pass: atol / rtol / ulp |\n|---:|---|---|\n" +
          rows + "\n";
}

// n_diff of every buffer that differs somewhere, step by step: a one-step event and a
// divergence that spreads or amplifies look different here.
void growthSection(std::string& md, const Analysis& a) {
    auto series = growthSeries(a);
    std::erase_if(series, [](const GrowthSeries& s) { return !s.anyDifference(); });
    if (series.empty() || a.steps.empty()) return;
    const std::size_t nSteps = std::min(a.steps.size(), report::kMaxGrowthSteps);
    md += "## Growth across steps (differing elements)\n\n| group | buffer |";
    for (std::size_t c = 0; c < nSteps; ++c)
        md += " " + std::to_string(a.steps[c]) + " |";
    md += "\n|---|---|";
    for (std::size_t c = 0; c < nSteps; ++c)
        md += "---:|";
    md += "\n";
    const std::size_t shown = std::min(series.size(), kMaxRows);
    for (std::size_t r = 0; r < shown; ++r) {
        md += "| " + code(series[r].group, true) + " | " + code(series[r].name, true) + " |";
        for (std::size_t c = 0; c < nSteps; ++c) {
            const auto& p = series[r].points[c];
            md += " " + report::growthCellText(p.status, p.nDiff) + " |";
        }
        md += "\n";
    }
    if (shown < series.size() || nSteps < a.steps.size())
        md += "\nThe table is cut to " + std::to_string(shown) + " buffers and " +
              std::to_string(nSteps) + " steps; the JSON report has them all.\n";
    md += "\n";
}

// A bulleted section of at most kMaxRows items; `item(k)` renders the k-th.
template <typename Item>
void listSection(std::string& md, const char* title, std::size_t count, Item item) {
    if (count == 0) return;
    md += std::string("## ") + title + "\n\n";
    for (std::size_t k = 0; k < std::min(count, kMaxRows); ++k)
        md += "- " + item(k) + "\n";
    if (count > kMaxRows)
        md += "- … and " + std::to_string(count - kMaxRows) + " more (see the JSON report)\n";
    md += "\n";
}

void problemsSection(std::string& md, const Analysis& a) {
    const auto errors = report::errorBuffers(a);
    listSection(md, "Errors", errors.size(), [&](std::size_t k) {
        const auto& b = a.buffers[errors[k]];
        return "step " + std::to_string(b.step) + " " + code(b.fileName, false) + ": " +
               plain(b.error.empty() ? std::string(statusName(b.status)) : b.error);
    });
    const auto oneSided = report::oneSidedBuffers(a);
    listSection(md, "Present in one run only", oneSided.size(), [&](std::size_t k) {
        const auto& b = a.buffers[oneSided[k]];
        return code(b.fileName, false) + " only in run " +
               (b.status == Status::only_in_a ? "A" : "B");
    });
    listSection(md, "Unclassified files", a.unclassified.size(),
                [&](std::size_t k) { return code(a.unclassified[k], false); });
    listSection(md, "Warnings", a.warnings.size(),
                [&](std::size_t k) { return plain(a.warnings[k]); });
}

void interpretationSection(std::string& md, const Analysis& a) {
    if (a.verdict.text.empty()) return;
    // A fence longer than any backtick run in the text, so the text cannot close it early.
    const std::string text = report::validUtf8(a.verdict.text);
    std::size_t longest = 0, run = 0;
    for (char c : text) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
    md += std::string(a.terms == VerdictTerms::own
                          ? "## Verdict in the runs' own terms\n\n"
                          : "## Interpretation (reference decision tree)\n\n") +
          fence + "text\n" + text + "\n" + fence + "\n";
}

} // namespace

std::string reportMarkdown(const Analysis& analysis) {
    std::string md = "# dumpscope report\n\n";
    md += "- Run A: " + code(report::pathBytes(analysis.runA), false) + "\n";
    md += "- Run B: " + code(report::pathBytes(analysis.runB), false) + "\n";
    if (analysis.schema) md += "- Schema: " + plain(analysis.schema->name) + "\n";
    if (const std::string t = report::toleranceText(analysis); !t.empty())
        md += "- Tolerance: " + plain(t) + "\n";
    md += "- dumpscope " + std::string(version()) + "\n\n";
    verdictSection(md, analysis);
    matrixSection(md, analysis);
    buffersSection(md, analysis);
    toPassSection(md, analysis);
    growthSection(md, analysis);
    problemsSection(md, analysis);
    interpretationSection(md, analysis);
    return md;
}

} // namespace dumpscope

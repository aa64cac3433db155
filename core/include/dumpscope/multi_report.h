#pragma once

// Reports of a base against several candidates: one document holding every pair's report and
// the cross-candidate summary.

#include "dumpscope/multi_run.h"
#include "dumpscope/report.h"

#include <array>
#include <filesystem>
#include <string>

namespace dumpscope {

// The cross-candidate summary table, cell by cell, shared by the CLI's text, the reports and
// the window so they always agree.
inline constexpr std::array<const char*, 9> kMultiSummaryColumns = {
    "rank", "candidate",       "first divergent step", "groups", "root cause",
    "kind", "divergent cells", "divergent buffers",    "exit"};
// The row of candidate `k` (0-based; shown 1-based as "k: PATH"), "—" where there is nothing to
// say. Raw text (paths and names as they are): each writer escapes it its own way.
std::array<std::string, kMultiSummaryColumns.size()> multiSummaryRow(const MultiRunSummary& summary,
                                                                     std::size_t k);
// "the noise floor is candidate 1 (PATH), taken as a rerun of the base's build", or with reruns
// given: "the noise floor is the envelope of N rerun(s) of the base's build (PATHS)"
std::string noiseFloorIntro(const MultiRunSummary& summary);

// {"tool", "version", "base", "exit_code", "candidates": [{"run", …the pair's --json
// document…}], "summary": {"ranking": […], "noise_floor": {…} or null}}.
std::string multiReportJson(const MultiRunAnalysis& multi);
// The summary table and the noise-floor reading, then each pair's Markdown report with its
// headings one level down.
std::string multiReportMarkdown(const MultiRunAnalysis& multi);
// The summary table and the noise-floor reading, then each pair's HTML report body.
std::string multiReportHtml(const MultiRunAnalysis& multi);
std::string renderMultiReport(const MultiRunAnalysis& multi, ReportFormat format);

// As writeReport: by extension, atomically, refused inside the base or any candidate.
void writeMultiReport(const MultiRunAnalysis& multi, const std::filesystem::path& path);

} // namespace dumpscope

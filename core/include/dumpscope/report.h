#pragma once

#include "dumpscope/result.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dumpscope {

// The --json document (see README "JSON output"). Non-finite numbers are strings.
std::string reportJson(const Analysis& analysis);
// A Markdown summary that pastes cleanly into an issue.
std::string reportMarkdown(const Analysis& analysis);
// One self-contained HTML file: inline styles and SVG charts, no scripts, every name escaped.
std::string reportHtml(const Analysis& analysis);

enum class ReportFormat { json, markdown, html };
// By extension: .json, .md / .markdown, .html / .htm; nullopt otherwise.
std::optional<ReportFormat> reportFormatFor(const std::filesystem::path& path);
std::string renderReport(const Analysis& analysis, ReportFormat format);

// Writes atomically (temporary file + rename). Refuses a path inside either run directory.
// Throws std::runtime_error naming the file and the cause.
void writeReport(const Analysis& analysis, const std::filesystem::path& path);
// The same refusal and atomic write for any report text: refused inside any of `runDirs`
// before `render` is called.
void writeReportText(const std::filesystem::path& path,
                     const std::vector<std::filesystem::path>& runDirs,
                     const std::function<std::string()>& render);

} // namespace dumpscope

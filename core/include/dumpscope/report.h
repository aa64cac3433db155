#pragma once

#include "dumpscope/result.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dumpscope {

// The pair document's format, its top-level "format_version": raised whenever a field's
// meaning changes (docs/reference/json.md says what each version changed).
inline constexpr int kJsonFormatVersion = 2;
// The --json document (docs/reference/json.md). Non-finite numbers are strings.
std::string reportJson(const Analysis& analysis);
// A Markdown summary that pastes cleanly into an issue.
std::string reportMarkdown(const Analysis& analysis);
// What the HTML report takes besides the analysis.
struct HtmlReportOptions {
    // The date in its header (UTC, to the minute); unset: when the report is made.
    std::optional<std::chrono::system_clock::time_point> madeAt;
};
// One self-contained HTML file: inline styles and SVG charts, no scripts, every name escaped.
// It reads the differing buffers' files again (runA, runB) for their divergence maps.
std::string reportHtml(const Analysis& analysis, const HtmlReportOptions& options = {});

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

// Takes the file's bytes in pieces, in order; throws std::runtime_error when a write fails.
using WriteSink = std::function<void(std::string_view)>;
// The one writer of every file dumpscope puts beside user data (reports, the window's CSV
// export); writeReportText is it with the text in one piece. A destination inside any of
// `runDirs` is refused before anything is created: by path with symlinks resolved, or by
// identity, so a bind mount or another mount's path to the run is refused too. Then `produce`
// streams the text into a temporary file beside the destination, which is fsynced and renamed
// onto `path`: the file appears whole or not at all, and text too large to hold in memory
// never has to be. Whatever `produce` throws is rethrown once the temporary file is removed.
// Other failures throw std::runtime_error "cannot write <what> <path>: <cause>".
void writeFileAtomically(const std::filesystem::path& path,
                         const std::vector<std::filesystem::path>& runDirs, const std::string& what,
                         const std::function<void(const WriteSink&)>& produce);

} // namespace dumpscope

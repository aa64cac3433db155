#pragma once

// Text helpers shared by the report writers. Names in a report come from file names and
// schemas, so they may hold any bytes; every writer passes them through these.
// displayText (validUtf8, and control characters also shown as "\xNN") is declared in the public
// dumpscope/display_text.h, because the command line shows names through it too.

#include "dumpscope/display_text.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace dumpscope::report {

// `s` with every byte that is not part of a well-formed UTF-8 sequence replaced by the
// four-character text "\xNN" (NN upper-case hex). Valid input comes back unchanged.
std::string validUtf8(std::string_view s);
// displayText, then & < > " ' as character references: safe in HTML text and attributes.
// `keepLines` keeps line feeds and tabs as they are (for <pre> blocks).
std::string htmlEscape(std::string_view s, bool keepLines = false);

// Markdown: a code span holding `raw` literally (inside a table, `|` escaped as `\|`).
std::string markdownCode(std::string_view raw, bool inTable);
// Markdown: plain text with every character that could start Markdown or HTML escaped.
std::string markdownText(std::string_view raw);

// A path's bytes as a std::string (paths are bytes on POSIX; never converted).
std::string pathBytes(const std::filesystem::path& p);

// "%.<precision>g", with "nan", "inf", "-inf" for non-finite values.
std::string formatNumber(double v, int precision = 6);
// 16 lower-case hex digits, zero-padded: the way hashes are shown everywhere.
std::string hex16(std::uint64_t v);
// A count in at most four characters where space is short (chart labels, table cells):
// "1966" -> "2.0k", "2504133" -> "2.5M". Wherever it is shown the exact count is a tooltip away.
std::string compactCount(std::uint64_t n);

} // namespace dumpscope::report

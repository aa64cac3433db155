#include "report/report_text.h"

#include "dumpscope/utf8.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

namespace dumpscope::report {

namespace {

void appendByteEscape(std::string& out, unsigned char c) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 0xf];
}

std::string sanitize(std::string_view s, bool escapeControls, bool keepLines = false) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        char32_t cp = 0;
        const std::size_t len = decodeUtf8(s, i, cp);
        const auto c = static_cast<unsigned char>(s[i]);
        // C1 controls (U+0080-U+009F) too: some terminals take U+009B as CSI and U+009D as OSC.
        const bool control = cp < 0x20 || (cp >= 0x7F && cp <= 0x9F);
        if (len == 0 || (escapeControls && control && !(keepLines && (c == '\n' || c == '\t')))) {
            const std::size_t n = len ? len : 1; // an invalid byte alone, a C1 control's two bytes
            for (std::size_t k = 0; k < n; ++k)
                appendByteEscape(out, static_cast<unsigned char>(s[i + k]));
            i += n;
        } else {
            out.append(s.substr(i, len));
            i += len;
        }
    }
    return out;
}

} // namespace

std::string validUtf8(std::string_view s) {
    return sanitize(s, false);
}
std::string displayText(std::string_view s) {
    return sanitize(s, true);
}

std::string htmlEscape(std::string_view s, bool keepLines) {
    const std::string text = sanitize(s, true, keepLines);
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string pathBytes(const std::filesystem::path& p) {
    return p.native();
}

std::string formatNumber(double v, int precision) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    return buf;
}

std::string hex16(std::uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

std::string compactCount(std::uint64_t n) {
    if (n < 1000) return std::to_string(n);
    const char* units[] = {"k", "M", "G", "T", "P", "E"};
    double v = static_cast<double>(n);
    std::size_t u = 0;
    for (v /= 1000; v >= 999.5 && u + 1 < std::size(units); v /= 1000)
        ++u;
    char buf[32];
    std::snprintf(buf, sizeof buf, v < 9.95 ? "%.1f%s" : "%.0f%s", v, units[u]);
    return buf;
}

// A code span holding `s` literally: the fence is one backtick longer than the longest run of
// backticks inside, padded with spaces when the text starts or ends with one (CommonMark).
std::string markdownCode(std::string_view raw, bool inTable) {
    std::string s = displayText(raw);
    if (inTable) {
        std::string escaped;
        for (char c : s) {
            if (c == '|') escaped += '\\';
            escaped += c;
        }
        s = std::move(escaped);
    }
    std::size_t longest = 0, run = 0;
    for (char c : s) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const std::string fence(longest + 1, '`');
    const bool pad = s.empty() || s.front() == '`' || s.back() == '`';
    return fence + (pad ? " " : "") + s + (pad ? " " : "") + fence;
}

// Plain text outside code spans: a message may contain Markdown or HTML syntax. A backslash
// before ASCII punctuation is always a literal in CommonMark. Characters that only matter at
// the start of a line (list and heading markers) are escaped there only, so paths in messages
// stay readable in the raw text.
std::string markdownText(std::string_view raw) {
    static constexpr std::string_view kInline = "\\`*_{}[]<>|&~#!";
    const std::string text = displayText(raw);
    std::string out;
    bool allDigits = true;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const bool listMarker = (i == 0 && (c == '-' || c == '+' || c == '=')) ||
                                (i > 0 && allDigits && (c == '.' || c == ')'));
        if (kInline.find(c) != std::string_view::npos || listMarker) out += '\\';
        out += c;
        allDigits = allDigits && c >= '0' && c <= '9';
    }
    return out;
}

} // namespace dumpscope::report

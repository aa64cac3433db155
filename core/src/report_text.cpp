#include "report_text.h"

#include "utf8.h"

#include <cmath>
#include <cstdio>

namespace dumpscope::report {

namespace {

void appendByteEscape(std::string& out, unsigned char c) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 0xf];
}

std::size_t sequenceLength(std::string_view s, std::size_t i) {
    char32_t cp;
    return decodeUtf8(s, i, cp);
}

std::string sanitize(std::string_view s, bool escapeControls, bool keepLines = false) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t len = sequenceLength(s, i);
        const auto c = static_cast<unsigned char>(s[i]);
        if (len == 0 || (escapeControls && len == 1 && (c < 0x20 || c == 0x7F) &&
                         !(keepLines && (c == '\n' || c == '\t')))) {
            appendByteEscape(out, c);
            ++i;
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

} // namespace dumpscope::report

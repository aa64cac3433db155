// Python's text forms the reference-compatible mode prints: float repr, '.6g', str repr and
// pathlib's spelling of a path. Split from reference_compat.cpp, which prints with them.
#include "reference_compat.h"

#include "dumpscope/utf8.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

namespace dumpscope {

namespace {

// decodeUtf8 (utf8.h) returning 0 is where Python's surrogateescape maps that one byte to
// U+DC80+byte, and every byte of an ill-formed sequence ends up escaped on its own.

// Assigned code points above ASCII that str.isprintable() rejects (Unicode 14.0, Python 3.11):
// repr() escapes them. Unassigned ones are left alone, their set changes with each version.
bool nonPrintable(char32_t cp) {
    static constexpr std::pair<char32_t, char32_t> kRanges[] = {
        {0x80, 0xA0},       {0xAD, 0xAD},       {0x600, 0x605},      {0x61C, 0x61C},
        {0x6DD, 0x6DD},     {0x70F, 0x70F},     {0x890, 0x891},      {0x8E2, 0x8E2},
        {0x1680, 0x1680},   {0x180E, 0x180E},   {0x2000, 0x200F},    {0x2028, 0x202F},
        {0x205F, 0x2064},   {0x2066, 0x206F},   {0x3000, 0x3000},    {0xD800, 0xF8FF},
        {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD},  {0x110CD, 0x110CD},
        {0x13430, 0x13438}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A},  {0xE0001, 0xE0001},
        {0xE0020, 0xE007F}, {0xF0000, 0xFFFFD}, {0x100000, 0x10FFFD}};
    for (const auto& [lo, hi] : kRanges)
        if (cp >= lo && cp <= hi) return true;
    return false;
}

// Python's backslash escape of one code point: \xNN, \uNNNN or \UNNNNNNNN.
std::string escapeCodePoint(char32_t cp) {
    char buf[16];
    if (cp < 0x100)
        std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(cp));
    else if (cp < 0x10000)
        std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
    else
        std::snprintf(buf, sizeof buf, "\\U%08x", static_cast<unsigned>(cp));
    return buf;
}

} // namespace

std::string pythonStderrText(const std::string& s) {
    std::string r;
    char32_t cp = 0;
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t len = decodeUtf8(s, i, cp);
        if (len == 0) {
            r += escapeCodePoint(0xDC00 + static_cast<unsigned char>(s[i++]));
        } else {
            r.append(s, i, len);
            i += len;
        }
    }
    return r;
}

std::string pythonStrRepr(const std::string& s) {
    const bool hasSingle = s.find('\'') != std::string::npos;
    const bool hasDouble = s.find('"') != std::string::npos;
    const char quote = (hasSingle && !hasDouble) ? '"' : '\'';
    std::string r(1, quote);
    char32_t cp = 0;
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t len = decodeUtf8(s, i, cp);
        if (len == 0) { // a byte that was not UTF-8: a lone surrogate in Python's str
            r += escapeCodePoint(0xDC00 + static_cast<unsigned char>(s[i++]));
            continue;
        }
        if (cp == static_cast<char32_t>(quote) || cp == '\\') {
            r += '\\';
            r += static_cast<char>(cp);
        } else if (cp == '\n') {
            r += "\\n";
        } else if (cp == '\r') {
            r += "\\r";
        } else if (cp == '\t') {
            r += "\\t";
        } else if (cp < 0x20 || cp == 0x7f || nonPrintable(cp)) {
            r += escapeCodePoint(cp);
        } else {
            r.append(s, i, len);
        }
        i += len;
    }
    r += quote;
    return r;
}

std::string pythonFloatRepr(double value) {
    if (std::isnan(value)) return "nan"; // Python drops NaN's sign
    if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
    // Shortest round-trip digits and exponent ("d.ddde±XX"), then Python's layout rules.
    std::array<char, 64> buf{};
    auto res =
        std::to_chars(buf.data(), buf.data() + buf.size(), value, std::chars_format::scientific);
    std::string sci(buf.data(), res.ptr);
    std::string sign;
    if (sci.front() == '-') {
        sign = "-";
        sci.erase(0, 1);
    }
    const auto ePos = sci.find('e');
    std::string digits = sci.substr(0, ePos);
    digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
    const int exp10 = std::stoi(sci.substr(ePos + 1)); // value = d.ddd × 10^exp10
    // float_repr_style 'short': exponent form when exp10 < -4 or exp10 >= 16.
    if (exp10 < -4 || exp10 >= 16) {
        std::string mant = digits.substr(0, 1);
        if (digits.size() > 1) mant += "." + digits.substr(1);
        char e[16];
        std::snprintf(e, sizeof e, "e%c%02d", exp10 < 0 ? '-' : '+', std::abs(exp10));
        return sign + mant + e;
    }
    const int pointPos = exp10 + 1; // digits before the decimal point
    if (pointPos <= 0)
        return sign + "0." + std::string(static_cast<std::size_t>(-pointPos), '0') + digits;
    const auto p = static_cast<std::size_t>(pointPos);
    if (p >= digits.size()) return sign + digits + std::string(p - digits.size(), '0') + ".0";
    return sign + digits.substr(0, p) + "." + digits.substr(p);
}

std::string pythonFormatG6(double value) {
    if (std::isnan(value)) return "nan"; // glibc would print "-nan" for a negative NaN
    // C's %g and Python's 'g' share the rules (exponent below -4 or at/above the precision,
    // trailing zeros stripped, two-digit exponent), and both round correctly.
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", value);
    return buf;
}

std::string pythonPathStr(const std::string& arg) {
    // PurePosixPath: exactly two leading slashes are kept (POSIX leaves "//" implementation
    // defined), one or three-plus collapse to "/"; empty and "." components vanish; ".." stays.
    std::string root;
    std::size_t leading = 0;
    while (leading < arg.size() && arg[leading] == '/')
        ++leading;
    if (leading == 2)
        root = "//";
    else if (leading > 0)
        root = "/";
    std::string rel;
    std::size_t pos = leading;
    while (pos <= arg.size()) {
        std::size_t next = arg.find('/', pos);
        if (next == std::string::npos) next = arg.size();
        const std::string part = arg.substr(pos, next - pos);
        if (!part.empty() && part != ".") {
            if (!rel.empty()) rel += '/';
            rel += part;
        }
        pos = next + 1;
    }
    if (root.empty() && rel.empty()) return ".";
    return root + rel;
}

} // namespace dumpscope

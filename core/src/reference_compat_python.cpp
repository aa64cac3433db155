// Python's text forms the reference-compatible mode prints: float repr, '.6g', str repr and
// pathlib's spelling of a path. Split from reference_compat.cpp, which prints with them.
#include "dumpscope/reference_compat.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace dumpscope {

std::string pythonStrRepr(const std::string& s) {
    const bool hasSingle = s.find('\'') != std::string::npos;
    const bool hasDouble = s.find('"') != std::string::npos;
    const char quote = (hasSingle && !hasDouble) ? '"' : '\'';
    std::string r(1, quote);
    for (unsigned char c : s) {
        if (c == static_cast<unsigned char>(quote) || c == '\\') {
            r += '\\';
            r += static_cast<char>(c);
        } else if (c == '\n') {
            r += "\\n";
        } else if (c == '\r') {
            r += "\\r";
        } else if (c == '\t') {
            r += "\\t";
        } else if (c < 0x20 || c == 0x7f) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            r += hex;
        } else {
            r += static_cast<char>(c); // UTF-8 bytes of printable characters pass through
        }
    }
    r += quote;
    return r;
}

std::string pythonFloatRepr(double value) {
    if (std::isnan(value)) return "nan"; // Python drops NaN's sign
    if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
    // Shortest round-trip digits and exponent ("d.ddde±XX"), then Python's layout rules.
    std::array<char, 64> buf{};
    auto res = std::to_chars(buf.data(), buf.data() + buf.size(), value,
                             std::chars_format::scientific);
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
    if (pointPos <= 0) return sign + "0." + std::string(static_cast<std::size_t>(-pointPos), '0') + digits;
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
    while (leading < arg.size() && arg[leading] == '/') ++leading;
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

#include "dumpscope/shape.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>

namespace dumpscope {

namespace {

std::optional<std::uint64_t> number(const std::string& s) {
    if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    const auto v = std::stoull(s);
    return v > 0 ? std::optional(v) : std::nullopt;
}

std::string specText(const std::vector<std::string>& spec) {
    std::string s = "[";
    for (std::size_t i = 0; i < spec.size(); ++i)
        s += (i ? ", " : "") + spec[i];
    return s + "]";
}

} // namespace

ResolvedShape
resolveShape(const std::vector<std::string>& spec, const Schema& schema,
             const std::function<std::optional<std::uint64_t>(const std::string&)>& lengthOf,
             std::uint64_t n) {
    ResolvedShape r;
    if (spec.empty()) return r;
    std::vector<std::uint64_t> dims;
    std::optional<std::size_t> star;
    std::uint64_t known = 1;
    for (const auto& d : spec) {
        std::optional<std::uint64_t> v = number(d);
        if (d == "*") {
            if (star) return {{}, "shape " + specText(spec) + " has more than one \"*\""};
            star = dims.size();
            dims.push_back(0);
            continue;
        }
        if (!v) {
            auto it = schema.dims.find(d);
            if (it == schema.dims.end())
                return {{}, "shape " + specText(spec) + ": unknown dimension \"" + d + "\""};
            v = it->second.value;
            if (!v) {
                v = lengthOf(it->second.lengthOf);
                if (!v || *v == 0)
                    return {{},
                            "shape " + specText(spec) + ": " + d + " is the length of " +
                                it->second.lengthOf +
                                ", which is not dumped (or empty) at this step"};
            }
        }
        if (*v != 0 && known > UINT64_MAX / *v)
            return {{}, "shape " + specText(spec) + " overflows 64 bits"};
        known *= *v;
        dims.push_back(*v);
    }
    if (star) {
        if (known == 0 || n % known != 0 || n == 0)
            return {{},
                    "shape " + specText(spec) + " does not fit " + std::to_string(n) +
                        " elements (" + std::to_string(n) + " is not a multiple of " +
                        std::to_string(known) + ")"};
        dims[*star] = n / known;
    } else if (known != n) {
        return {{},
                "shape " + specText(spec) + " holds " + std::to_string(known) +
                    " elements, the buffer " + std::to_string(n)};
    }
    r.dims = std::move(dims);
    return r;
}

std::vector<std::string> parseShapeText(const std::string& text) {
    std::vector<std::string> dims;
    std::string word;
    auto flush = [&] {
        if (!word.empty()) dims.push_back(word);
        word.clear();
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '*') {
            // "64x32": an x between digits separates dimensions.
            if (c == 'x' && !word.empty() &&
                std::isdigit(static_cast<unsigned char>(word.back())) && i + 1 < text.size() &&
                std::isdigit(static_cast<unsigned char>(text[i + 1]))) {
                flush();
                continue;
            }
            word += c;
        } else if (c == ',' || c == ' ' || c == '[' || c == ']' || c == '(' || c == ')' ||
                   c == '\t') {
            flush();
        } else {
            return {};
        }
    }
    flush();
    // A lone "x" between words ("batch x 32") separates too.
    dims.erase(std::remove(dims.begin(), dims.end(), "x"), dims.end());
    return dims;
}

std::string formatIndex(std::uint64_t index, const std::vector<std::uint64_t>& dims) {
    if (dims.size() < 2) return std::to_string(index);
    std::vector<std::uint64_t> coords(dims.size());
    for (std::size_t i = dims.size(); i-- > 0;) {
        coords[i] = index % dims[i];
        index /= dims[i];
    }
    std::string s = "(";
    for (std::size_t i = 0; i < coords.size(); ++i)
        s += (i ? ", " : "") + std::to_string(coords[i]);
    return s + ")";
}

std::optional<std::uint64_t>
parseIndex(const std::string& text, const std::vector<std::uint64_t>& dims, std::string* error) {
    const auto fail = [error](std::string why) -> std::optional<std::uint64_t> {
        if (error) *error = std::move(why);
        return std::nullopt;
    };
    std::string_view rest = text;
    const auto isSpace = [](char c) { return c == ' ' || c == '\t'; };
    while (!rest.empty() && isSpace(rest.front()))
        rest.remove_prefix(1);
    while (!rest.empty() && isSpace(rest.back()))
        rest.remove_suffix(1);
    const bool parenthesised = !rest.empty() && rest.front() == '(';
    if (parenthesised) {
        if (rest.back() != ')') return fail("a '(' without its ')'");
        rest = rest.substr(1, rest.size() - 2);
    }
    std::vector<std::uint64_t> coords;
    while (true) {
        while (!rest.empty() && isSpace(rest.front()))
            rest.remove_prefix(1);
        if (rest.empty()) break;
        std::uint64_t value = 0;
        const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), value);
        if (ec == std::errc::result_out_of_range) return fail("a number too large");
        if (ec != std::errc() || end == rest.data())
            return fail("'" + std::string(rest.substr(0, 1)) + "' where a number should be");
        rest.remove_prefix(std::size_t(end - rest.data()));
        coords.push_back(value);
        while (!rest.empty() && isSpace(rest.front()))
            rest.remove_prefix(1);
        if (!rest.empty() && rest.front() == ',') rest.remove_prefix(1);
    }
    if (coords.empty()) return fail("no index");
    if (coords.size() == 1 && !parenthesised) return coords.front();
    if (dims.size() < 2)
        return fail("the buffer is flat: give one index, not " + std::to_string(coords.size()));
    if (coords.size() != dims.size())
        return fail(std::to_string(coords.size()) + " coordinates for a buffer of " +
                    std::to_string(dims.size()) + " dimensions");
    std::uint64_t flat = 0;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (coords[i] >= dims[i])
            return fail("coordinate " + std::to_string(i + 1) + " is " + std::to_string(coords[i]) +
                        ", past its dimension of " + std::to_string(dims[i]));
        flat = flat * dims[i] + coords[i];
    }
    return flat;
}

std::string placementSummary(const BufferStats& s, const std::vector<std::uint64_t>& dims) {
    if (dims.size() < 2 || s.rowDiffs.empty() || s.nDiff == 0) return {};
    const std::uint64_t rows = s.rowDiffs.size(), cols = shapeCols(dims);
    std::vector<std::uint64_t> hit, full;
    for (std::uint64_t r = 0; r < rows; ++r) {
        if (s.rowDiffs[r]) hit.push_back(r);
        if (s.rowDiffs[r] == cols) full.push_back(r);
    }
    auto list = [](const std::vector<std::uint64_t>& v) {
        std::string t;
        for (std::size_t i = 0; i < v.size() && i < 8; ++i)
            t += (i ? ", " : "") + std::to_string(v[i]);
        if (v.size() > 8) t += ", …";
        return t;
    };
    char pct[32];
    std::snprintf(pct, sizeof pct, "%.3g%%",
                  100.0 * static_cast<double>(s.nDiff) / static_cast<double>(rows * cols));
    if (!full.empty() && full.size() == hit.size())
        return std::to_string(full.size()) + " of " + std::to_string(rows) +
               " rows differ entirely (rows " + list(full) + "), the others not at all";
    std::uint64_t colsHit = 0;
    for (auto c : s.colDiffs)
        colsHit += c != 0;
    return std::to_string(hit.size()) + " of " + std::to_string(rows) + " rows and " +
           std::to_string(colsHit) + " of " + std::to_string(cols) + " columns hold differences (" +
           pct + " of the elements)" +
           (hit.size() < rows && !hit.empty() ? "; rows " + list(hit) : "");
}

} // namespace dumpscope

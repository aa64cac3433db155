#include "dumpscope/name_alignment.h"

#include "analysis/name_rules.h"
#include "io/regular_file.h"
#include "schema/text_position.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <map>
#include <regex>
#include <vector>

#include <unistd.h>

namespace dumpscope {

namespace {

// A name map lists names, not tensors: a megabyte is tens of thousands of rules.
constexpr std::uint64_t kMaxMapFileBytes = 16u << 20;

// A column is a character, not a byte of one.
std::pair<int, int> lineColumn(std::string_view text, std::size_t offset) {
    return detail::lineColumn(text, offset, detail::ColumnUnit::character);
}

class MapReader {
  public:
    MapReader(std::string_view text, std::string source)
        : m_text(text), m_source(std::move(source)) {}

    [[noreturn]] void failAt(std::size_t offset, const std::string& what) const {
        const auto [line, column] = lineColumn(m_text, offset);
        throw NameMapError(where(line, column) + ": " + what);
    }

    std::string where(std::size_t offset) const {
        const auto [line, column] = lineColumn(m_text, offset);
        return where(line, column);
    }

    // Adds a rule whose pattern starts at byte `at` of the text; a pattern already given, or
    // one that does not compile, is refused there.
    void add(std::string pattern, std::string replacement, std::size_t at) {
        if (pattern.empty()) failAt(at, "an empty pattern of run A's names");
        if (const auto seen = m_seen.find(pattern); seen != m_seen.end())
            failAt(at, "the pattern \"" + pattern + "\" is already given at " + seen->second);
        try {
            detail::compileNamePattern(pattern);
        } catch (const std::regex_error& e) {
            failAt(at, "\"" + pattern + "\" is not a regular expression: " + e.what());
        }
        m_seen.emplace(pattern, where(at));
        m_map.rules.push_back({std::move(pattern), std::move(replacement), false, where(at)});
    }

    NameMap take() { return std::move(m_map); }

  private:
    std::string where(int line, int column) const {
        return m_source + ":" + std::to_string(line) + ":" + std::to_string(column);
    }

    std::string_view m_text;
    std::string m_source;
    NameMap m_map;
    std::map<std::string, std::string> m_seen;
};

// Two columns a line: the pattern, then the replacement; '#' starts a comment.
NameMap parseLines(std::string_view text, MapReader& reader) {
    std::size_t begin = 0;
    while (begin < text.size()) {
        std::size_t end = text.find('\n', begin);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(begin, end - begin);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        std::vector<std::pair<std::size_t, std::string_view>> columns;
        for (std::size_t i = 0; i < line.size();) {
            if (line[i] == ' ' || line[i] == '\t') {
                ++i;
                continue;
            }
            if (line[i] == '#') break;
            const std::size_t to = line.find_first_of(" \t", i);
            const std::size_t stop = to == std::string_view::npos ? line.size() : to;
            columns.emplace_back(begin + i, line.substr(i, stop - i));
            i = stop;
        }
        if (columns.size() == 1)
            reader.failAt(begin + line.size(),
                          "expected two columns, run A's name or pattern and run B's name; "
                          "the line has one");
        if (columns.size() > 2)
            reader.failAt(columns[2].first,
                          "expected two columns, run A's name or pattern and run B's name; "
                          "this is a third");
        if (columns.size() == 2)
            reader.add(std::string(columns[0].second), std::string(columns[1].second),
                       columns[0].first);
        begin = end + 1;
    }
    return reader.take();
}

// The byte where the JSON string `value` is written as a key or an element, searched from
// `from`: nlohmann keeps no positions, so a rule is found by its text.
std::size_t findJsonString(std::string_view text, const std::string& value, std::size_t from) {
    const std::string quoted = nlohmann::json(value).dump();
    const std::size_t at = text.find(quoted, from);
    return at == std::string_view::npos ? from : at;
}

// Where each element of the JSON array opened at byte `open` starts, for the messages about
// them (the text parsed already, so it is well formed).
std::vector<std::size_t> elementStarts(std::string_view text, std::size_t open) {
    std::vector<std::size_t> starts;
    int depth = 0;
    bool inString = false, expecting = true;
    for (std::size_t i = open; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
        if (depth == 1 && expecting && c != ']') {
            starts.push_back(i);
            expecting = false;
        }
        if (c == '"')
            inString = true;
        else if (c == '[' || c == '{')
            ++depth;
        else if (c == ']' || c == '}') {
            if (--depth == 0) break;
        } else if (c == ',' && depth == 1)
            expecting = true;
    }
    return starts;
}

NameMap parseJson(std::string_view text, MapReader& reader) {
    nlohmann::ordered_json doc;
    try {
        doc = nlohmann::ordered_json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        // nlohmann's byte is one past the offending character.
        reader.failAt(e.byte > 0 ? e.byte - 1 : 0,
                      "not valid JSON: " +
                          std::string(e.what()).substr(std::string(e.what()).find(": ") + 2));
    }
    std::size_t cursor = 0;
    auto addString = [&](const nlohmann::ordered_json& a, const nlohmann::ordered_json& b,
                         std::size_t near) {
        if (!a.is_string() || !b.is_string())
            reader.failAt(near, "a rule is two strings, run A's pattern and run B's name");
        const std::size_t at = findJsonString(text, a.get<std::string>(), cursor);
        cursor = at + 1;
        reader.add(a.get<std::string>(), b.get<std::string>(), at);
    };
    if (!doc.is_object()) reader.failAt(0, "expected a JSON object");
    if (doc.contains("rules")) {
        const auto& rules = doc["rules"];
        const std::size_t rulesAt = findJsonString(text, "rules", 0);
        if (doc.size() != 1) reader.failAt(0, "\"rules\" must be the object's only key");
        if (!rules.is_array()) reader.failAt(rulesAt, "\"rules\" is an array of [A, B] pairs");
        const std::vector<std::size_t> starts = elementStarts(text, text.find('[', rulesAt));
        for (std::size_t i = 0; i < rules.size(); ++i) {
            const std::size_t at = i < starts.size() ? starts[i] : rulesAt;
            const auto& rule = rules[i];
            if (!rule.is_array() || rule.size() != 2)
                reader.failAt(at, "each rule is an array of two strings: [\"A pattern\", "
                                  "\"B name\"]");
            cursor = at;
            addString(rule[0], rule[1], at);
        }
    } else {
        for (const auto& [key, value] : doc.items())
            addString(nlohmann::ordered_json(key), value, findJsonString(text, key, cursor));
    }
    return reader.take();
}

} // namespace

std::string_view alignModeName(AlignMode m) {
    return m == AlignMode::automatic ? "auto" : "names";
}

std::string_view pairedByName(PairedBy p) {
    switch (p) {
    case PairedBy::map:
        return "map";
    case PairedBy::wrapped_match:
        return "wrapped_type_shape";
    case PairedBy::exact_match:
        return "order_type_shape";
    case PairedBy::shape_match:
        return "order_shape";
    }
    return "map";
}

NameMap parseNameMap(std::string_view text, const std::string& source) {
    MapReader reader(text, source);
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && text[first] == '{') return parseJson(text, reader);
    return parseLines(text, reader);
}

NameMap loadNameMapFile(const std::filesystem::path& path) {
    const std::string source = path.string();
    const detail::RegularFile file = detail::openRegularFile(path);
    if (file.notRegular())
        throw NameMapError(source + ": the name map is " +
                           detail::fileKindOf(file.status().st_mode) + ", not a regular file");
    if (!file.isOpen())
        throw NameMapError(source +
                           ": cannot open the name map: " + std::strerror(file.errorNumber()));
    std::string text;
    for (;;) {
        const std::size_t have = text.size();
        text.resize(have + (64 << 10));
        const ssize_t n = ::read(file.fd(), text.data() + have, text.size() - have);
        if (n < 0 && errno == EINTR) {
            text.resize(have);
            continue;
        }
        if (n < 0)
            throw NameMapError(source + ": cannot read the name map: " + std::strerror(errno));
        text.resize(have + static_cast<std::size_t>(n));
        if (n == 0) break;
        if (text.size() > kMaxMapFileBytes)
            throw NameMapError(source + ": the name map is larger than " +
                               std::to_string(kMaxMapFileBytes >> 20) + " MiB");
    }
    return parseNameMap(text, source);
}

NameMap withPairing(const NameMap& map, const std::string& nameA, const std::string& nameB) {
    NameMap out;
    out.rules.push_back({nameA, nameB, true, {}});
    for (const auto& rule : map.rules)
        if (!(rule.exact && rule.pattern == nameA)) out.rules.push_back(rule);
    return out;
}

} // namespace dumpscope

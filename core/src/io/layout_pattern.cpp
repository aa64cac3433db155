#include "io/layout_pattern.h"

#include <string_view>

namespace dumpscope::detail {

namespace {

constexpr std::size_t kMaxSegments = 16;

std::optional<std::uint64_t> decimal(const std::string& digits) {
    std::uint64_t value = 0;
    for (char c : digits) {
        const auto d = static_cast<std::uint64_t>(c - '0');
        if (value > (UINT64_MAX - d) / 10) return std::nullopt;
        value = value * 10 + d;
    }
    return value;
}

} // namespace

std::string LayoutPattern::parse(const std::string& pattern) {
    m_segments.clear();
    m_hasRank = m_lastHasExtension = false;
    if (pattern.empty()) return "the layout pattern is empty";
    if (pattern.front() == '/') return "the layout pattern must be relative to the run directory";
    bool hasStep = false, hasBufferName = false;
    std::size_t start = 0;
    while (start <= pattern.size()) {
        const std::size_t slash = std::min(pattern.find('/', start), pattern.size());
        const std::string segment = pattern.substr(start, slash - start);
        if (segment.empty() || segment == "." || segment == "..")
            return "the layout pattern has an empty, \".\" or \"..\" path segment";
        if (m_segments.size() == kMaxSegments)
            return "the layout pattern has more than " + std::to_string(kMaxSegments) +
                   " path segments";
        Segment s;
        std::string regex;
        std::string literal;
        for (std::size_t i = 0; i < segment.size();) {
            if (segment[i] != '{') {
                const char c = segment[i++];
                if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos)
                    regex += '\\';
                regex += c;
                literal += c;
                continue;
            }
            const std::size_t close = segment.find('}', i);
            if (close == std::string::npos)
                return "the layout pattern has a \"{\" without its \"}\"";
            const std::string name = segment.substr(i + 1, close - i - 1);
            i = close + 1;
            literal.clear();
            if (name == "step" || name == "rank") {
                regex += "([0-9]+)"; // zero-padded too: iter_0000010
                s.fields.push_back(name == "step" ? Field::step : Field::rank);
                (name == "step" ? hasStep : m_hasRank) = true;
            } else if (name == "group" || name == "file" || name == "name") {
                regex += "(.+?)";
                s.fields.push_back(name == "group"  ? Field::group
                                   : name == "file" ? Field::file
                                                    : Field::name);
                if (name != "group") hasBufferName = true;
            } else {
                return "the layout pattern has an unknown placeholder {" + name +
                       "} (it knows {rank}, {step}, {group}, {file} and {name})";
            }
        }
        s.regex = std::regex(regex, std::regex::ECMAScript | std::regex::optimize);
        m_segments.push_back(std::move(s));
        m_lastHasExtension = literal.find('.') != std::string::npos;
        start = slash + 1;
    }
    if (!hasStep) return "the layout pattern has no {step}";
    (void)hasBufferName; // without {name} or {file}, a file's tensor keys name its buffers
    return {};
}

bool LayoutPattern::match(std::size_t level, const std::string& entry, LayoutFields& fields) const {
    const Segment& s = m_segments[level];
    std::smatch m;
    if (!std::regex_match(entry, m, s.regex)) return false;
    for (std::size_t i = 0; i < s.fields.size(); ++i) {
        const std::string text = m[static_cast<int>(i + 1)].str();
        switch (s.fields[i]) {
        case Field::step:
        case Field::rank: {
            const auto value = decimal(text);
            if (!value) return false;
            (s.fields[i] == Field::step ? fields.step : fields.rank) = value;
            break;
        }
        case Field::group:
            fields.group = text;
            break;
        case Field::file:
            fields.file = text;
            break;
        case Field::name:
            fields.name = text;
            break;
        }
    }
    return true;
}

} // namespace dumpscope::detail

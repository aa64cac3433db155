#include "analysis/name_rules.h"

namespace dumpscope::detail {

namespace {

// "\1" (sed's and Python's spelling of a group) to "$1" (std::regex's); a literal '$' doubled.
std::string formatOf(const std::string& replacement) {
    std::string out;
    for (std::size_t i = 0; i < replacement.size(); ++i) {
        const char c = replacement[i];
        if (c == '\\' && i + 1 < replacement.size() && replacement[i + 1] >= '0' &&
            replacement[i + 1] <= '9') {
            out += '$';
            out += replacement[++i];
        } else if (c == '\\' && i + 1 < replacement.size() && replacement[i + 1] == '\\') {
            out += '\\';
            ++i;
        } else if (c == '$') {
            out += "$$";
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace

std::regex compileNamePattern(const std::string& pattern) {
    return std::regex(pattern, std::regex::ECMAScript);
}

CompiledNameMap::CompiledNameMap(const NameMap& map) {
    for (const auto& rule : map.rules) {
        if (rule.exact)
            m_exact.push_back(&rule);
        else
            m_patterns.push_back(
                {&rule, compileNamePattern(rule.pattern), formatOf(rule.replacement)});
    }
}

std::optional<std::pair<std::string, const NameRule*>>
CompiledNameMap::apply(const std::string& name) const {
    for (const NameRule* rule : m_exact)
        if (rule->pattern == name) return std::pair{rule->replacement, rule};
    for (const auto& rule : m_patterns)
        if (std::regex_search(name, rule.pattern))
            return std::pair{std::regex_replace(name, rule.pattern, rule.format,
                                                std::regex_constants::format_first_only),
                             rule.rule};
    return std::nullopt;
}

} // namespace dumpscope::detail

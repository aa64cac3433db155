#pragma once
// A name map's rules as the alignment applies them: compiled once, a name rewritten by the
// first rule that applies.
#include "dumpscope/name_alignment.h"

#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace dumpscope::detail {

// ECMAScript, as JavaScript and Python's re read the common cases; throws std::regex_error.
std::regex compileNamePattern(const std::string& pattern);

class CompiledNameMap {
  public:
    explicit CompiledNameMap(const NameMap& map);
    // Run B's name for run A's `name` and the rule that gave it; nullopt when no rule applies.
    std::optional<std::pair<std::string, const NameRule*>> apply(const std::string& name) const;

  private:
    struct Rule {
        const NameRule* rule;
        std::regex pattern;
        std::string format; // the replacement in std::regex's format syntax ($1, $$)
    };
    std::vector<const NameRule*> m_exact;
    std::vector<Rule> m_patterns;
};

} // namespace dumpscope::detail

#include "analysis/name_groups.h"

#include <algorithm>
#include <unordered_set>

namespace dumpscope::detail {

std::string_view NameGrouping::moduleOf(std::string_view name) {
    constexpr std::string_view kGrad = ".grad";
    if (name.size() <= kGrad.size() || name.substr(name.size() - kGrad.size()) != kGrad)
        return name;
    const std::string_view parameter = name.substr(0, name.size() - kGrad.size());
    const auto dot = parameter.rfind('.');
    // "x.grad", a leaf's gradient: the leaf is its module.
    return dot == std::string_view::npos || dot == 0 ? parameter : parameter.substr(0, dot);
}

std::string NameGrouping::groupAt(std::string_view name, std::size_t depth) {
    const std::string_view module = moduleOf(name);
    std::size_t from = 0;
    for (std::size_t k = 0; k < depth; ++k) {
        const auto dot = module.find('.', from);
        if (dot == std::string_view::npos) break;
        if (k + 1 == depth) return std::string(module.substr(0, dot));
        from = dot + 1;
    }
    return std::string(module);
}

std::string NameGrouping::place(std::string_view name, std::set<std::string>* split) const {
    std::string group = groupAt(name, m_depth);
    while (m_opened.count(group)) {
        const auto components =
            1 + static_cast<std::size_t>(std::count(group.begin(), group.end(), '.'));
        std::string child = groupAt(name, components + 1);
        if (child == group) break; // the group's own buffer: nothing deeper in its name
        if (split) split->insert(group);
        group = std::move(child);
    }
    return group;
}

NameGrouping::NameGrouping(const std::vector<std::string>& names, std::size_t depth,
                           const std::set<std::string>& opened)
    : m_opened(opened) {
    std::size_t deepest = 1;
    for (const auto& n : names)
        deepest = std::max<std::size_t>(
            deepest, 1 + static_cast<std::size_t>(std::count(n.begin(), n.end(), '.')));
    auto groupsAt = [&](std::size_t d) {
        std::unordered_set<std::string> ids;
        for (const auto& n : names)
            ids.insert(groupAt(n, d));
        return ids.size();
    };
    if (depth == 0) {
        std::size_t best = 1, bestCount = groupsAt(1);
        for (std::size_t d = 1; d <= deepest; ++d) {
            const std::size_t count = d == 1 ? bestCount : groupsAt(d);
            if (count > kMaxNameGroups) break;
            if (count >= kEnoughNameGroups) {
                best = d;
                break;
            }
            if (count > bestCount) {
                best = d;
                bestCount = count;
            }
        }
        depth = best;
    }
    m_depth = depth;
    m_group.reserve(names.size());
    for (const auto& n : names)
        m_group.emplace(n, place(n, &m_split));
}

std::string NameGrouping::groupOf(const std::string& name) const {
    const auto it = m_group.find(name);
    return it != m_group.end() ? it->second : place(name, nullptr);
}

} // namespace dumpscope::detail

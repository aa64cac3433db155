#pragma once

// Groups for buffers no schema describes, from their dotted names: the module tree.
#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dumpscope::detail {

// Automatic grouping stops at the depth beyond which there would be more groups than this.
inline constexpr std::size_t kMaxNameGroups = 64;
// ... and prefers the shallowest depth that gives at least this many: a model's blocks
// (layers.0 … layers.N), not each block's sub-modules.
inline constexpr std::size_t kEnoughNameGroups = 8;

// Each name's group at one depth: the first `depth` dotted components of its module path
// (moduleOf), or the whole module path when it is shorter. Ids are prefixes, so the group at
// depth d + 1 of a name lies inside its group at depth d. Lookup by name is O(1).
// A group among `opened` is opened into its children: its names are grouped one component
// deeper, and deeper again while that group is opened too; every other group stays as cut.
class NameGrouping {
  public:
    // depth 0: the shallowest depth giving kEnoughNameGroups groups or more, else the depth
    // giving the most; never one giving more than kMaxNameGroups unless depth 1 already does.
    // The groups opened do not change the depth chosen.
    NameGrouping(const std::vector<std::string>& names, std::size_t depth,
                 const std::set<std::string>& opened = {});

    std::size_t depth() const { return m_depth; }
    // The groups of `opened` that one of the names given to the constructor goes deeper than:
    // those that were split.
    const std::set<std::string>& opened() const { return m_split; }
    // The group of a name given to the constructor; computed on the spot for any other.
    std::string groupOf(const std::string& name) const;

    // A gradient "M.P.grad" belongs to its module M ("head.bias.grad" -> "head"); any other
    // name is its own module path.
    static std::string_view moduleOf(std::string_view name);
    // The first `depth` dotted components of the name's module path, or all of them.
    static std::string groupAt(std::string_view name, std::size_t depth);

  private:
    // groupAt(name, depth), then into the opened groups' children; `split` notes the groups
    // opened that the name went deeper than.
    std::string place(std::string_view name, std::set<std::string>* split) const;

    std::size_t m_depth = 1;
    std::set<std::string> m_opened, m_split;
    std::unordered_map<std::string, std::string> m_group;
};

} // namespace dumpscope::detail

#include "analysis/plan_schema.h"

#include "analysis/lookup_count.h"
#include "analysis/name_groups.h"

#include <algorithm>
#include <memory>
#include <set>
#include <vector>

namespace dumpscope::detail {

namespace {

// The self-describing buffers the schema does not know, each name once.
std::vector<std::string> undescribedNames(const ByStep& byStep, const BufferSpecIndex& index) {
    std::set<std::string> names;
    for (const auto& [step, files] : byStep)
        for (const auto& [key, pair] : files) {
            const DumpFile& f = either(pair);
            if (f.described && f.dtype && f.group.empty() && !index.knows(f.rest))
                names.insert(f.rest);
        }
    return {names.begin(), names.end()};
}

// The schema the analysis reads with: the given one, plus a group for each self-describing
// buffer it does not know, in production order, so that the matrix has useful columns without
// a schema being written. The groups are the layout's {group}, else the module tree's.
std::shared_ptr<const Schema> extendSchema(std::shared_ptr<const Schema> base, const ByStep& byStep,
                                           const BufferSpecIndex& index,
                                           const NameGrouping& grouping,
                                           const NameAlignment* alignment) {
    std::shared_ptr<Schema> extended;
    std::unordered_map<std::string, std::size_t> groupAt; // id -> index in extended->groups
    std::set<std::string> seen;
    for (const auto& [step, files] : byStep) {
        std::vector<const FilePair*> described;
        for (const auto& [key, pair] : files) {
            const DumpFile& f = either(pair);
            if ((!f.described && f.error.empty()) || index.knows(f.rest) || seen.count(f.rest))
                continue;
            described.push_back(&pair);
        }
        std::stable_sort(described.begin(), described.end(), [](const auto* x, const auto* y) {
            const DumpFile &a = either(*x), &b = either(*y);
            return std::pair{a.rank, a.order} < std::pair{b.rank, b.order};
        });
        for (const FilePair* pair : described) {
            const DumpFile& f = either(*pair);
            if (!seen.insert(f.rest).second) continue;
            if (!extended) {
                extended = std::make_shared<Schema>(*base);
                for (std::size_t i = 0; i < extended->groups.size(); ++i)
                    groupAt.emplace(extended->groups[i].id, i); // the first of an id
            }
            const std::string id = f.group.empty() ? grouping.groupOf(f.rest) : f.group;
            // By index, not by scan: every buffer may be a group of its own.
            countNameLookups(1);
            const auto [at, added] = groupAt.emplace(id, extended->groups.size());
            if (added) extended->groups.push_back({id, id, {}});
            // A type of no arithmetic of ours is compared as its bytes; a refused file has none.
            extended->groups[at->second].buffers.push_back(
                {alignment ? alignment->shownName(f.rest) : f.rest,
                 f.rest,
                 f.dtype.value_or(DType::u8),
                 {}});
        }
    }
    return extended ? std::shared_ptr<const Schema>(std::move(extended)) : base;
}

} // namespace

void BufferSpecIndex::index(const Schema& schema) {
    m_byFile.clear();
    m_byName.clear();
    for (std::size_t g = 0; g < schema.groups.size(); ++g)
        for (std::size_t i = 0; i < schema.groups[g].buffers.size(); ++i) {
            const BufferSpec& spec = schema.groups[g].buffers[i];
            m_byFile.emplace(spec.file, std::pair{g, i});
            m_byName.emplace(spec.name, &spec);
        }
}

std::optional<std::pair<std::size_t, std::size_t>>
BufferSpecIndex::find(const Schema& schema, const std::string& rest) const {
    if (auto it = m_byFile.find(rest); it != m_byFile.end()) return it->second;
    if (auto it = m_byName.find(rest); it != m_byName.end())
        return schema.findFile(it->second->file);
    return std::nullopt;
}

void settleSchema(Analysis& an, const AnalyzeOptions& options, const ByStep& byStep,
                  BufferSpecIndex& index) {
    index.index(*an.schema);
    // The verdict speaks the schema's terms when the user gave it, or when the runs' files are
    // its buffers; else the runs' own (VerdictTerms), and none of its groups is shown.
    const bool anyKnown = std::any_of(byStep.begin(), byStep.end(), [&](const auto& step) {
        return std::any_of(step.second.begin(), step.second.end(),
                           [&](const auto& file) { return index.knows(file.first.second); });
    });
    if (!options.schema && !anyKnown) {
        an.terms = VerdictTerms::own;
        an.schema = std::make_shared<const Schema>();
        index.index(*an.schema);
    }
    const std::vector<std::string> undescribed = undescribedNames(byStep, index);
    const NameGrouping grouping(undescribed, options.groupDepth, options.openedGroups);
    if (!undescribed.empty()) an.groupDepth = grouping.depth();
    an.openedGroups = grouping.opened();
    if (auto extended = extendSchema(an.schema, byStep, index, grouping, an.alignment.get());
        extended != an.schema) {
        an.schema = std::move(extended);
        index.index(*an.schema);
    }
}

} // namespace dumpscope::detail

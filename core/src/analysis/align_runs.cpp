#include "analysis/align_runs.h"

#include "analysis/name_rules.h"
#include "analysis/pair_by_order.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace dumpscope::detail {

namespace {

using Place = std::pair<std::uint64_t, std::uint64_t>; // step, rank

// A buffer that may pair under another name: its bytes are found by its location or its
// capture's record, not by a file named after it, and it was listed without error.
bool renamable(const DumpFile& f) {
    return f.error.empty() && (f.location || f.fingerprintOnly);
}

struct PlaceFiles {
    std::vector<DumpFile*> a, b; // production order
};

// What run A's name `name` is looked for under in run B, by the map.
struct Target {
    std::string name;
    const NameRule* rule = nullptr;
};

std::vector<Pairing> pairPlace(const PlaceFiles& at, AlignMode mode,
                               const std::map<std::string, Target>& targets) {
    std::map<std::string_view, DumpFile*> byNameB;
    for (DumpFile* f : at.b)
        byNameB.emplace(f->rest, f);
    std::set<const DumpFile*> taken;
    std::vector<Pairing> out;
    std::vector<DumpFile*> leftA;
    for (DumpFile* a : at.a) {
        const auto target = targets.find(a->rest);
        const std::string& name = target == targets.end() ? a->rest : target->second.name;
        const auto b = byNameB.find(name);
        const bool renamed = name != a->rest;
        if (b != byNameB.end() && !taken.count(b->second) &&
            (!renamed || (renamable(*a) && renamable(*b->second)))) {
            taken.insert(b->second);
            if (renamed)
                out.push_back({a, b->second, PairedBy::map, target->second.rule});
            else
                out.push_back({a, b->second, std::nullopt});
        } else if (renamable(*a)) {
            leftA.push_back(a);
        }
    }
    if (mode != AlignMode::automatic) return out;
    std::vector<DumpFile*> leftB;
    for (DumpFile* b : at.b)
        if (!taken.count(b) && renamable(*b)) leftB.push_back(b);
    pairByOrder(std::move(leftA), std::move(leftB), out);
    return out;
}

// Whether run A holds a buffer of the same key as run B's unpaired `f`, which would pair with it
// by name although the alignment did not pair them.
bool unpairedTwin(const RunScan& a, const DumpKey& key, const DumpFile& f) {
    const auto twin = a.files.find(key);
    return twin != a.files.end() && renamable(twin->second) && renamable(f);
}

std::string ruleText(const NameRule* rule) {
    if (!rule) return "its own name";
    return rule->where.empty() ? "the pairing set in the window" : rule->where;
}

// Where the map sends each of run A's names; an error when it sends two to one name of B.
std::string mapTargets(const RunScan& a, const CompiledNameMap& map,
                       std::map<std::string, Target>& targets) {
    std::set<std::string> names;
    for (const auto& [key, f] : a.files)
        names.insert(f.rest);
    std::map<std::string, std::pair<std::string, const NameRule*>> byTarget;
    for (const auto& name : names) {
        Target t{name, nullptr};
        if (auto mapped = map.apply(name)) t = {std::move(mapped->first), mapped->second};
        const auto [at, added] = byTarget.emplace(t.name, std::pair{name, t.rule});
        if (!added) {
            const auto& [other, otherRule] = at->second;
            // The later rule in the map is the one that made it two.
            const NameRule* rule = std::max(t.rule, otherRule, std::less<const NameRule*>());
            return (rule && !rule->where.empty() ? rule->where + ": " : "name map: ") +
                   "run A's \"" + other + "\" (by " + ruleText(otherRule) + ") and \"" + name +
                   "\" (by " + ruleText(t.rule) + ") both go to run B's \"" + t.name +
                   "\"; a buffer of run B pairs with one of run A";
        }
        if (t.rule) targets.emplace(name, std::move(t));
    }
    return {};
}

} // namespace

AlignedRuns alignRuns(RunScan& a, RunScan& b, AlignMode mode, const NameMap* map) {
    AlignedRuns result;
    if (mode == AlignMode::names && (!map || map->rules.empty())) return result;
    std::map<std::string, Target> targets;
    if (map) {
        const CompiledNameMap compiled(*map);
        result.error = mapTargets(a, compiled, targets);
        if (!result.error.empty()) return result;
    }
    std::map<Place, PlaceFiles> places;
    for (auto& [key, f] : a.files)
        places[{key.step, key.rank}].a.push_back(&f);
    for (auto& [key, f] : b.files)
        places[{key.step, key.rank}].b.push_back(&f);
    auto alignment = std::make_shared<NameAlignment>();
    alignment->mode = mode;
    alignment->mapped = map && !map->rules.empty();
    std::map<std::pair<std::string, std::string>, NamePair> pairs;
    // Run B's renamed buffers: the file, and run A's name it takes.
    std::map<const DumpFile*, std::string> renamedB;
    std::set<const DumpFile*> pairedB;                           // under its own name or another
    std::map<Place, std::map<std::string, std::string>> nameInA; // B's name -> A's, per place
    for (auto& [place, files] : places) {
        const auto inOrder = [](const DumpFile* x, const DumpFile* y) {
            return x->order < y->order;
        };
        std::sort(files.a.begin(), files.a.end(), inOrder);
        std::sort(files.b.begin(), files.b.end(), inOrder);
        for (const Pairing& p : pairPlace(files, mode, targets)) {
            pairedB.insert(p.b);
            if (!p.by) continue;
            ++pairs
                  .try_emplace({p.a->rest, p.b->rest},
                               NamePair{p.a->rest, p.b->rest, *p.by, 0,
                                        p.rule ? p.rule->where : std::string{}})
                  .first->second.places;
            renamedB.emplace(p.b, p.a->rest);
            nameInA[place][p.b->rest] = p.a->rest;
        }
    }
    for (auto& [key, pair] : pairs)
        alignment->pairs.push_back(std::move(pair));

    // Run B under run A's names. A buffer of B left unpaired under a name that one of B's now
    // takes, or that names a buffer of A the map paired elsewhere (or with none), is told apart
    // by the arrow with nothing before it: it must not pair with A's by name.
    std::map<DumpKey, DumpFile> files;
    std::set<DumpKey> renamedKeys;
    for (auto& [key, f] : b.files)
        if (const auto to = renamedB.find(&f); to != renamedB.end())
            renamedKeys.insert({key.step, to->second, key.rank});
    std::set<std::string> unpairedA, unpairedB;
    for (auto& [key, f] : b.files) {
        DumpKey k = key;
        if (const auto to = renamedB.find(&f); to != renamedB.end()) {
            k.name = to->second;
        } else if (renamedKeys.count(key) || (!pairedB.count(&f) && unpairedTwin(a, key, f))) {
            k.name = std::string(kPairArrow.substr(1)) + key.name;
            unpairedB.insert(key.name);
        }
        f.rest = k.name;
        files.emplace(std::move(k), std::move(f));
    }
    b.files = std::move(files);
    for (const auto& [key, f] : a.files)
        if (!b.files.count(key)) unpairedA.insert(key.name);
    for (const auto& [key, f] : b.files)
        if (!a.files.count(key) && !key.name.starts_with(kPairArrow.substr(1)))
            unpairedB.insert(key.name);
    alignment->unpairedA.assign(unpairedA.begin(), unpairedA.end());
    alignment->unpairedB.assign(unpairedB.begin(), unpairedB.end());

    // The recorded inputs name the buffers as they are reported.
    for (auto& [key, f] : a.files)
        if (f.inputs)
            for (auto& in : *f.inputs)
                in = alignment->shownName(in);
    for (auto& [key, f] : b.files)
        if (f.inputs) {
            const auto& toA = nameInA[{key.step, key.rank}];
            for (auto& in : *f.inputs) {
                const auto it = toA.find(in);
                in = alignment->shownName(it == toA.end() ? in : it->second);
            }
        }
    result.alignment = std::move(alignment);
    return result;
}

} // namespace dumpscope::detail

namespace dumpscope {

std::string NameAlignment::shownName(const std::string& nameA) const {
    std::string shown;
    const auto first =
        std::lower_bound(pairs.begin(), pairs.end(), nameA,
                         [](const NamePair& p, const std::string& name) { return p.nameA < name; });
    for (auto it = first; it != pairs.end() && it->nameA == nameA; ++it)
        shown += (shown.empty() ? nameA + std::string(kPairArrow) : std::string(" | ")) + it->nameB;
    return shown.empty() ? nameA : shown;
}

} // namespace dumpscope

#include "dumpscope/verdict.h"

#include "dumpscope/reference_text.h"

#include "analysis/lookup_count.h"
#include "analysis/root_cause.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace dumpscope {

namespace {

// Buffers that could not be read leave the runs unjudged, never "matching". No count: the
// verdict is decided again only when a result can change the decision.
constexpr std::string_view kNotJudgedText =
    "Not judged: some buffers could not be read (a file refused or unreadable, named in its "
    "error); every buffer that was read matches.";

bool contains(const std::vector<std::string>& v, const std::string& x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}

// The root buffers' kinds, most severe first, and what the most severe one suggests.
void describeRootKinds(const Analysis& an, RootCause& root) {
    const BufferResult* worst = nullptr;
    // Sets: a root group may hold tens of thousands of divergent buffers.
    const std::unordered_set<std::string_view> buffers(root.buffers.begin(), root.buffers.end());
    const std::unordered_set<std::string_view> groups(root.groups.begin(), root.groups.end());
    for (const auto& b : an.buffers) {
        // A root buffer's name on a rank where it does not diverge says nothing of its kind.
        detail::countNameLookups(1);
        if (b.step != *root.step || !buffers.count(b.name) || !groups.count(b.group) ||
            !countsAsDivergent(an, b.status))
            continue;
        if (std::find(root.kinds.begin(), root.kinds.end(), b.kind) == root.kinds.end())
            root.kinds.push_back(b.kind);
        if (!worst || b.kind < worst->kind) worst = &b;
    }
    std::sort(root.kinds.begin(), root.kinds.end());
    if (worst) root.suggestion = kindSuggestion(worst->kind, worst->name);
}

// Whether every buffer dumped in both runs was read and failed: then no pair was compared
// either. Buffers not compared yet (a plan, a cancelled analysis) leave it open.
bool everyPairFailed(const Analysis& an) {
    bool anyPair = false;
    for (const auto& b : an.buffers) {
        if (isOneSided(b.status)) continue;
        if (b.pending || !isError(b.status)) return false;
        anyPair = true;
    }
    return anyPair;
}

} // namespace

std::string_view unjudgedReason(const UnjudgedBuffer& b) {
    if (b.pending) return "not compared";
    switch (b.status) {
    case Status::only_in_a:
        return "only in run A";
    case Status::only_in_b:
        return "only in run B";
    case Status::changed_while_reading:
        return "changed while reading";
    default:
        return "unreadable";
    }
}

std::string unjudgedText(const CulpritRow& row) {
    std::string out;
    for (const auto& b : row.unjudged)
        out += (out.empty() ? "" : ", ") + b.name + " " + std::string(unjudgedReason(b));
    return out;
}

std::string oneSidedWarning(const Verdict& v) {
    if (v.nOneSided == 0) return {};
    return std::to_string(v.nOneSided) +
           " buffer(s) in one run only were not compared: the verdict covers the buffers in both "
           "runs only";
}

std::vector<std::string> undecidedRootLines(const Analysis& an) {
    const RootCause& rc = an.verdict.rootCause;
    std::vector<std::string> lines;
    for (const auto& row : an.verdict.culprits)
        if (contains(rc.unjudgedInputs, row.group))
            lines.push_back("group " + row.label + " could not be judged: " + unjudgedText(row));
    for (const auto& id : rc.undecidedGroups) {
        std::string inputs;
        std::size_t n = 0;
        for (const auto& u : an.schema->upstreamOf(id))
            if (contains(rc.unjudgedInputs, u)) inputs += (n++ ? " and group " : "") + u;
        if (n == 0) continue; // undecided through declared inputs only: the lines below
        const GroupSpec* g = an.schema->group(id);
        lines.push_back("group " + (g ? g->label : id) +
                        " diverges and no divergent group feeds it: it is the source only if "
                        "group " +
                        inputs + (n > 1 ? " are" : " is") + " equal");
    }
    for (const auto& b : rc.undecidedBuffers) {
        std::string inputs;
        for (const auto& u : b.unjudgedInputs)
            inputs +=
                (inputs.empty() ? "" : ", ") + u.name + " (" + std::string(unjudgedReason(u)) + ")";
        lines.push_back("buffer " + b.buffer + " of group " + b.group +
                        " diverges and none of its declared inputs diverges: it is the source "
                        "only if " +
                        inputs + (b.unjudgedInputs.size() > 1 ? " are" : " is") + " equal");
    }
    return lines;
}

double relativePrecision(DType t) {
    switch (t) {
    case DType::bf16:
        return 0x1p-8;
    case DType::f16:
        return 0x1p-11;
    case DType::f8_e4m3:
        return 0x1p-4;
    case DType::f8_e5m2:
        return 0x1p-3;
    default:
        return 0.0;
    }
}

namespace {

// The innermost captured module around `name` at the step and rank ("h.2.attn" for
// "h.2.attn.drop"): its longest dotted prefix that is a buffer there; empty when none is.
std::string enclosingBuffer(const Analysis& an, std::uint64_t step,
                            std::optional<std::uint64_t> rank, const std::string& name) {
    std::unordered_set<std::string_view> atStep;
    for (const BufferResult& b : an.buffers)
        if (b.step == step && b.rank == rank) atStep.insert(b.name);
    for (auto dot = name.rfind('.'); dot != std::string::npos && dot > 0;
         dot = name.rfind('.', dot - 1)) {
        const std::string_view prefix(name.data(), dot);
        if (atStep.count(prefix)) return std::string(prefix);
    }
    return {};
}

} // namespace

std::vector<std::string> rootCauseNotes(const Analysis& an) {
    const RootCause& rc = an.verdict.rootCause;
    std::vector<std::string> lines;
    const auto quotedList = [](const std::vector<std::string>& names) {
        std::string out;
        for (const auto& n : names)
            out += (out.empty() ? "" : ", ") + nlohmann::json(n).dump();
        return out;
    };
    for (const auto& u : rc.unclearSources) {
        const GroupSpec* g = an.schema->group(u.group);
        std::string inputs;
        for (const auto& d : u.divergentInputs)
            inputs += (inputs.empty() ? "" : ", ") + d;
        // Named up to three: a whole group of scratches would drown the line (the JSON has all).
        const std::size_t n = u.buffers.size();
        std::string buffers = n > 3 ? "its " + std::to_string(n) + " divergent buffers" : "";
        for (std::size_t i = 0; n <= 3 && i < n; ++i)
            buffers += (i == 0 ? "" : i + 1 == n ? " and " : ", ") + u.buffers[i];
        const bool several = u.divergentInputs.size() > 1;
        lines.push_back("group " + (g ? g->label : u.group) + " diverges, but by group-level " +
                        "dataflow its only divergent input" + (several ? "s are " : " is ") +
                        inputs + ": it cannot be told whether it is a second source. If " +
                        buffers + (n > 1 ? " do" : " does") + " not read " +
                        (several ? "them" : "it") + ", declare on " + (n > 1 ? "them" : "it") +
                        " in the schema \"inputs\": [" + quotedList(u.declaration) + "]");
    }
    for (const auto& s : rc.sources) {
        if (s.halfPrecisionInputs.empty()) continue;
        std::string inputs;
        double worst = 0;
        for (const auto& h : s.halfPrecisionInputs) {
            inputs += (inputs.empty() ? "" : ", ") + h.buffer + " (" +
                      std::string(dtypeName(h.dtype)) + ")";
            worst = std::max(worst, relativePrecision(h.dtype));
        }
        lines.push_back("root buffer " + s.buffer + " (" + std::string(dtypeName(s.dtype)) +
                        ") is computed from " + inputs + ", equal only at " +
                        (worst > 0x1p-8 ? "8-bit" : "half") +
                        " precision: differences below about 2^" +
                        std::to_string(std::ilogb(worst)) +
                        " relative are invisible in those dumps, so the true source may be "
                        "upstream");
    }
    // A captured root fed by something no hook saw: a tensor computed in its enclosing
    // module's own code (a reshape, a division, a residual sum) between the sub-modules. The
    // operation that parted the runs may be that code, not the root's own kernel.
    if (rc.step && rc.order == OrderSource::capture_log)
        for (std::size_t i = 0; i < rc.sources.size() && i < kListedNames; ++i) {
            const RootSource& s = rc.sources[i];
            if (s.declaredInputs) continue;
            const auto parent = enclosingBuffer(an, *rc.step, s.rank, s.buffer);
            if (!parent.empty())
                lines.push_back("root buffer " + s.buffer + " was fed by something the capture " +
                                "did not see, computed in " + parent +
                                "'s own code around it: the operation that parted the runs " +
                                "may be there rather than in " + s.buffer + " itself");
        }
    if (!rc.earliest.empty() && an.terms == VerdictTerms::schema)
        lines.push_back("no dataflow relates these buffers: the earliest divergence in dump "
                        "order (the order of the keys in the dumped files) is " +
                        rc.earliest +
                        (rc.earliestRank ? " on rank " + std::to_string(*rc.earliestRank) : ""));
    if (!rc.ranks.empty()) {
        std::string ranks;
        for (auto r : rc.ranks)
            ranks += (ranks.empty() ? "" : ", ") + std::to_string(r);
        lines.push_back("the divergence appears first on rank" +
                        std::string(rc.ranks.size() > 1 ? "s " : " ") + ranks + " at step " +
                        std::to_string(*rc.step));
    }
    return lines;
}

DecisionCase decisionCaseFor(const std::vector<std::string>& g) {
    // The reference's branches, in its order; the group ids stand for its labels.
    if (g.empty()) return DecisionCase::all_equal;
    if (g.size() == 1 && g[0] == "G") return DecisionCase::g_only;
    if (contains(g, "H") && !contains(g, "G")) return DecisionCase::h_without_g;
    if (contains(g, "I")) return DecisionCase::i;
    if (contains(g, "J")) return DecisionCase::j;
    return DecisionCase::unexpected;
}

std::string decisionText(DecisionCase c) {
    namespace rt = reference_text;
    switch (c) {
    case DecisionCase::all_equal:
        return std::string(rt::allEqual());
    case DecisionCase::g_only:
        return std::string(rt::gOnly());
    case DecisionCase::h_without_g:
        return std::string(rt::hWithoutG());
    case DecisionCase::i:
        return std::string(rt::iDiverges()) + "\n" + std::string(rt::crossCheck());
    case DecisionCase::j:
        return std::string(rt::jWithoutI()) + "\n" + std::string(rt::crossCheck());
    case DecisionCase::unexpected:
        return std::string(rt::unexpected());
    case DecisionCase::not_compared:
        return "Not compared.";
    case DecisionCase::own_terms:
        return "Own terms.";
    }
    return {};
}

std::string namesCut(const std::vector<std::string>& names, std::size_t shown) {
    std::string out;
    const std::size_t n = names.size();
    // Cutting one name to say "and 1 more" saves nothing.
    const std::size_t listed = n <= shown + 1 ? n : shown;
    for (std::size_t i = 0; i < listed; ++i)
        out += (i == 0 ? "" : ", ") + names[i];
    if (listed < n) out += " … and " + std::to_string(n - listed) + " more";
    return out;
}

namespace {

std::string ownTermsText(const Verdict& v) {
    const RootCause& rc = v.rootCause;
    if (!rc.step || rc.sources.empty()) return {};
    // A set: every one of thousands of sources may be a root of its own.
    std::vector<std::string> named;
    std::unordered_set<std::string_view> seen;
    for (const auto& s : rc.sources) {
        detail::countNameLookups(1);
        if (seen.insert(s.buffer).second) named.push_back(s.buffer);
    }
    const bool several = named.size() > 1;
    const bool byInputs = std::any_of(rc.sources.begin(), rc.sources.end(),
                                      [](const RootSource& s) { return s.declaredInputs; });
    std::string text = "  The runs part at step " + std::to_string(*rc.step) +
                       (v.firstDivergentRank ? " on rank " + std::to_string(*v.firstDivergentRank)
                                             : std::string()) +
                       ". Root" + (several ? "s: " : ": ") + namesCut(named, kListedNames) +
                       (byInputs  ? ", whose captured inputs are equal"
                        : several ? std::string()
                                  : ", the first divergent buffer in production order (" +
                                        std::string(orderSourceText(*rc.order)) + ")") +
                       ".";
    if (!rc.downstream.empty())
        text += "\n  " + std::to_string(rc.downstream.size()) + " more buffer(s) diverge at " +
                "that step, produced after " + (several ? "them" : "it") + ": downstream.";
    if (!rc.suggestion.empty()) text += "\n  → " + rc.suggestion;
    return text;
}

} // namespace

std::string_view notComparedReason(const Analysis& an) {
    if (!an.errorA.empty() || !an.errorB.empty())
        return "a run could not be read: its directory is missing, unreadable or holds no dumps, "
               "or "
               "its capture log was refused (the error says why)";
    if (an.buffers.empty()) return "none of the selected steps is dumped in either run";
    if (std::all_of(an.buffers.begin(), an.buffers.end(),
                    [](const BufferResult& b) { return isOneSided(b.status); }))
        return "no buffer is in both runs";
    if (everyPairFailed(an)) return "no buffer in both runs could be read";
    return {};
}

Verdict decide(const Analysis& an) {
    Verdict v;
    v.nOneSided = static_cast<std::size_t>(std::count_if(
        an.buffers.begin(), an.buffers.end(), [](const auto& b) { return isOneSided(b.status); }));
    if (const std::string_view why = notComparedReason(an); !why.empty()) { // never "identical"
        v.exitCode = 2;
        v.decisionCase = DecisionCase::not_compared;
        v.text = "Not compared: " + std::string(why) + ".";
        return v;
    }
    bool anyDivergence = false, anyError = false;
    for (const auto& b : an.buffers) {
        if (b.pending) continue;
        anyError |= isError(b.status);
        if (!countsAsDivergent(an, b.status)) continue;
        anyDivergence = true; // unclassified files count too: the runs are not identical
        // Own terms: every file is the run's; else unclassified files are outside the schema.
        if ((b.group != kOtherGroup || an.terms == VerdictTerms::own) &&
            (!v.firstDivergentStep || b.step < *v.firstDivergentStep))
            v.firstDivergentStep = b.step;
    }

    const Schema& schema = *an.schema;
    if (v.firstDivergentStep) {
        const auto step = *v.firstDivergentStep;
        // One pass over the buffers, whatever the number of groups: decide() runs again while
        // an analysis is in flight, each time the first divergent step gets another result.
        std::unordered_map<std::string_view, std::size_t> rowOf;
        for (const auto& g : schema.groups) {
            rowOf.emplace(g.id, v.culprits.size());
            v.culprits.push_back(CulpritRow{g.id, g.label, false, {}, {}});
        }
        // A buffer of several ranks is one name in its row.
        std::set<std::pair<std::size_t, std::string_view>> divergentNames;
        for (const auto& b : an.buffers) {
            if (b.step != step) continue;
            const auto at = rowOf.find(b.group);
            if (at == rowOf.end()) continue;
            CulpritRow& row = v.culprits[at->second];
            if (b.pending || isOneSided(b.status) || isError(b.status))
                row.unjudged.push_back({b.name, b.status, b.pending});
            if (b.pending) continue;
            row.present |= !isOneSided(b.status);
            if (countsAsDivergent(an, b.status) &&
                (!an.ranked || divergentNames.emplace(at->second, b.name).second))
                row.divergentBuffers.push_back(b.name);
        }
        for (const auto& row : v.culprits)
            if (!row.divergentBuffers.empty()) v.divergedGroups.push_back(row.group);
        v.rootCause.step = step;
        if (an.terms == VerdictTerms::own) {
            if (std::any_of(an.buffers.begin(), an.buffers.end(), [&](const BufferResult& b) {
                    return b.step == step && b.group == kOtherGroup && !b.pending &&
                           countsAsDivergent(an, b.status);
                }))
                v.divergedGroups.push_back(kOtherGroup);
            detail::findOwnRoot(an, v.rootCause);
        } else {
            detail::findRootCause(an, v, v.rootCause);
            detail::findEarliest(an, v.rootCause);
        }
        if (!v.rootCause.ranks.empty()) v.firstDivergentRank = v.rootCause.ranks.front();
        describeRootKinds(an, v.rootCause);
    }
    v.exitCode = anyError ? 2 : anyDivergence ? 1 : 0;
    if (an.terms == VerdictTerms::own) {
        // The reference's tree and wording are the schema's; a run in its own terms gets its
        // root cause in production order instead.
        v.decisionCase = v.firstDivergentStep ? DecisionCase::own_terms : DecisionCase::all_equal;
        v.text = v.firstDivergentStep ? ownTermsText(v)
                 : anyError           ? std::string(kNotJudgedText)
                                      : "  Every buffer compared is equal at every step.";
        return v;
    }
    v.decisionCase = decisionCaseFor(v.divergedGroups);
    v.text = decisionText(v.decisionCase);
    // The reference's tree knows the reference's groups only. Groups that come from the dumped
    // files (no schema, no dataflow) are not "unexpected": the earliest divergence says where to
    // start.
    if (v.decisionCase == DecisionCase::unexpected && !v.rootCause.earliest.empty()) {
        std::string groups;
        for (const auto& g : v.divergedGroups)
            groups += (groups.empty() ? "" : ", ") + g;
        const auto& rc = v.rootCause;
        v.text = "  No decision tree applies: the divergent groups (" + groups +
                 ") are not in the schema's dataflow.\n  → Start at the earliest divergence in "
                 "dump order, " +
                 rc.earliest +
                 (rc.earliestRank ? " on rank " + std::to_string(*rc.earliestRank) : "") +
                 ", the first buffer written that differs.";
    }
    if (anyError && !anyDivergence) v.text = std::string(kNotJudgedText);
    return v;
}

} // namespace dumpscope

#include "dumpscope/verdict.h"

#include "dumpscope/reference_text.h"

#include <algorithm>
#include <set>

namespace dumpscope {

namespace {

bool contains(const std::vector<std::string>& v, const std::string& x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}

// The root buffers' kinds, most severe first, and what the most severe one suggests.
void describeRootKinds(const Analysis& an, RootCause& root) {
    const BufferResult* worst = nullptr;
    for (const auto& b : an.buffers) {
        if (b.step != *root.step || !contains(root.buffers, b.name) ||
            !contains(root.groups, b.group))
            continue;
        if (std::find(root.kinds.begin(), root.kinds.end(), b.kind) == root.kinds.end())
            root.kinds.push_back(b.kind);
        if (!worst || b.kind < worst->kind) worst = &b;
    }
    std::sort(root.kinds.begin(), root.kinds.end());
    if (worst) root.suggestion = kindSuggestion(worst->kind, worst->name);
}

} // namespace

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
    }
    return {};
}

std::string_view notComparedReason(const Analysis& an) {
    if (!an.errorA.empty() || !an.errorB.empty())
        return "a run directory is missing, unreadable or holds no dumps";
    if (an.buffers.empty()) return "none of the selected steps is dumped in either run";
    return {};
}

Verdict decide(const Analysis& an) {
    Verdict v;
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
        if (b.group != kOtherGroup && (!v.firstDivergentStep || b.step < *v.firstDivergentStep))
            v.firstDivergentStep = b.step;
    }

    const Schema& schema = *an.schema;
    if (v.firstDivergentStep) {
        const auto step = *v.firstDivergentStep;
        for (const auto& g : schema.groups) {
            CulpritRow row{g.id, g.label, false, {}};
            for (const auto& b : an.buffers) {
                if (b.step != step || b.group != g.id || b.pending) continue;
                row.present |= !isOneSided(b.status);
                if (countsAsDivergent(an, b.status)) row.divergentBuffers.push_back(b.name);
            }
            if (!row.divergentBuffers.empty()) v.divergedGroups.push_back(g.id);
            v.culprits.push_back(std::move(row));
        }
        // Root cause: divergent groups none of whose direct upstream groups diverge. Data
        // reaches a group only through its inputs, so if they are equal the group is a source.
        v.rootCause.step = step;
        for (const auto& row : v.culprits) {
            if (row.divergentBuffers.empty()) continue;
            const auto up = schema.upstreamOf(row.group);
            const bool fed = std::any_of(up.begin(), up.end(), [&](const std::string& u) {
                return contains(v.divergedGroups, u);
            });
            if (fed) continue;
            v.rootCause.groups.push_back(row.group);
            v.rootCause.buffers.insert(v.rootCause.buffers.end(), row.divergentBuffers.begin(),
                                       row.divergentBuffers.end());
        }
        describeRootKinds(an, v.rootCause);
    }
    v.decisionCase = decisionCaseFor(v.divergedGroups);
    v.text = decisionText(v.decisionCase);
    v.exitCode = anyError ? 2 : anyDivergence ? 1 : 0;
    return v;
}

} // namespace dumpscope

#include "analysis/root_cause.h"

#include "dumpscope/verdict.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>

namespace dumpscope::detail {

namespace {

// f16, bf16 and the 8-bit floats: an equal dump at that precision can hide a difference.
bool isHalf(DType t) {
    return relativePrecision(t) > 0;
}
bool isWideFloat(DType t) {
    return t == DType::f32 || t == DType::f64;
}

// What a set of inputs holds at the step: enough to tell a source from a downstream buffer,
// and to word why when it cannot be told.
struct InputsAtStep {
    std::vector<std::string> divergent; // "GROUP/buffer"
    std::vector<UnjudgedBuffer> unjudged;
    std::vector<const BufferResult*> halfEqual; // compared, not divergent, f16/bf16
    std::size_t dumped = 0;                     // inputs with a result or a pending one
    // `allDivergent` false: one divergent name stands for all of them, for a buffer that only
    // needs to know whether any diverges (a declared one is never an UnclearSource).
    void add(const InputsAtStep& other, bool allDivergent = true) {
        divergent.insert(divergent.end(), other.divergent.begin(),
                         allDivergent || other.divergent.empty() ? other.divergent.end()
                                                                 : other.divergent.begin() + 1);
        unjudged.insert(unjudged.end(), other.unjudged.begin(), other.unjudged.end());
        halfEqual.insert(halfEqual.end(), other.halfEqual.begin(), other.halfEqual.end());
        dumped += other.dumped;
    }
};

class StepDataflow {
  public:
    StepDataflow(const Analysis& an, std::uint64_t step) : m_an(an), m_schema(*an.schema) {
        for (const auto& g : m_schema.groups)
            for (const auto& b : g.buffers)
                m_spec.emplace(b.name, &b);
        for (const auto& b : an.buffers)
            if (b.step == step && b.group != kOtherGroup) {
                // One name per step, its divergent rank's when several ranks dump it.
                const auto [at, added] = m_atStep.emplace(b.name, &b);
                if (!added && !divergent(*at->second) && divergent(b)) at->second = &b;
                m_groupBuffers[b.group].push_back(&b);
            }
    }

    const BufferSpec* spec(const std::string& name) const {
        const auto it = m_spec.find(name);
        return it == m_spec.end() ? nullptr : it->second;
    }
    const BufferResult* atStep(const std::string& name) const {
        const auto it = m_atStep.find(name);
        return it == m_atStep.end() ? nullptr : it->second;
    }
    bool divergent(const BufferResult& b) const {
        return !b.pending && countsAsDivergent(m_an, b.status);
    }

    // One buffer as an input. A buffer not dumped at the step says nothing, as an absent group
    // says nothing at group level.
    void addBuffer(const BufferResult& b, InputsAtStep& in) const {
        ++in.dumped;
        if (b.pending || isOneSided(b.status) || isError(b.status))
            in.unjudged.push_back({b.name, b.status, b.pending});
        else if (divergent(b))
            in.divergent.push_back(b.group + "/" + b.name);
        else if (isHalf(b.dtype))
            in.halfEqual.push_back(&b);
    }
    // All of a group's buffers as inputs; computed once per group.
    const InputsAtStep& group(const std::string& id) {
        if (const auto it = m_groupInputs.find(id); it != m_groupInputs.end()) return it->second;
        InputsAtStep in;
        if (const auto it = m_groupBuffers.find(id); it != m_groupBuffers.end())
            for (const BufferResult* b : it->second)
                addBuffer(*b, in);
        return m_groupInputs.emplace(id, std::move(in)).first->second;
    }
    // A buffer's inputs: its declared ones, else every buffer of its group's upstream groups.
    // The latter is the same for all of a group's buffers and computed once: a group may hold
    // thousands of divergent buffers fed by thousands. The reference is valid until the next
    // call.
    const InputsAtStep& inputsOf(const BufferSpec& spec, const std::string& groupId) {
        if (!spec.inputs) {
            if (const auto it = m_edgeInputs.find(groupId); it != m_edgeInputs.end())
                return it->second;
            InputsAtStep in;
            for (const auto& up : m_schema.upstreamOf(groupId))
                in.add(group(up));
            return m_edgeInputs.emplace(groupId, std::move(in)).first->second;
        }
        m_declared = {};
        for (const auto& entry : *spec.inputs)
            if (m_schema.group(entry))
                m_declared.add(group(entry), false);
            else if (const BufferResult* b = atStep(entry))
                addBuffer(*b, m_declared);
        return m_declared;
    }
    // Whether a buffer dumped at the step, wider than half precision, reads `source` directly.
    bool feedsWider(const BufferResult& source) const {
        for (const auto& [name, b] : m_atStep) {
            if (!isWideFloat(b->dtype) || b == &source) continue;
            const BufferSpec* s = spec(b->name);
            if (!s) continue;
            const bool reads =
                s->inputs ? contains(*s->inputs, source.name) || contains(*s->inputs, source.group)
                          : contains(m_schema.upstreamOf(b->group), source.group);
            if (reads) return true;
        }
        return false;
    }
    bool everyFloatDumpIsHalf() {
        if (!m_allHalf)
            m_allHalf = std::all_of(m_atStep.begin(), m_atStep.end(), [](const auto& e) {
                return !isFloat(e.second->dtype) || isHalf(e.second->dtype);
            });
        return *m_allHalf;
    }

  private:
    static bool contains(const std::vector<std::string>& v, const std::string& x) {
        return std::find(v.begin(), v.end(), x) != v.end();
    }
    const Analysis& m_an;
    const Schema& m_schema;
    std::unordered_map<std::string_view, const BufferSpec*> m_spec;
    std::unordered_map<std::string_view, const BufferResult*> m_atStep;
    std::unordered_map<std::string_view, std::vector<const BufferResult*>> m_groupBuffers;
    std::unordered_map<std::string, InputsAtStep> m_groupInputs, m_edgeInputs;
    InputsAtStep m_declared;
    std::optional<bool> m_allHalf;
};

// The "inputs" that leave out a group's divergent upstream buffers: a whole upstream group by
// its id when none of its buffers diverges, else its other buffers by name.
std::vector<std::string> declarationWithout(const Schema& schema, const std::string& groupId,
                                            const std::vector<std::string>& divergent) {
    std::vector<std::string> out;
    for (const auto& up : schema.upstreamOf(groupId)) {
        const GroupSpec* g = schema.group(up);
        std::vector<std::string> kept;
        for (const auto& b : g->buffers)
            if (std::find(divergent.begin(), divergent.end(), up + "/" + b.name) == divergent.end())
                kept.push_back(b.name);
        if (kept.size() == g->buffers.size())
            out.push_back(up);
        else
            out.insert(out.end(), kept.begin(), kept.end());
    }
    return out;
}

} // namespace

void findRootCause(const Analysis& an, const Verdict& v, RootCause& root) {
    const Schema& schema = *an.schema;
    StepDataflow flow(an, *root.step);
    std::set<std::string> unjudgedGroups;
    for (const auto& row : v.culprits) {
        if (row.divergentBuffers.empty()) continue;
        bool anySource = false, undecided = false;
        UnclearSource unclear{row.group, {}, {}, {}};
        for (const auto& name : row.divergentBuffers) {
            const BufferSpec* spec = flow.spec(name);
            const BufferResult* result = flow.atStep(name);
            if (!spec || !result) continue;
            const InputsAtStep& in = flow.inputsOf(*spec, row.group);
            if (!in.divergent.empty()) {
                // Fed by a few divergent buffers among many equal ones, by group edges alone:
                // the schema cannot say whether this buffer reads them.
                if (!spec->inputs && in.divergent.size() <= kFewDivergentInputs &&
                    in.divergent.size() * 4 <= in.dumped) {
                    unclear.buffers.push_back(name);
                    if (unclear.divergentInputs.empty()) unclear.divergentInputs = in.divergent;
                }
                continue;
            }
            if (!in.unjudged.empty()) {
                undecided = true;
                if (spec->inputs) {
                    root.undecidedBuffers.push_back({row.group, name, in.unjudged});
                } else {
                    for (const auto& up : schema.upstreamOf(row.group))
                        if (!flow.group(up).unjudged.empty()) unjudgedGroups.insert(up);
                }
                continue;
            }
            anySource = true;
            RootSource source{
                row.group, name,        result->dtype, result->kind, spec->inputs.has_value(),
                {},        std::nullopt};
            if (!in.halfEqual.empty() && (isWideFloat(result->dtype) || flow.feedsWider(*result) ||
                                          flow.everyFloatDumpIsHalf()))
                for (const BufferResult* b : in.halfEqual)
                    source.halfPrecisionInputs.push_back({b->name, b->dtype});
            root.buffers.push_back(name);
            root.sources.push_back(std::move(source));
        }
        if (anySource) root.groups.push_back(row.group);
        if (undecided) root.undecidedGroups.push_back(row.group);
        if (!unclear.buffers.empty()) {
            unclear.declaration = declarationWithout(schema, row.group, unclear.divergentInputs);
            root.unclearSources.push_back(std::move(unclear));
        }
    }
    for (const auto& row : v.culprits)
        if (unjudgedGroups.count(row.group)) root.unjudgedInputs.push_back(row.group);
}

void findEarliest(const Analysis& an, RootCause& root) {
    const Schema& schema = *an.schema;
    std::set<std::string_view> flowing;
    for (const auto& [from, to] : schema.dataflow) {
        flowing.insert(from);
        flowing.insert(to);
    }
    const bool dataflowDecides =
        schema.hasBufferInputs() ||
        std::any_of(root.groups.begin(), root.groups.end(),
                    [&](const std::string& g) { return flowing.count(g) > 0; });
    std::set<std::uint64_t> ranks;
    const BufferResult* earliest = nullptr;
    auto dumpedAt = [](const BufferResult& b) {
        return std::pair{b.rank.value_or(0), b.dumpOrder};
    };
    for (const auto& b : an.buffers) {
        if (b.step != *root.step || b.pending || b.group == kOtherGroup ||
            !countsAsDivergent(an, b.status))
            continue;
        if (b.rank) ranks.insert(*b.rank);
        if (!earliest || dumpedAt(b) < dumpedAt(*earliest)) earliest = &b;
    }
    root.ranks.assign(ranks.begin(), ranks.end());
    if (!dataflowDecides && !root.sources.empty() && earliest) {
        root.earliest = earliest->group + "/" + earliest->name;
        root.earliestRank = earliest->rank;
    }
}

} // namespace dumpscope::detail

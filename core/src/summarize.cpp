#include "dumpscope/analyze.h"
#include "dumpscope/verdict.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace dumpscope {

std::string_view statusName(Status s) {
    switch (s) {
    case Status::equal: return "equal";
    case Status::diverge: return "diverge";
    case Status::within_tolerance: return "within_tolerance";
    case Status::length_mismatch: return "length_mismatch";
    case Status::only_in_a: return "only_in_a";
    case Status::only_in_b: return "only_in_b";
    case Status::error: return "error";
    case Status::changed_while_reading: return "changed_while_reading";
    case Status::missing: return "missing";
    }
    return "?";
}

std::string_view decisionCaseName(DecisionCase c) {
    switch (c) {
    case DecisionCase::all_equal: return "all_equal";
    case DecisionCase::g_only: return "g_only";
    case DecisionCase::h_without_g: return "h_without_g";
    case DecisionCase::i: return "i";
    case DecisionCase::j: return "j";
    case DecisionCase::unexpected: return "unexpected";
    case DecisionCase::not_compared: return "not_compared";
    }
    return "?";
}

namespace {

// A cell shows its most telling buffer:
// diverge > error > within tolerance > one-sided > equal > missing.
int rank(Status s) {
    if (isDivergent(s)) return 5;
    if (isError(s)) return 4;
    if (s == Status::within_tolerance) return 3;
    if (isOneSided(s)) return 2;
    if (s == Status::equal) return 1;
    return 0;
}

} // namespace

void summarize(Analysis& an) {
    an.matrix.clear();
    const bool hasOther = !an.unclassified.empty();
    std::map<std::uint64_t, std::size_t> row;
    for (auto step : an.steps) {
        row[step] = an.matrix.size();
        StepResult sr;
        sr.step = step;
        for (const auto& g : an.schema->groups) sr.cells.push_back(GroupCell{g.id, Status::missing, {}, 0, 0, 0});
        if (hasOther) sr.cells.push_back(GroupCell{kOtherGroup, Status::missing, {}, 0, 0, 0});
        an.matrix.push_back(std::move(sr));
    }
    for (std::size_t i = 0; i < an.buffers.size(); ++i) {
        const BufferResult& b = an.buffers[i];
        auto it = row.find(b.step);
        if (it == row.end()) continue;
        for (auto& cell : an.matrix[it->second].cells) {
            if (cell.group != b.group) continue;
            cell.buffers.push_back(i);
            if (b.pending) {
                ++cell.nPending;
                break;
            }
            if (countsAsDivergent(an, b.status)) {
                ++cell.nDivergent;
                if (!std::isnan(b.stats.maxAbsDelta)) cell.maxAbsDelta = std::max(cell.maxAbsDelta, b.stats.maxAbsDelta);
            }
            if (rank(b.status) > rank(cell.status)) cell.status = b.status;
            break;
        }
    }
    an.verdict = decide(an);
}

} // namespace dumpscope

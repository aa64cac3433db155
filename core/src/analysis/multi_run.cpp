#include "dumpscope/multi_run.h"
#include "dumpscope/verdict.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace dumpscope {

std::string_view floorReadingName(FloorReading r) {
    switch (r) {
    case FloorReading::not_compared:
        return "not_compared";
    case FloorReading::equal:
        return "equal";
    case FloorReading::floor_clean:
        return "floor_clean";
    case FloorReading::earlier:
        return "earlier";
    case FloorReading::other_buffers:
        return "other_buffers";
    case FloorReading::within_floor:
        return "within_floor";
    }
    return "?";
}

namespace {

bool runError(const Analysis& an) {
    return !an.errorA.empty() || !an.errorB.empty();
}

CandidateSummary summarizeOne(const Analysis& an) {
    CandidateSummary c;
    c.run = an.runB;
    c.exitCode = an.verdict.exitCode;
    c.error = an.errorA.empty() ? an.errorB : an.errorA;
    c.firstDivergentStep = an.verdict.firstDivergentStep;
    c.divergedGroups = an.verdict.divergedGroups;
    c.rootCause = an.verdict.rootCause;
    std::set<std::uint64_t> steps;
    for (const auto& b : an.buffers) {
        if (b.pending || !countsAsDivergent(an, b.status)) continue;
        ++c.divergentBuffers;
        steps.insert(b.step);
    }
    c.divergentSteps = steps.size();
    for (const auto& row : an.matrix)
        for (const auto& cell : row.cells)
            c.divergentCells += cell.nDivergent > 0;
    return c;
}

// Where a candidate sits in the ranking: smaller first.
std::tuple<int, std::uint64_t> rankKey(const CandidateSummary& c) {
    if (c.firstDivergentStep) return {0, *c.firstDivergentStep};
    if (!c.error.empty()) return {3, 0};
    if (c.exitCode != 0) return {1, 0};
    return {2, 0};
}

using Key = std::tuple<std::uint64_t, std::string, std::string>; // step, group, buffer

FloorComparison compareWithFloor(std::size_t k, const Analysis& floor, const Analysis& cand,
                                 const MultiRunSummary& s) {
    FloorComparison f;
    f.candidate = k;
    const CandidateSummary& fs = s.candidates.front();
    const CandidateSummary& cs = s.candidates[k];
    const std::string who = "candidate " + std::to_string(k + 1) + " (" + cs.run.string() + ")";
    const std::string floorName = "the noise floor (candidate 1, " + fs.run.string() + ")";
    if (runError(floor) || runError(cand)) {
        f.text = who + " cannot be read against " + floorName + ": " +
                 std::string(notComparedReason(runError(floor) ? floor : cand)) + ".";
        return f;
    }
    // The floor's buffers that were compared as a pair and found not divergent.
    std::set<Key> floorQuiet;
    for (const auto& b : floor.buffers)
        if (!b.pending && !isOneSided(b.status) && !isError(b.status) &&
            !countsAsDivergent(floor, b.status))
            floorQuiet.insert({b.step, b.group, b.name});
    for (const auto& b : cand.buffers) {
        if (b.pending || !countsAsDivergent(cand, b.status) ||
            !floorQuiet.count({b.step, b.group, b.name}))
            continue;
        if (f.nBeyondFloor++ < kMaxBeyondListed) f.beyondFloor.push_back({b.step, b.group, b.name});
    }
    const std::string count =
        std::to_string(f.nBeyondFloor) + " buffer(s) diverge where the floor's are equal";
    const std::string first = f.beyondFloor.empty()
                                  ? std::string()
                                  : ", first " + f.beyondFloor.front().group + "/" +
                                        f.beyondFloor.front().name + " at step " +
                                        std::to_string(f.beyondFloor.front().step);
    const auto step = [](std::uint64_t v) { return "step " + std::to_string(v); };
    if (!cs.firstDivergentStep && cs.divergentBuffers == 0) {
        f.reading = FloorReading::equal;
        f.text = who + " does not diverge from the base: nothing beyond the noise floor.";
    } else if (!fs.firstDivergentStep) {
        f.reading = FloorReading::floor_clean;
        f.text = who + " diverges" +
                 (cs.firstDivergentStep ? " from " + step(*cs.firstDivergentStep) : "") +
                 " while " + floorName +
                 " is bit-identical to the base: every divergence is the change's.";
    } else if (cs.firstDivergentStep && *cs.firstDivergentStep < *fs.firstDivergentStep) {
        f.reading = FloorReading::earlier;
        f.text = who + " diverges EARLIER than " + floorName + ": " + step(*cs.firstDivergentStep) +
                 " against " + step(*fs.firstDivergentStep) + "; " + count + first + ".";
    } else if (f.nBeyondFloor > 0) {
        f.reading = FloorReading::other_buffers;
        f.text = who + " diverges no earlier than " + floorName + ", which first diverges at " +
                 step(*fs.firstDivergentStep) + ", but in OTHER buffers: " + count + first + ".";
    } else {
        f.reading = FloorReading::within_floor;
        f.text = who + " diverges no earlier than " + floorName + ", which first diverges at " +
                 step(*fs.firstDivergentStep) +
                 ", and only in buffers the floor also diverges in at the "
                 "same steps: indistinguishable from run-to-run noise.";
    }
    return f;
}

} // namespace

MultiRunSummary summarizeCandidates(const std::vector<const Analysis*>& pairs) {
    MultiRunSummary s;
    for (const Analysis* an : pairs)
        s.candidates.push_back(summarizeOne(*an));
    for (std::size_t k = 0; k < s.candidates.size(); ++k)
        s.ranking.push_back(k);
    std::stable_sort(s.ranking.begin(), s.ranking.end(), [&](std::size_t x, std::size_t y) {
        return rankKey(s.candidates[x]) < rankKey(s.candidates[y]);
    });
    for (auto& c : s.candidates) {
        if (!c.firstDivergentStep) continue;
        c.rank = 1;
        for (const auto& other : s.candidates)
            c.rank += other.firstDivergentStep && *other.firstDivergentStep < *c.firstDivergentStep;
    }
    for (const auto& c : s.candidates)
        s.exitCode = std::max(s.exitCode, std::min(c.exitCode, 2));
    if (pairs.size() >= 2)
        for (std::size_t k = 1; k < pairs.size(); ++k)
            s.againstFloor.push_back(compareWithFloor(k, *pairs.front(), *pairs[k], s));
    return s;
}

MultiRunSummary summarizeCandidates(const std::vector<Analysis>& pairs) {
    std::vector<const Analysis*> pointers;
    for (const auto& an : pairs)
        pointers.push_back(&an);
    return summarizeCandidates(pointers);
}

MultiRunAnalysis analyzeCandidates(const std::filesystem::path& base,
                                   const std::vector<std::filesystem::path>& candidates,
                                   const AnalyzeOptions& options) {
    MultiRunAnalysis m;
    m.base = base;
    for (const auto& run : candidates)
        m.pairs.push_back(analyze(base, run, options));
    m.summary = summarizeCandidates(m.pairs);
    return m;
}

} // namespace dumpscope

#include "dumpscope/multi_run.h"
#include "dumpscope/verdict.h"

#include <algorithm>
#include <memory>
#include <set>
#include <tuple>
#include <utility>

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
    case FloorReading::beyond_floor:
        return "beyond_floor";
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

// `floorName` names the floor in the sentences: "the noise floor (…)".
FloorComparison compareWithFloor(std::size_t k, const NoiseFloor& floor,
                                 const std::string& floorName, const Analysis& cand,
                                 const MultiRunSummary& s) {
    FloorComparison f;
    f.candidate = k;
    const CandidateSummary& cs = s.candidates[k];
    const std::string who = "candidate " + std::to_string(k + 1) + " (" + cs.run.string() + ")";
    if (!floor.error.empty() || runError(cand)) {
        f.text = who + " cannot be read against " + floorName + ": " +
                 (floor.error.empty() ? std::string(notComparedReason(cand))
                                      : "a rerun cannot be read: " + floor.error) +
                 ".";
        return f;
    }
    bool anyUnseen = false, anyWithin = false;
    for (const auto& b : cand.buffers) {
        // A pair already read over the floor (applyNoiseFloor) keeps its noise as within_floor.
        anyWithin |= !b.pending && b.status == Status::within_floor;
        if (b.pending || !countsAsDivergent(cand, b.status)) continue;
        FloorJudgement j = judgeAgainstFloor(floor, b);
        if (j.within) continue;
        anyUnseen |= !j.floor;
        if (f.nBeyondFloor++ < kMaxBeyondListed) {
            f.beyondFloor.push_back({b.step, b.group, b.name});
            f.excess.push_back(std::move(j));
        }
    }
    const std::string count = std::to_string(f.nBeyondFloor) + " buffer(s) beyond the floor";
    const std::string first = f.excess.empty() ? std::string()
                                               : ", first " + f.excess.front().group + "/" +
                                                     f.excess.front().name + " at step " +
                                                     std::to_string(f.excess.front().step) + ": " +
                                                     describeAgainstFloor(f.excess.front());
    const auto step = [](std::uint64_t v) { return "step " + std::to_string(v); };
    if (!cs.firstDivergentStep && cs.divergentBuffers == 0 && !anyWithin) {
        f.reading = FloorReading::equal;
        f.text = who + " does not diverge from the base: nothing beyond the noise floor.";
    } else if (floor.clean()) {
        f.reading = FloorReading::floor_clean;
        f.text = who + " diverges" +
                 (cs.firstDivergentStep ? " from " + step(*cs.firstDivergentStep) : "") +
                 " while " + floorName +
                 " is bit-identical to the base: every divergence is the change's.";
    } else if (cs.firstDivergentStep && floor.firstDivergentStep &&
               *cs.firstDivergentStep < *floor.firstDivergentStep) {
        f.reading = FloorReading::earlier;
        f.text = who + " diverges EARLIER than " + floorName + ": " + step(*cs.firstDivergentStep) +
                 " against " + step(*floor.firstDivergentStep) + "; " + count + first + ".";
    } else if (anyUnseen) {
        f.reading = FloorReading::other_buffers;
        f.text = who + " diverges no earlier than " + floorName +
                 ", but in OTHER buffers: " + count + first + ".";
    } else if (f.nBeyondFloor > 0) {
        f.reading = FloorReading::beyond_floor;
        f.text = who + " diverges in buffers " + floorName +
                 " also diverges in, but BEYOND the floor: " + count + first + ".";
    } else {
        f.reading = FloorReading::within_floor;
        f.text = who + " diverges no earlier than " + floorName +
                 ", and only in buffers the floor also diverges in at the "
                 "same steps, by no more than " +
                 std::to_string(static_cast<int>(kFloorMargin)) +
                 "× the floor's max|Δ|: indistinguishable from run-to-run noise.";
    }
    return f;
}

MultiRunSummary summarizeOnly(const std::vector<const Analysis*>& pairs) {
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
    return s;
}

std::vector<const Analysis*> pointersTo(const std::vector<Analysis>& pairs) {
    std::vector<const Analysis*> pointers;
    for (const auto& an : pairs)
        pointers.push_back(&an);
    return pointers;
}

} // namespace

MultiRunSummary summarizeCandidates(const std::vector<const Analysis*>& pairs) {
    MultiRunSummary s = summarizeOnly(pairs);
    if (pairs.size() < 2) return s;
    const NoiseFloor floor = buildNoiseFloor({pairs.front()});
    const std::string name =
        "the noise floor (candidate 1, " + s.candidates.front().run.string() + ")";
    for (std::size_t k = 1; k < pairs.size(); ++k)
        s.againstFloor.push_back(compareWithFloor(k, floor, name, *pairs[k], s));
    return s;
}

MultiRunSummary summarizeCandidates(const std::vector<Analysis>& pairs) {
    return summarizeCandidates(pointersTo(pairs));
}

MultiRunSummary summarizeCandidates(const std::vector<const Analysis*>& pairs,
                                    const NoiseFloor& floor) {
    MultiRunSummary s = summarizeOnly(pairs);
    s.floorReruns = floor.reruns;
    const std::string name = "the noise floor (" + std::to_string(floor.reruns.size()) +
                             " rerun(s) of the base's build)";
    for (std::size_t k = 0; k < pairs.size(); ++k)
        s.againstFloor.push_back(compareWithFloor(k, floor, name, *pairs[k], s));
    // An unreadable rerun leaves the candidates unjudged: the process fails as on a bad run.
    if (!floor.error.empty()) s.exitCode = 2;
    return s;
}

MultiRunSummary summarizeCandidates(const std::vector<Analysis>& pairs, const NoiseFloor& floor) {
    return summarizeCandidates(pointersTo(pairs), floor);
}

NoiseFloor noiseFloorOf(const MultiRunAnalysis& m) {
    if (!m.floorPairs.empty()) return buildNoiseFloor(pointersTo(m.floorPairs));
    if (m.pairs.empty()) return {};
    return buildNoiseFloor({&m.pairs.front()});
}

MultiRunAnalysis analyzeCandidates(const std::filesystem::path& base,
                                   const std::vector<std::filesystem::path>& candidates,
                                   const AnalyzeOptions& options,
                                   const std::vector<std::filesystem::path>& floorReruns) {
    MultiRunAnalysis m;
    m.base = base;
    for (const auto& run : floorReruns)
        m.floorPairs.push_back(analyze(base, run, options));
    for (const auto& run : candidates)
        m.pairs.push_back(analyze(base, run, options));
    if (floorReruns.empty()) {
        m.summary = summarizeCandidates(m.pairs);
        return m;
    }
    const auto floor = std::make_shared<const NoiseFloor>(noiseFloorOf(m));
    for (auto& an : m.pairs)
        applyNoiseFloor(an, floor);
    m.summary = summarizeCandidates(m.pairs, *floor);
    return m;
}

} // namespace dumpscope

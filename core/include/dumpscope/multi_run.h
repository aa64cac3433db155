#pragma once

// A baseline against several candidates: each candidate is compared with
// the base by analyze(), exactly as a pair, and the pairs are then read together: which
// candidate diverges first where, and whether a changed build diverges beyond the noise floor
// that a rerun of the same build shows.

#include "dumpscope/analyze.h"
#include "dumpscope/noise_floor.h"
#include "dumpscope/result.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dumpscope {

// One candidate at a glance, read from its pair's Analysis (run A = the base).
struct CandidateSummary {
    std::filesystem::path run;
    int exitCode = 0;  // the pair's: 0 all equal, 1 divergence, 2 error
    std::string error; // a run directory missing, unreadable or without dumps, else ""
    std::optional<std::uint64_t> firstDivergentStep;
    std::vector<std::string> divergedGroups; // group ids at that step
    RootCause rootCause;
    std::size_t divergentCells = 0;   // step x group cells holding a divergent buffer
    std::size_t divergentBuffers = 0; // (step, buffer) results counted as divergent
    std::size_t divergentSteps = 0;   // steps with at least one divergent buffer
    // 1 + the number of candidates diverging at an earlier step (ties share a rank); 0 when
    // the candidate has no divergent step.
    std::size_t rank = 0;
};

// How a candidate reads against the noise floor (reruns of the base's build given as such, or
// else the first candidate, taken as one). Checked in this order:
enum class FloorReading {
    not_compared,  // the candidate's or the floor's run directory could not be read
    equal,         // the candidate diverges nowhere
    floor_clean,   // the floor is bit-identical to the base, the candidate is not
    earlier,       // the candidate's first divergent step comes before the floor's
    other_buffers, // not earlier, but some buffer diverges at a step where the floor's is equal
    within_floor,  // every divergent buffer within the floor's envelope (judgeAgainstFloor)
    // Not earlier, only buffers the floor also diverges in, but some beyond its envelope: more
    // than the margin times the floor's max|Δ|, or a more severe kind.
    beyond_floor,
};
std::string_view floorReadingName(FloorReading r);

// A buffer at a step: where a candidate diverges beyond the floor.
struct BufferAt {
    std::uint64_t step = 0;
    std::string group;
    std::string name;
    bool operator==(const BufferAt&) const = default;
};

struct FloorComparison {
    std::size_t candidate = 0; // index into MultiRunSummary::candidates
    FloorReading reading = FloorReading::not_compared;
    // (step, buffer) results divergent in the candidate beyond the floor: where no rerun
    // differs, or outside the envelope there. `beyondFloor` lists the first kMaxBeyondListed of
    // them by step, then in the analysis' buffer order; `excess[i]` is `beyondFloor[i]`'s
    // magnitudes against the floor's.
    std::size_t nBeyondFloor = 0;
    std::vector<BufferAt> beyondFloor;
    std::vector<FloorJudgement> excess;
    std::string text; // one sentence, naming both runs
};
inline constexpr std::size_t kMaxBeyondListed = 8;

struct MultiRunSummary {
    std::vector<CandidateSummary> candidates; // input order
    // Candidate indices: diverging ones by first divergent step (ties in input order), then
    // those whose only difference has no step (unclassified files) or an error, then the
    // equal ones, then those not compared.
    std::vector<std::size_t> ranking;
    // With reruns given (`floorReruns`) every candidate is read against their envelope; else,
    // with two candidates or more, the first one is the noise floor and every later one is read
    // against it; empty otherwise.
    std::vector<FloorComparison> againstFloor;
    std::vector<std::filesystem::path> floorReruns; // empty: the first candidate is the floor
    int exitCode = 0; // 2 when any pair's is 2, else 1 when any diverges, else 0
};

struct MultiRunAnalysis {
    std::filesystem::path base;
    std::vector<Analysis> pairs; // pairs[k]: base (run A) against candidate k (run B)
    MultiRunSummary summary;
    // The base against each rerun given as the floor (none: the first candidate is the floor).
    std::vector<Analysis> floorPairs;
};

// Reads finished pair analyses together; pairs[k] is the base against candidate k.
MultiRunSummary summarizeCandidates(const std::vector<const Analysis*>& pairs);
MultiRunSummary summarizeCandidates(const std::vector<Analysis>& pairs);
// Every candidate read against `floor`, built from reruns of the base's build.
MultiRunSummary summarizeCandidates(const std::vector<const Analysis*>& pairs,
                                    const NoiseFloor& floor);
MultiRunSummary summarizeCandidates(const std::vector<Analysis>& pairs, const NoiseFloor& floor);

// analyze(base, candidate, options) for each rerun (the floor, when any) and each candidate in
// turn, then summarizeCandidates. With reruns, each pair is read over their floor
// (applyNoiseFloor) before it is summarised, as a pair given --floor is.
MultiRunAnalysis analyzeCandidates(const std::filesystem::path& base,
                                   const std::vector<std::filesystem::path>& candidates,
                                   const AnalyzeOptions& options = {},
                                   const std::vector<std::filesystem::path>& floorReruns = {});
// The floor over `floorPairs`, or over the first pair when there are none.
NoiseFloor noiseFloorOf(const MultiRunAnalysis& multi);

} // namespace dumpscope

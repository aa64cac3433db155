#pragma once

// The noise floor: what reruns of the base's build show against the base, per step and buffer
// (the envelope of run-to-run noise), and whether a candidate's divergent buffer sits inside
// it. A buffer is judged by how much it differs, not only by whether it does.

#include "dumpscope/kind.h"
#include "dumpscope/result.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace dumpscope {

// How far a candidate's max|Δ| may exceed the floor's and still count as the same noise. The
// largest |Δ| of reduction-order noise over a buffer is itself a random variable: between two
// reruns of float32 sums in shuffled orders it varies by up to 2.8× (docs/reference/comparison.md
// gives the measurement). 4× covers that with room, and a real bug's divergence is orders of
// magnitude above its buffer's noise.
inline constexpr double kFloorMargin = 4.0;

// What the reruns show for one buffer at one step: the envelope over every rerun in which it
// differs bitwise from the base.
struct FloorEnvelope {
    double maxAbsDelta = 0;
    std::uint64_t maxUlp = 0;
    double maxShare = 0;            // differing elements / compared elements, largest rerun's
    std::vector<Kind> kinds;        // most severe first
    std::size_t rerunsDiverged = 0; // reruns in which this buffer differs at this step
};

struct NoiseFloor {
    std::vector<std::filesystem::path> reruns;
    // A rerun that could not be read ("RERUN: why"); the floor is then unusable.
    std::string error;
    std::optional<std::uint64_t> firstDivergentStep; // the earliest over the reruns
    // Keyed by (step, group, buffer name); only buffers that differ in some rerun.
    std::map<std::tuple<std::uint64_t, std::string, std::string>, FloorEnvelope> buffers;

    const FloorEnvelope* find(const BufferResult& b) const;
    bool clean() const { return buffers.empty(); } // every rerun bit-identical to the base
};

// The envelope over `reruns`: each the analysis of the base (run A) against one rerun (run B),
// compared with the same options as the candidates.
NoiseFloor buildNoiseFloor(const std::vector<const Analysis*>& reruns);

// One divergent buffer of a candidate against the floor.
struct FloorJudgement {
    std::uint64_t step = 0;
    std::string group, name;
    bool within = false;
    // The floor's envelope for this buffer and step; nullopt when no rerun differs there, and
    // the buffer is then beyond the floor whatever its magnitude.
    std::optional<FloorEnvelope> floor;
    double maxAbsDelta = 0;
    std::uint64_t maxUlp = 0;
    double share = 0;
    Kind kind = Kind::bit_identical;
    double factor = 0;    // maxAbsDelta / the floor's (infinite over a floor of 0); 0 without one
    double ulpFactor = 0; // maxUlp / the floor's, likewise
};

// Within the floor: the floor saw this buffer differ at this step, its kind is no more severe
// than the floor's most severe, its max|Δ| is at most kFloorMargin × the floor's, and it is
// not a length mismatch (a different number of elements is not rounding). The ULP
// distance and the share of differing elements are reported, not judged: near a sum that
// cancels to zero one rounding step is many ULPs, so the largest ULP distance of pure noise
// varies between reruns by 25× and more.
FloorJudgement judgeAgainstFloor(const NoiseFloor& floor, const BufferResult& b);

// A factor as a person reads it: "2.5", "1.3×10⁶", "∞".
std::string floorFactorText(double factor);

// "max|Δ| 4.0e-02 = 1.3×10⁶ × the floor's 3.0e-08, kind numeric (the floor's: rounding)", or
// "differs where no rerun does (max|Δ| 4.0e-02, kind numeric)".
std::string describeAgainstFloor(const FloorJudgement& j);

// Whether applyNoiseFloor turns `b` into within_floor in an analysis whose verdict ignores
// within_tolerance buffers or not (`verdictTolerance`): it counts as divergent and is within a
// usable floor. For a front end that reads results as they come (the window's worker).
bool becomesWithinFloor(const NoiseFloor& floor, const BufferResult& b, bool verdictTolerance);

// Reads a pair over the floor: each buffer that counts as divergent and is within the floor
// becomes Status::within_floor, then the matrix and the verdict are summarised again, so the
// root cause is the first divergence beyond the floor. Keeps the floor in `an.noiseFloor`.
// Returns the number of buffers reclassified.
std::size_t applyNoiseFloor(Analysis& an, std::shared_ptr<const NoiseFloor> floor);

} // namespace dumpscope

#pragma once

#include "dumpscope/dtype.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace dumpscope {

// The (narrow, wide) float types of a pair the two runs hold at different precisions, when one
// widens exactly into the other: f16 or bf16 into f32 or f64, f32 into f64. Any other pair of
// different types (f16 against bf16, a float8, an integer) is not one tensor: none.
std::optional<std::pair<DType, DType>> precisionPair(DType a, DType b);

// A buffer the two runs hold at different float precisions. The narrow side is widened exactly
// to the wide type and compared there; each element is judged by whether the wide value rounds
// to the narrow one (round to nearest, ties to even), its error measured in ULPs of the narrow
// value (the spacing of the narrow type above its magnitude).
struct CrossPrecision {
    DType narrow = DType::bf16;
    DType wide = DType::f32;
    bool narrowInA = true; // run A holds the narrow side

    // Filled by the compare, over the elements both sides hold.
    // Elements whose wide value does not round to the narrow one (NaN class and Inf included).
    std::uint64_t nBeyond = 0;
    // The first of them, with the narrow side's bits and the wide side's.
    std::optional<std::uint64_t> firstBeyond;
    std::uint64_t firstBeyondNarrowBits = 0, firstBeyondWideBits = 0;
    // The largest |wide − narrow| in ULPs of the narrow value, over the pairs both finite.
    double maxUlps = 0;
    std::optional<std::uint64_t> maxUlpsIndex;
    // NaN against a number, or Inf against a finite value the narrow type does not round to Inf.
    std::uint64_t nonFiniteMismatches = 0;

    DType typeOf(bool sideA) const { return sideA == narrowInA ? narrow : wide; }
    bool withinRounding() const { return nBeyond == 0; }
};

// One element: whether `wide` rounds to the narrow value `narrowBits`, and by how many ULPs of
// the narrow value they differ (none when either is NaN or infinite). NaN against NaN is
// within, whatever the payloads; +0 against −0 (or a wide value that rounds to the zero of
// the other sign) is within, as signs of zero pass every tolerance.
struct RoundingJudgement {
    bool within = false;
    std::optional<double> ulps;
    bool nonFiniteMismatch = false;
};
RoundingJudgement judgeRounding(DType narrow, std::uint64_t narrowBits, double wide);

// The narrow value's bits widened exactly to `wide` (a NaN keeps its sign and payload).
std::uint64_t widenBits(DType narrow, std::uint64_t bits, DType wide);

// "within the rounding of bf16" or "beyond the rounding of bf16: 3 elements, up to 12.5 ULP of
// bf16, first at index 7": the verdict on one buffer compared across precisions.
std::string precisionText(const CrossPrecision& p);

struct Analysis;
// What the pairs compared across precisions come to, for the verdict: "across precisions (bf16
// in run A, f32 in run B): all 12 buffers within the rounding of bf16", or how many are beyond
// it and the first of them by step. Empty when no pair was compared across precisions.
std::string precisionVerdict(const Analysis& analysis);

} // namespace dumpscope

#pragma once

#include "dumpscope/dtype.h"
#include "dumpscope/stats.h"

#include <string>
#include <string_view>
#include <vector>

namespace dumpscope {

// What kind of divergence a buffer pair shows; the kind names the class of kernel bug.
// Declared from most to least severe.
enum class Kind {
    length_mismatch, // the two dumps have different lengths
    // A replicated tensor (--replicated) that a rank of one run holds otherwise than its peers.
    cross_rank,
    // The bytes differ, known from a capture's fingerprints alone: no element data to tell how.
    fingerprint_only,
    nan_inf_mismatch, // NaN or Inf on one side only
    discrete,         // integer element types differ
    bitwise,          // a type with no arithmetic of ours (float8 fnuz, raw bytes) differs
    permuted,         // the same multiset of values in another order
    numeric,          // floating-point differences beyond reassociation noise
    rounding,         // every difference at the level of floating-point reassociation
    nan_payload,      // NaN on both sides, other bits
    signed_zero_only, // only +0 vs -0
    bit_identical,
};
std::string_view kindName(Kind k);

// max|Δ| / max(|A|,|B|) over a float32 buffer at or below which its differences are rounding.
// Measured on real H200 dumps: reduction-order noise stayed below 2e-6, a flipped discrete
// choice propagated downstream gave more than 1e-2; 1e-4 sits between with margin on both
// sides. For f16 and bf16 the limit is at least two of their epsilons (their outputs are rounded
// to that whatever the accumulation order).
inline constexpr double kDefaultRoundingThreshold = 1e-4;

// `lengthMismatch`: the pair's status is length_mismatch. `roundingThreshold` as above.
Kind classifyKind(DType dtype, const BufferStats& stats, bool lengthMismatch,
                  double roundingThreshold = kDefaultRoundingThreshold);

// max|Δ| / max(|A|,|B|) over the buffer (its scale); infinite when the scale is 0.
double scaleRatio(const BufferStats& stats);

// What a divergence of this kind first appearing in `buffer` suggests, in one sentence.
std::string kindSuggestion(Kind k, const std::string& buffer);

} // namespace dumpscope

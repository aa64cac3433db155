#include "dumpscope/kind.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dumpscope {

std::string_view kindName(Kind k) {
    switch (k) {
    case Kind::length_mismatch:
        return "length_mismatch";
    case Kind::cross_rank:
        return "cross_rank";
    case Kind::fingerprint_only:
        return "fingerprint_only";
    case Kind::nan_inf_mismatch:
        return "nan_inf_mismatch";
    case Kind::discrete:
        return "discrete";
    case Kind::bitwise:
        return "bitwise";
    case Kind::permuted:
        return "permuted";
    case Kind::numeric:
        return "numeric";
    case Kind::rounding:
        return "rounding";
    case Kind::nan_payload:
        return "nan_payload";
    case Kind::signed_zero_only:
        return "signed_zero_only";
    case Kind::bit_identical:
        return "bit_identical";
    }
    return "?";
}

namespace {

double epsilonOf(DType t) {
    switch (t) {
    case DType::f8_e4m3:
        return std::ldexp(1.0, -3);
    case DType::f8_e5m2:
        return std::ldexp(1.0, -2);
    case DType::f16:
        return std::ldexp(1.0, -10);
    case DType::bf16:
        return std::ldexp(1.0, -7);
    case DType::f64:
        return std::ldexp(1.0, -52);
    default:
        return std::ldexp(1.0, -23);
    }
}

// How many epsilons of the scale a reassociation can move a buffer of this type. f16 and bf16
// outputs are often accumulated or rescaled in their own type, several roundings deep: two.
// F8 values are a wider result quantised once (FP8 matmuls accumulate in f32 or more), so a
// different summation order moves an element by at most the one rounding of that cast, which
// is at most one epsilon of the scale; two would be 25% (E4M3) or 50% (E5M2) of the largest
// value, which hides real bugs.
double roundingEpsilons(DType t) {
    return t == DType::f8_e4m3 || t == DType::f8_e5m2 ? 1.0 : 2.0;
}

} // namespace

double scaleRatio(const BufferStats& s) {
    const double scale = std::max(s.maxAbsA, s.maxAbsB);
    if (scale > 0 && std::isfinite(scale)) return s.maxAbsDelta / scale;
    return s.maxAbsDelta > 0 ? std::numeric_limits<double>::infinity() : 0.0;
}

Kind classifyKind(DType dtype, const BufferStats& s, bool lengthMismatch, double threshold) {
    if (lengthMismatch) return Kind::length_mismatch;
    if (s.nDiff == 0) return Kind::bit_identical;
    if (s.nonFiniteMismatches > 0) return Kind::nan_inf_mismatch;
    // Equal positions contribute alike to both sides, so comparing the differing elements'
    // multisets compares the buffers' multisets.
    if (s.multisetA == s.multisetB) return Kind::permuted;
    if (!isFloat(dtype)) return Kind::discrete;
    if (s.nDiff > s.nanPayloadDiffs + s.signedZeroDiffs) {
        // Types coarser than float32 round each output to their own epsilon whatever the
        // accumulation order, so a couple of their ULP of the scale is noise too.
        const double limit = std::max(threshold, roundingEpsilons(dtype) * epsilonOf(dtype));
        return scaleRatio(s) <= limit ? Kind::rounding : Kind::numeric;
    }
    return s.nanPayloadDiffs > 0 ? Kind::nan_payload : Kind::signed_zero_only;
}

std::string kindSuggestion(Kind k, const std::string& b) {
    switch (k) {
    case Kind::length_mismatch:
        return b +
               " has different lengths in the two runs: the dump itself differs (shape, batch size "
               "or a truncated write), compare the code paths that size it.";
    case Kind::cross_rank:
        return b + " should be the same on every rank, but a rank holds it otherwise: a missed "
                   "all-reduce or broadcast, a rank that loaded other weights, or an update "
                   "applied on some ranks only.";
    case Kind::fingerprint_only:
        return b + " differs, known from the capture's fingerprints alone: capture this step in "
                   "full in both runs (mode=\"full\") to see its elements and the kind of "
                   "divergence.";
    case Kind::nan_inf_mismatch:
        return "NaN or Inf on one side only in " + b +
               ": an overflow or division by zero that depends on "
               "order, or uninitialised memory read by the kernel that writes it.";
    case Kind::discrete:
        return "integer values of " + b +
               " differ: a sampler, an argmax / top-k tie-break or a race on "
               "indices in the kernel that writes it.";
    case Kind::bitwise:
        return "the bytes of " + b +
               " differ, in an element type dumpscope has no arithmetic for: compare the kernel "
               "that writes it, or name a type for it in a schema to have its values compared.";
    case Kind::permuted:
        return b + " holds the same values in another order: a sampler or sort that reorders rows, "
                   "or a "
                   "scatter whose write order is not fixed.";
    case Kind::numeric:
        return b + " differs by more than reassociation noise: a race, a read of uninitialised or "
                   "stale "
                   "memory, or a discrete decision that flipped inside the kernel that writes it.";
    case Kind::rounding:
        return "rounding-level divergence first appearing in " + b +
               ": an order-dependent reduction "
               "(atomicAdd, split-K, warp-shuffle or block-reduce order) in the kernel that writes "
               "it.";
    case Kind::nan_payload:
        return b +
               " differs only in NaN payloads: harmless for the math; canonicalise NaNs before the "
               "dump or compare with a tolerance.";
    case Kind::signed_zero_only:
        return b +
               " differs only in the sign of zero: an order-dependent sum of terms that cancel; "
               "usually harmless.";
    case Kind::bit_identical:
        return b + " is bit-identical.";
    }
    return {};
}

} // namespace dumpscope

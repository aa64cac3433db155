#pragma once

// The vector half of the compare for float32 blocks in which most elements differ, where the
// compare must keep up with memory. Everything per element that needs no table or heap — the ULP
// distance, |Δ|, the block's count, extremes, last difference and signed-zero differences, which
// elements could enter the kept largest |Δ|, the differences a tolerance does not allow, the
// smallest rtol that would pass them, and the multiset hashes' sums — is computed 8 elements at
// a time with AVX2.
// The histograms follow from counts against thresholds: the decade of |Δ| is at least d exactly
// when |Δ| >= 10^d (as the decade table rounds it), and a ULP bin at least k when the distance
// is at least 2^k, so a block whose differences span a few decades and bins is binned by a few
// vector compare-and-count passes (countAtLeast). A block spanning many takes a scalar walk
// with a table lookup per element. |Δ| is computed in float32 (8 lanes, no conversion) where
// every distance of the block is within 2^23 ULP, since a - b is exact there, and in double
// (4 lanes) elsewhere. Machines without AVX2 keep the word-at-a-time path.
#include "dumpscope/stats.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <tuple>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define DUMPSCOPE_HAVE_AVX2 1 // the compiler can build AVX2 functions; the CPU is asked at run time
#else
#define DUMPSCOPE_HAVE_AVX2 0
#endif

namespace dumpscope::detail {

// The largest float32 not above x, and the smallest not below it (±Inf beyond the range): a
// float v is >= x exactly when v >= floatAtLeast(x).
inline float floatAtMost(double x) {
    const float f = static_cast<float>(x);
    return static_cast<double>(f) > x ? std::nextafter(f, -HUGE_VALF) : f;
}
inline float floatAtLeast(double x) {
    return -floatAtMost(-x);
}

// Whether this CPU runs AVX2 (asked once). It, vectorPathsEnabled() and the test hooks are in
// vector_paths.cpp, denseF32 in dense_f32.cpp, countAtLeast in count_at_least.cpp.
bool cpuHasAvx2();

struct DenseF32Block {
    static constexpr std::size_t kMax = 1024; // one 4 KiB compare block of float32
    static constexpr std::size_t kLanes = 4;
    static constexpr std::size_t kDecades =
        DeltaHistogram::kMaxDecade - DeltaHistogram::kMinDecade + 1;
    static constexpr std::size_t kUlpBins = UlpHistogram::kBins;

    // Within this ULP distance a - b is exact in float32: with equal signs the larger magnitude
    // is at most twice the smaller (Sterbenz), across the sign both are denormal.
    static constexpr std::uint32_t kExactUlp = std::uint32_t{1} << 23;

    // Per element: |Δ| in float32 where `single` (every ULP distance of the block is within
    // kExactUlp), else in double; and the ULP distance (all 0 where the bits are equal).
    alignas(32) double absDelta[kMax];
    alignas(32) float absDeltaF[kMax];
    alignas(32) std::uint32_t ulp[kMax];
    bool single = false;
    bool trySingle = true; // the next block tries the float32 kernel (the last one qualified)
    // Bit i of word i / 64: element i differs and its |Δ| is at least the `heapFloor` given.
    std::uint64_t candidates[kMax / 64];
    std::uint64_t nDiff = 0;      // elements whose bits differ
    std::uint64_t signedZero = 0; // differing elements with |Δ| == 0 (+0 vs -0)
    std::uint64_t last = 0;       // the last differing element, when nDiff > 0
    std::uint32_t maxUlp = 0;
    // The smallest ULP distance of a differing element; 2^32-1 when none differs.
    std::uint32_t minUlp = 0;
    double maxAbs = -1; // largest |Δ| of a differing element; -1 when none differs
    double minAbs = 0;  // smallest |Δ| > 0; +Inf when none is
    double maxRel = 0;  // largest |Δ| / max(|a|,|b|) where that scale is > 0
    // The running smallest rtol that passes every difference so far (BufferStats::rtolToPass):
    // the value given to denseF32, raised by the block's differences.
    double rtolToPass = 0;
    std::uint64_t outside = 0; // differing elements the tolerance given does not allow
    // The multiset hashes' sums over the differing elements (multiset_hash.h): {h, h^2} per side.
    std::uint64_t multisetA[2] = {}, multisetB[2] = {};

    // The scalar walk's histogram counts, element i in lane i % kLanes, so that neighbours
    // falling in the same bin do not wait on each other's increment. Added to the buffer's
    // histograms when it finishes. decades' last bin is a discard bin for |Δ| == 0 (equal bits,
    // +0 vs -0); ulps are indexed by the distance's bit width, so bin 0 discards distance 0.
    std::uint64_t decades[kLanes][kDecades + 1] = {};
    std::uint64_t ulps[kLanes][kUlpBins + 1] = {};
};

// Fills `out`'s per-block fields for the first n elements of a and b (n a multiple of 8, at
// most kMax). Every element must be finite on both sides (the caller's per-side scan says so).
// `tolerance` (may be null) is checked as StatsAccumulator's withinTolerance checks it;
// `rtolToPass` is the buffer's so far.
void denseF32(const unsigned char* a, const unsigned char* b, std::size_t n, double heapFloor,
              double rtolToPass, const Tolerance* tolerance, DenseF32Block& out);

// counts[k] = how many of the first n values are >= thresholds[k], for k < m (n a multiple of
// 8). Equal elements hold 0 in DenseF32Block's arrays and every threshold used is above 0.
// For double, float and std::uint32_t values.
template <typename T>
void countAtLeast(const T* values, std::size_t n, const T* thresholds, std::size_t m,
                  std::uint64_t* counts);

// The test hooks: a switch for the vector paths, and counts of the dense path's blocks (a block
// it took, one whose |Δ| was float32, one binned by threshold counts). They are defined only in
// tests/support/test_hooks.cpp, which the core's tests link and no other binary does. Everywhere
// else these weak declarations resolve to null: the core's library is the same with or without
// the tests, and the dense path only tests a null pointer per block.
namespace hooks {
[[gnu::weak]] bool vectorPathsAllowed();
[[gnu::weak]] void countDenseBlock();
[[gnu::weak]] void countSingleBlock();
[[gnu::weak]] void countThresholdBlock();
} // namespace hooks

// Whether the AVX2 paths (denseF32, scanAndMarkF32, markDifferingWords' loop) may run: the
// CPU has AVX2, and (in the core's tests) no test has switched the vector paths off. Inline and
// asked once per compare: the kernels' callers ask it per 4 KiB block.
inline bool vectorPathsEnabled() {
    static const bool cpu = cpuHasAvx2();
    return cpu && (!hooks::vectorPathsAllowed || hooks::vectorPathsAllowed());
}

inline void countDenseBlock() {
    if (hooks::countDenseBlock) hooks::countDenseBlock();
}
inline void countSingleBlock() {
    if (hooks::countSingleBlock) hooks::countSingleBlock();
}
inline void countThresholdBlock() {
    if (hooks::countThresholdBlock) hooks::countThresholdBlock();
}

} // namespace dumpscope::detail

#pragma once

// One side of a buffer pair in a single vectorised pass: its NaN/Inf count and its largest finite
// magnitude, the scale that classifyKind and the relative figures need. Every element is scanned,
// equal blocks included, so the loop is kept branch-free and compiled twice (SSE2 and AVX2).

#include "compare/dense_f32.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace dumpscope::detail {

// One side's NaN/Inf count and largest finite magnitude (raw bits) over n elements.
struct SideScan {
    std::uint64_t special = 0, maxMag = 0;
};

// Branch-free (it vectorises). Magnitudes fit the signed type of the same width, and signed
// compares and a counter of the element's own width let GCC vectorise the loop (unsigned
// 32-bit max and a size_t counter kept it scalar: 39% of an equal-heavy run).
template <typename Tr>
[[gnu::always_inline]] inline SideScan scanLoop(const unsigned char* p, std::size_t n) {
    using Bits = typename Tr::Bits;
    using SBits = std::make_signed_t<Bits>;
    constexpr SBits kMag = static_cast<SBits>(Tr::kSign - 1);
    constexpr SBits kExp = static_cast<SBits>(Tr::kExp);
    // The per-lane counter cannot overflow within it (127 for 8-bit floats' counter).
    constexpr std::size_t kSub =
        std::min<std::size_t>(4096, static_cast<std::size_t>(std::numeric_limits<SBits>::max()));
    SideScan r;
    SBits maxMag = 0;
    for (std::size_t start = 0; start < n; start += kSub) {
        const std::size_t len = std::min(kSub, n - start);
        const unsigned char* q = p + start * sizeof(Bits);
        SBits count = 0;
        for (std::size_t i = 0; i < len; ++i) {
            const SBits m =
                static_cast<SBits>(static_cast<SBits>(Tr::load(q + i * sizeof(Bits))) & kMag);
            count += m >= kExp;
            maxMag = std::max<SBits>(maxMag, m < kExp ? m : SBits{0});
        }
        r.special += static_cast<std::uint64_t>(count);
    }
    r.maxMag = static_cast<std::uint64_t>(maxMag);
    return r;
}

#if DUMPSCOPE_HAVE_AVX2
// The same loop compiled for AVX2 (twice the lanes), for CPUs that have it.
template <typename Tr>
[[gnu::target("avx2")]] SideScan scanLoopAvx2(const unsigned char* p, std::size_t n) {
    return scanLoop<Tr>(p, n);
}
#endif

template <typename Tr> SideScan scanMagnitudes(const unsigned char* p, std::size_t n) {
#if DUMPSCOPE_HAVE_AVX2
    if (cpuHasAvx2()) return scanLoopAvx2<Tr>(p, n);
#endif
    return scanLoop<Tr>(p, n);
}

} // namespace dumpscope::detail

#pragma once

// The synthetic float32 data the compare benchmarks share (dumpscope-bench-compare,
// dumpscope-bench-cycles): gradient-like bits as dumpscope-make-pair writes them.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dumpscope::bench {

// The next gradient-like float32 bits of a 64-bit LCG: random sign, magnitude in [2^-20, 1),
// never NaN, Inf or 0, so "a few ULP" stays a few ULP.
inline std::uint32_t gradientBits(std::uint64_t& state) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const std::uint64_t r = state >> 11;
    return static_cast<std::uint32_t>((r & 1) << 31 | (107 + (r >> 1) % 20) << 23 |
                                      (r >> 8 & 0x7FFFFF));
}

inline std::vector<std::uint32_t> randomFloats(std::size_t n, std::uint64_t seed) {
    std::vector<std::uint32_t> v(n);
    std::uint64_t s = seed;
    for (auto& x : v)
        x = gradientBits(s);
    return v;
}

// Every element 1-4 ULP away (in the same binade: the magnitudes are not near a binade's end).
inline std::vector<std::uint32_t> allDivergent(std::vector<std::uint32_t> a) {
    for (std::size_t i = 0; i < a.size(); ++i)
        a[i] += 1 + static_cast<std::uint32_t>(i % 4);
    return a;
}

} // namespace dumpscope::bench

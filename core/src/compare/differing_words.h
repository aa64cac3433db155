#pragma once

// Where two byte ranges differ, as one bit per 8-byte word: the search for the differing
// elements of a block whose memcmp failed; for float32, fused with both sides' NaN/Inf scan. AVX2
// compares 32 bytes per step where the CPU has it (and the tests have not switched the vector paths
// off); otherwise a word at a time.
#include <cstddef>
#include <cstdint>

namespace dumpscope::detail {

// Sets bit (w % 64) of out[w / 64] for each 8-byte word w in [from, to) at which a and b
// differ; other bits are left alone. `from` is a multiple of 4.
void markDifferingWords(const unsigned char* a, const unsigned char* b, std::size_t from,
                        std::size_t to, std::uint64_t* out);

// A differing float32 block in one pass over both sides (AVX2 only: call when
// vectorPathsEnabled()): each side's NaN/Inf count and largest finite magnitude, as scanLoop
// (side_scan.h) computes them, and the differing 8-byte words of [0, n / 2) marked as
// markDifferingWords marks them.
struct PairScanF32 {
    std::uint64_t specialA = 0, specialB = 0;
    std::uint32_t maxMagA = 0, maxMagB = 0;
};
PairScanF32 scanAndMarkF32(const unsigned char* a, const unsigned char* b, std::size_t n,
                           std::uint64_t* out);

} // namespace dumpscope::detail

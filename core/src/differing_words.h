#pragma once

// Where two byte ranges differ, as one bit per 8-byte word: the search for the differing
// elements of a block whose memcmp failed. AVX2 compares 32 bytes per step where the CPU has
// it (and the tests have not switched the vector paths off); otherwise a word at a time.
#include <cstddef>
#include <cstdint>

namespace dumpscope::detail {

// Sets bit (w % 64) of out[w / 64] for each 8-byte word w in [from, to) at which a and b
// differ; other bits are left alone. `from` is a multiple of 4.
void markDifferingWords(const unsigned char* a, const unsigned char* b, std::size_t from, std::size_t to,
                        std::uint64_t* out);

} // namespace dumpscope::detail

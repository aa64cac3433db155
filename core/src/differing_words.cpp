#include "differing_words.h"

#include "dense_f32.h"

#include <cstring>

#if DUMPSCOPE_HAVE_AVX2
#include <immintrin.h>
#endif

namespace dumpscope::detail {

namespace {

std::uint64_t word(const unsigned char* p, std::size_t w) {
    std::uint64_t v;
    std::memcpy(&v, p + 8 * w, 8);
    return v;
}

void markWords(const unsigned char* a, const unsigned char* b, std::size_t from, std::size_t to, std::uint64_t* out) {
    for (std::size_t w = from; w < to; ++w)
        out[w / 64] |= static_cast<std::uint64_t>(word(a, w) != word(b, w)) << (w % 64);
}

#if DUMPSCOPE_HAVE_AVX2
// Four words per step: a 64-bit lane compare, its sign bits as four bits of the mask.
__attribute__((target("avx2"))) std::size_t markAvx2(const unsigned char* a, const unsigned char* b, std::size_t from,
                                                     std::size_t to, std::uint64_t* out) {
    std::size_t w = from;
    for (; w + 4 <= to; w += 4) {
        const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 8 * w));
        const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 8 * w));
        const int equal = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(x, y)));
        out[w / 64] |= static_cast<std::uint64_t>(~equal & 0xf) << (w % 64); // w % 4 == 0: no straddle
    }
    return w;
}
#endif

} // namespace

void markDifferingWords(const unsigned char* a, const unsigned char* b, std::size_t from, std::size_t to,
                        std::uint64_t* out) {
#if DUMPSCOPE_HAVE_AVX2
    if (denseF32Enabled()) from = markAvx2(a, b, from, to, out);
#endif
    markWords(a, b, from, to, out);
}

} // namespace dumpscope::detail

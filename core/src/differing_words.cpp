#include "differing_words.h"

#include "dense_f32.h"

#include <algorithm>
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
    std::uint64_t bits = 0; // out[w / 64]'s new bits, stored once per 64 words (a store per step
                            // would chain every step through memory)
    for (; w + 4 <= to; w += 4) {
        const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 8 * w));
        const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 8 * w));
        const int equal = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(x, y)));
        bits |= static_cast<std::uint64_t>(~equal & 0xf) << (w % 64); // w % 4 == 0: no straddle
        if (w % 64 == 60) out[w / 64] |= bits, bits = 0;
    }
    if (w % 64) out[w / 64] |= bits;
    return w;
}

// scanLoop's figures for one side's element, and the word marks, eight elements per step.
__attribute__((target("avx2"))) PairScanF32 scanAndMarkAvx2(const unsigned char* a, const unsigned char* b,
                                                            std::size_t n, std::uint64_t* out) {
    const __m256i mag = _mm256_set1_epi32(0x7fffffff);
    const __m256i belowExp = _mm256_set1_epi32(0x7f800000 - 1);
    __m256i specialA = _mm256_setzero_si256(), specialB = specialA, maxA = specialA, maxB = specialA;
    std::uint64_t bits = 0; // as in markAvx2
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 4 * i));
        const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 4 * i));
        const __m256i mx = _mm256_and_si256(x, mag), my = _mm256_and_si256(y, mag);
        const __m256i sx = _mm256_cmpgt_epi32(mx, belowExp), sy = _mm256_cmpgt_epi32(my, belowExp);
        specialA = _mm256_sub_epi32(specialA, sx);
        specialB = _mm256_sub_epi32(specialB, sy);
        maxA = _mm256_max_epi32(maxA, _mm256_andnot_si256(sx, mx));
        maxB = _mm256_max_epi32(maxB, _mm256_andnot_si256(sy, my));
        const int equal = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(x, y)));
        bits |= static_cast<std::uint64_t>(~equal & 0xf) << (i / 2 % 64); // word i/2, a multiple of 4
        if (i / 2 % 64 == 60) out[i / 128] |= bits, bits = 0;
    }
    if (i / 2 % 64) out[i / 128] |= bits;
    alignas(32) std::uint32_t sa[8], sb[8], ma[8], mb[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(sa), specialA);
    _mm256_store_si256(reinterpret_cast<__m256i*>(sb), specialB);
    _mm256_store_si256(reinterpret_cast<__m256i*>(ma), maxA);
    _mm256_store_si256(reinterpret_cast<__m256i*>(mb), maxB);
    PairScanF32 r;
    for (int k = 0; k < 8; ++k) {
        r.specialA += sa[k], r.specialB += sb[k];
        r.maxMagA = std::max(r.maxMagA, ma[k]), r.maxMagB = std::max(r.maxMagB, mb[k]);
    }
    for (std::size_t j = i; j < n; ++j) { // the last elements one at a time
        std::uint32_t x, y;
        std::memcpy(&x, a + 4 * j, 4);
        std::memcpy(&y, b + 4 * j, 4);
        const std::uint32_t mx = x & 0x7fffffffu, my = y & 0x7fffffffu;
        r.specialA += mx >= 0x7f800000u, r.specialB += my >= 0x7f800000u;
        if (mx < 0x7f800000u) r.maxMagA = std::max(r.maxMagA, mx);
        if (my < 0x7f800000u) r.maxMagB = std::max(r.maxMagB, my);
    }
    markWords(a, b, i / 2, n / 2, out);
    return r;
}
#endif

} // namespace

PairScanF32 scanAndMarkF32(const unsigned char* a, const unsigned char* b, std::size_t n, std::uint64_t* out) {
#if DUMPSCOPE_HAVE_AVX2
    return scanAndMarkAvx2(a, b, n, out);
#else
    (void)a, (void)b, (void)n, (void)out;
    return {};
#endif
}

void markDifferingWords(const unsigned char* a, const unsigned char* b, std::size_t from, std::size_t to,
                        std::uint64_t* out) {
#if DUMPSCOPE_HAVE_AVX2
    if (vectorPathsEnabled()) from = markAvx2(a, b, from, to, out);
#endif
    markWords(a, b, from, to, out);
}

} // namespace dumpscope::detail

#include "compare/differing_words.h"

#include "compare/dense_f32.h"

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

void markWords(const unsigned char* a, const unsigned char* b, std::size_t from, std::size_t to,
               std::uint64_t* out) {
    for (std::size_t w = from; w < to; ++w)
        out[w / 64] |= static_cast<std::uint64_t>(word(a, w) != word(b, w)) << (w % 64);
}

#if DUMPSCOPE_HAVE_AVX2
// Four words per step: a 64-bit lane compare, its sign bits as four bits of the mask.
__attribute__((target("avx2"))) std::size_t markAvx2(const unsigned char* a, const unsigned char* b,
                                                     std::size_t from, std::size_t to,
                                                     std::uint64_t* out) {
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

// scanLoop's running figures for both sides, eight lanes each.
struct PairScanLanes {
    __m256i specialA, specialB, maxA, maxB;
};

// Elements [i, i + 8): both sides' figures, and the four words' "equal" bits.
__attribute__((target("avx2"), always_inline)) inline std::uint64_t
scanStep(PairScanLanes& l, const unsigned char* a, const unsigned char* b, std::size_t i) {
    const __m256i mag = _mm256_set1_epi32(0x7fffffff);
    const __m256i belowExp = _mm256_set1_epi32(0x7f800000 - 1);
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 4 * i));
    const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 4 * i));
    const __m256i mx = _mm256_and_si256(x, mag), my = _mm256_and_si256(y, mag);
    const __m256i sx = _mm256_cmpgt_epi32(mx, belowExp), sy = _mm256_cmpgt_epi32(my, belowExp);
    l.specialA = _mm256_sub_epi32(l.specialA, sx);
    l.specialB = _mm256_sub_epi32(l.specialB, sy);
    l.maxA = _mm256_max_epi32(l.maxA, _mm256_andnot_si256(sx, mx));
    l.maxB = _mm256_max_epi32(l.maxB, _mm256_andnot_si256(sy, my));
    return static_cast<std::uint64_t>(
        _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(x, y))));
}

// The figures and the word marks, 128 elements (one mark word) per unrolled step, so that
// each step's four bits go in by a constant shift (a shift by a variable count is three
// micro-ops here; with one, the loop took 8.5 cycles per 8 elements).
__attribute__((target("avx2"))) PairScanF32
scanAndMarkAvx2(const unsigned char* a, const unsigned char* b, std::size_t n, std::uint64_t* out) {
    PairScanLanes l{_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(),
                    _mm256_setzero_si256()};
    std::size_t i = 0;
    for (; i + 128 <= n; i += 128) {
        std::uint64_t equal = 0;
#pragma GCC unroll 16
        for (unsigned k = 0; k < 16; ++k)
            equal |= scanStep(l, a, b, i + 8 * k) << (4 * k);
        out[i / 128] |= ~equal;
    }
    std::uint64_t bits = 0; // the last partial mark word
    for (; i + 8 <= n; i += 8)
        bits |= (~scanStep(l, a, b, i) & 0xf) << (i / 2 % 64); // i / 2 % 4 == 0: no straddle
    if (i / 2 % 64) out[i / 128] |= bits;
    alignas(32) std::uint32_t sa[8], sb[8], ma[8], mb[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(sa), l.specialA);
    _mm256_store_si256(reinterpret_cast<__m256i*>(sb), l.specialB);
    _mm256_store_si256(reinterpret_cast<__m256i*>(ma), l.maxA);
    _mm256_store_si256(reinterpret_cast<__m256i*>(mb), l.maxB);
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

PairScanF32 scanAndMarkF32(const unsigned char* a, const unsigned char* b, std::size_t n,
                           std::uint64_t* out) {
#if DUMPSCOPE_HAVE_AVX2
    return scanAndMarkAvx2(a, b, n, out);
#else
    (void)a, (void)b, (void)n, (void)out;
    return {};
#endif
}

void markDifferingWords(const unsigned char* a, const unsigned char* b, std::size_t from,
                        std::size_t to, std::uint64_t* out) {
#if DUMPSCOPE_HAVE_AVX2
    if (vectorPathsEnabled()) from = markAvx2(a, b, from, to, out);
#endif
    markWords(a, b, from, to, out);
}

} // namespace dumpscope::detail

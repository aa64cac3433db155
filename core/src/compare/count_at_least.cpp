// countAtLeast (dense_f32.h): how many of a dense block's |Δ| or ULP distances reach each
// threshold, which the histograms of a block spanning few decades and bins follow from.
#include "compare/dense_f32.h"

#if DUMPSCOPE_HAVE_AVX2
#include <immintrin.h>
#endif

namespace dumpscope::detail {

namespace {

#if DUMPSCOPE_HAVE_AVX2
// countAtLeast, one pass over the (L1-resident) values per threshold: a compare and a
// subtract of its all-ones lanes per vector.
__attribute__((target("avx2"))) void countAtLeastAvx2(const double* values, std::size_t n,
                                                      const double* thresholds, std::size_t m,
                                                      std::uint64_t* counts) {
    for (std::size_t k = 0; k < m; ++k) {
        const __m256d t = _mm256_set1_pd(thresholds[k]);
        __m256i c0 = _mm256_setzero_si256(), c1 = c0;
        for (std::size_t i = 0; i < n; i += 8) {
            c0 = _mm256_sub_epi64(
                c0, _mm256_castpd_si256(_mm256_cmp_pd(_mm256_load_pd(values + i), t, _CMP_GE_OQ)));
            c1 = _mm256_sub_epi64(c1, _mm256_castpd_si256(_mm256_cmp_pd(
                                          _mm256_load_pd(values + i + 4), t, _CMP_GE_OQ)));
        }
        alignas(32) std::uint64_t lanes[4];
        _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), _mm256_add_epi64(c0, c1));
        counts[k] = lanes[0] + lanes[1] + lanes[2] + lanes[3];
    }
}

// The same for float32 values, eight lanes of 32-bit counts.
__attribute__((target("avx2"))) void countAtLeastAvx2(const float* values, std::size_t n,
                                                      const float* thresholds, std::size_t m,
                                                      std::uint64_t* counts) {
    for (std::size_t k = 0; k < m; ++k) {
        const __m256 t = _mm256_set1_ps(thresholds[k]);
        __m256i c = _mm256_setzero_si256();
        for (std::size_t i = 0; i < n; i += 8)
            c = _mm256_sub_epi32(
                c, _mm256_castps_si256(_mm256_cmp_ps(_mm256_load_ps(values + i), t, _CMP_GE_OQ)));
        alignas(32) std::uint32_t lanes[8];
        _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), c);
        counts[k] = 0;
        for (std::uint32_t lane : lanes)
            counts[k] += lane;
    }
}

// The same for unsigned 32-bit values (v >= t where max(v, t) == v); eight lanes of 32-bit
// counts cannot overflow within a block.
__attribute__((target("avx2"))) void countAtLeastAvx2(const std::uint32_t* values, std::size_t n,
                                                      const std::uint32_t* thresholds,
                                                      std::size_t m, std::uint64_t* counts) {
    for (std::size_t k = 0; k < m; ++k) {
        const __m256i t = _mm256_set1_epi32(static_cast<int>(thresholds[k]));
        __m256i c = _mm256_setzero_si256();
        for (std::size_t i = 0; i < n; i += 8) {
            const __m256i v = _mm256_load_si256(reinterpret_cast<const __m256i*>(values + i));
            c = _mm256_sub_epi32(c, _mm256_cmpeq_epi32(_mm256_max_epu32(v, t), v));
        }
        alignas(32) std::uint32_t lanes[8];
        _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), c);
        counts[k] = 0;
        for (std::uint32_t lane : lanes)
            counts[k] += lane;
    }
}
#endif

} // namespace

#if !DUMPSCOPE_HAVE_AVX2
// Reached only where vectorPathsEnabled() (AVX2); elsewhere a plain loop keeps it defined.
template <typename T>
void countAtLeastPlain(const T* values, std::size_t n, const T* thresholds, std::size_t m,
                       std::uint64_t* counts) {
    for (std::size_t k = 0; k < m; ++k) {
        counts[k] = 0;
        for (std::size_t i = 0; i < n; ++i)
            counts[k] += values[i] >= thresholds[k];
    }
}
#endif

template <typename T>
void countAtLeast(const T* values, std::size_t n, const T* thresholds, std::size_t m,
                  std::uint64_t* counts) {
#if DUMPSCOPE_HAVE_AVX2
    countAtLeastAvx2(values, n, thresholds, m, counts);
#else
    countAtLeastPlain(values, n, thresholds, m, counts);
#endif
}
template void countAtLeast(const double*, std::size_t, const double*, std::size_t, std::uint64_t*);
template void countAtLeast(const float*, std::size_t, const float*, std::size_t, std::uint64_t*);
template void countAtLeast(const std::uint32_t*, std::size_t, const std::uint32_t*, std::size_t,
                           std::uint64_t*);

} // namespace dumpscope::detail

// The dense float32 kernels behind denseF32 (dense_f32.h): the ULP distances, |Δ| in double
// or float32, the tolerance, the smallest rtol to pass and the multiset hashes, 8 elements at a
// time with AVX2.
#include "compare/dense_f32.h"
#include "compare/multiset_hash.h"
#include "schema/element_traits.h"

#include <algorithm>

#if DUMPSCOPE_HAVE_AVX2
#include <immintrin.h>
#endif

namespace dumpscope::detail {

namespace {

#if DUMPSCOPE_HAVE_AVX2
// The ULP distance of 8 elements (|mx-my| with equal signs, mx+my+1 across the sign), stored in
// out.ulp, and the running figures both kernels keep of it: equal elements, the largest and
// the smallest nonzero distance, and the last differing element.
struct UlpLanes {
    __m256i equal, maxUlp, minUlp;
};
struct UlpStep {
    __m256i ulp, eq, high; // eq: all ones where the bits are equal; high: the larger magnitude
    __m256i magB;          // |b|'s bits
    int differ;            // bit k: element k differs
};

__attribute__((target("avx2"))) inline UlpLanes startUlpLanes() {
    const __m256i zero = _mm256_setzero_si256();
    return {zero, zero, _mm256_cmpeq_epi32(zero, zero)}; // minUlp starts at 2^32-1
}

__attribute__((target("avx2"))) inline UlpStep ulpStep(__m256i x, __m256i y, std::size_t i,
                                                       UlpLanes& lanes, DenseF32Block& out) {
    const __m256i mag = _mm256_set1_epi32(0x7fffffff);
    const __m256i mx = _mm256_and_si256(x, mag), my = _mm256_and_si256(y, mag);
    UlpStep r;
    r.high = _mm256_max_epu32(mx, my);
    r.magB = my;
    const __m256i apart = _mm256_sub_epi32(r.high, _mm256_min_epu32(mx, my));
    const __m256i across = _mm256_add_epi32(_mm256_add_epi32(mx, my), _mm256_set1_epi32(1));
    const __m256i flip = _mm256_srai_epi32(_mm256_xor_si256(x, y), 31);
    r.ulp = _mm256_blendv_epi8(apart, across, flip);
    r.eq = _mm256_cmpeq_epi32(r.ulp, _mm256_setzero_si256());
    lanes.equal = _mm256_sub_epi32(lanes.equal, r.eq);
    lanes.maxUlp = _mm256_max_epu32(lanes.maxUlp, r.ulp);
    lanes.minUlp =
        _mm256_min_epu32(lanes.minUlp, _mm256_or_si256(r.ulp, r.eq)); // equal lanes: 2^32-1
    _mm256_store_si256(reinterpret_cast<__m256i*>(out.ulp + i), r.ulp);
    r.differ = ~_mm256_movemask_ps(_mm256_castsi256_ps(r.eq)) & 0xff;
    if (r.differ)
        out.last =
            i + 31 - static_cast<std::size_t>(__builtin_clz(static_cast<unsigned>(r.differ)));
    return r;
}

// out.nDiff, maxUlp and minUlp from the lanes, after n elements.
__attribute__((target("avx2"))) inline void finishUlpLanes(const UlpLanes& lanes, std::size_t n,
                                                           DenseF32Block& out) {
    alignas(32) std::uint32_t eq32[8], max32[8], min32[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(eq32), lanes.equal);
    _mm256_store_si256(reinterpret_cast<__m256i*>(max32), lanes.maxUlp);
    _mm256_store_si256(reinterpret_cast<__m256i*>(min32), lanes.minUlp);
    std::uint64_t equalCount = 0;
    for (int k = 0; k < 8; ++k) {
        equalCount += eq32[k];
        out.maxUlp = std::max(out.maxUlp, max32[k]);
        out.minUlp = std::min(out.minUlp, min32[k]);
    }
    out.nDiff = n - equalCount;
}

// withinTolerance's limits for the kernels: |Δ| <= atol + rtol*|b| when either is given
// (`useAbs`; the multiply and the add are separate instructions, as in the scalar path), ULP
// <= ulp when given (else 2^32-1, which every distance passes), and +0 vs -0 always.
struct ToleranceLanes {
    bool useAbs;
    __m256d atol, rtol;
    __m256i ulpLimit;
};
__attribute__((target("avx2"))) inline ToleranceLanes toleranceLanes(const Tolerance* tolerance) {
    const bool useUlp = tolerance && tolerance->ulp;
    return {tolerance && (tolerance->atol || tolerance->rtol),
            _mm256_set1_pd(tolerance ? tolerance->atol.value_or(0.0) : 0.0),
            _mm256_set1_pd(tolerance ? tolerance->rtol.value_or(0.0) : 0.0),
            _mm256_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(
                useUlp ? std::min<std::uint64_t>(*tolerance->ulp, 0xffffffffu) : 0xffffffffu)))};
}

// raiseRtolToPass (schema/element_traits.h) for the lanes set in `lanes`, those whose |Δ| is
// above rtol * |b|: the rare lanes that raise the buffer's smallest rtol to pass.
__attribute__((target("avx2"))) inline void raiseRtolLanes(double& rtol, __m256d absDelta,
                                                           __m256d absB, int lanes) {
    alignas(32) double d[4], b[4];
    _mm256_store_pd(d, absDelta);
    _mm256_store_pd(b, absB);
    for (; lanes; lanes &= lanes - 1) {
        const int k = __builtin_ctz(static_cast<unsigned>(lanes));
        raiseRtolToPass(rtol, d[k], b[k]);
    }
}

// Per 8 elements: the ULP distance in 32-bit lanes (|mx-my| with equal signs, mx+my+1 across
// the sign), then both halves widened to double for |Δ| = |a-b| and the scale max(|a|,|b|).
// Both are stored for the histograms, with their smallest and largest nonzero values, which
// bound the thresholds countAtLeast needs. |Δ| / scale is divided only when a lane could raise
// its maximum (|Δ| >= max * scale), as the scalar path does, and the smallest rtol to pass is
// sought only where |Δ| > rtol * |b|.
__attribute__((target("avx2"))) void denseAvx2(const unsigned char* a, const unsigned char* b,
                                               std::size_t n, double heapFloor, double rtol,
                                               const Tolerance* tolerance, DenseF32Block& out) {
    const __m256i zeroI = _mm256_setzero_si256();
    const __m256d zero = _mm256_setzero_pd();
    const __m256d minusOne = _mm256_set1_pd(-1.0);
    const __m256d infinity = _mm256_set1_pd(__builtin_inf());
    const __m256d floor = _mm256_set1_pd(heapFloor);
    const __m256d absMask = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
    const auto [useAbs, atol, rtolLimit, ulpLimit] = toleranceLanes(tolerance);
    const __m256i allOnes = _mm256_cmpeq_epi32(zeroI, zeroI);
    UlpLanes lanes = startUlpLanes();
    __m256i signedZero = zeroI, outside = zeroI;
    __m256d maxAbs = minusOne, minAbs = infinity, maxRel = zero;
    __m256d rtolLanes = _mm256_set1_pd(rtol);
    std::uint64_t candidates = 0;
    for (std::size_t i = 0; i < n; i += 8) {
        const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 4 * i));
        const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 4 * i));
        const UlpStep step = ulpStep(x, y, i, lanes, out);
        const __m256i ulp = step.ulp, eq = step.eq;
        const __m256i ulpOk = _mm256_cmpeq_epi32(_mm256_max_epu32(ulp, ulpLimit), ulpLimit);
        const __m256d ulpOkLanes[2] = {
            _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(ulpOk))),
            _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm256_extracti128_si256(ulpOk, 1)))};

        const __m256d eqLanes[2] = {
            _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(eq))),
            _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm256_extracti128_si256(eq, 1)))};
        const __m128 xs[2] = {_mm_castsi128_ps(_mm256_castsi256_si128(x)),
                              _mm_castsi128_ps(_mm256_extracti128_si256(x, 1))};
        const __m128 ys[2] = {_mm_castsi128_ps(_mm256_castsi256_si128(y)),
                              _mm_castsi128_ps(_mm256_extracti128_si256(y, 1))};
        for (int h = 0; h < 2; ++h) {
            const std::size_t at = i + 4 * static_cast<std::size_t>(h);
            const __m256d vx = _mm256_cvtps_pd(xs[h]), vy = _mm256_cvtps_pd(ys[h]);
            const __m256d absY = _mm256_and_pd(vy, absMask);
            const __m256d absDelta = _mm256_and_pd(_mm256_sub_pd(vx, vy), absMask);
            maxAbs = _mm256_max_pd(maxAbs, _mm256_blendv_pd(absDelta, minusOne, eqLanes[h]));
            const __m256d isZero =
                _mm256_cmp_pd(absDelta, zero, _CMP_EQ_OQ); // equal bits, or +0 vs -0
            minAbs = _mm256_min_pd(minAbs, _mm256_blendv_pd(absDelta, infinity, isZero));
            signedZero = _mm256_sub_epi64(
                signedZero, _mm256_castpd_si256(_mm256_andnot_pd(eqLanes[h], isZero)));
            _mm256_store_pd(out.absDelta + at, absDelta);
            if (tolerance) {
                __m256d within = ulpOkLanes[h];
                if (useAbs) {
                    const __m256d limit = _mm256_add_pd(atol, _mm256_mul_pd(rtolLimit, absY));
                    within = _mm256_and_pd(within, _mm256_cmp_pd(absDelta, limit, _CMP_LE_OQ));
                }
                within = _mm256_or_pd(within, isZero);
                const __m256d notWithin = _mm256_xor_pd(within, _mm256_castsi256_pd(allOnes));
                outside = _mm256_sub_epi64(
                    outside, _mm256_castpd_si256(_mm256_andnot_pd(eqLanes[h], notWithin)));
            }

            const __m256d kept =
                _mm256_andnot_pd(eqLanes[h], _mm256_cmp_pd(absDelta, floor, _CMP_GE_OQ));
            candidates |= static_cast<std::uint64_t>(_mm256_movemask_pd(kept)) << (at % 64);
            if (at % 64 == 60) out.candidates[at / 64] = candidates, candidates = 0;

            const __m256d scale = _mm256_max_pd(_mm256_and_pd(vx, absMask), absY);
            // raiseMaxRelative (schema/element_traits.h) on four lanes: divide only where the
            // quotient can raise the maximum; a lane whose scale is 0 gives 0. And
            // raiseRtolToPass: the lanes whose |Δ| is above rtol * |b|. One branch for both.
            const __m256d may = _mm256_cmp_pd(absDelta, _mm256_mul_pd(maxRel, scale), _CMP_GE_OQ);
            const __m256d raises =
                _mm256_cmp_pd(absDelta, _mm256_mul_pd(rtolLanes, absY), _CMP_GT_OQ);
            if (_mm256_movemask_pd(_mm256_or_pd(may, raises))) [[unlikely]] {
                const __m256d rel = _mm256_and_pd(_mm256_div_pd(absDelta, scale),
                                                  _mm256_cmp_pd(scale, zero, _CMP_GT_OQ));
                maxRel = _mm256_max_pd(maxRel, rel);
                if (const int lanes = _mm256_movemask_pd(raises)) {
                    raiseRtolLanes(rtol, absDelta, absY, lanes);
                    rtolLanes = _mm256_set1_pd(rtol);
                }
            }
        }
    }
    if (n % 64) out.candidates[n / 64] = candidates;
    finishUlpLanes(lanes, n, out);
    alignas(32) std::uint64_t sz64[4], out64[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(out64), outside);
    out.outside = out64[0] + out64[1] + out64[2] + out64[3];
    alignas(32) double abs64[4], minAbs64[4], rel64[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(sz64), signedZero);
    _mm256_store_pd(abs64, maxAbs);
    _mm256_store_pd(minAbs64, minAbs);
    _mm256_store_pd(rel64, maxRel);
    out.signedZero = sz64[0] + sz64[1] + sz64[2] + sz64[3];
    out.maxAbs = std::max(std::max(abs64[0], abs64[1]), std::max(abs64[2], abs64[3]));
    out.minAbs = std::min(std::min(minAbs64[0], minAbs64[1]), std::min(minAbs64[2], minAbs64[3]));
    out.maxRel = std::max(std::max(rel64[0], rel64[1]), std::max(rel64[2], rel64[3]));
    out.rtolToPass = rtol;
}

// denseAvx2 for a block whose ULP distances are all at most kExactUlp: there a - b is exact in
// float32 (see denseF32), so |Δ| and its extremes, the candidates and the relative-Δ filter
// take 8 lanes per instruction and no conversion to double. Only what must match the double
// arithmetic of the scalar path is done in double: |Δ| / scale where a lane could raise the
// maximum, rtol * |b| where a lane could raise the smallest rtol to pass, and the tolerance's
// atol + rtol * |b|.
__attribute__((target("avx2"))) void denseSingleAvx2(const unsigned char* a, const unsigned char* b,
                                                     std::size_t n, double heapFloor, double rtol,
                                                     const Tolerance* tolerance,
                                                     DenseF32Block& out) {
    const __m256i mag = _mm256_set1_epi32(0x7fffffff);
    const __m256i zeroI = _mm256_setzero_si256();
    const __m256 zero = _mm256_setzero_ps();
    const __m256 infinity = _mm256_set1_ps(__builtin_inff());
    // |Δ| >= heapFloor exactly when the float |Δ| is >= the smallest float not below heapFloor.
    const __m256 floor = _mm256_set1_ps(floatAtLeast(heapFloor));
    const __m256 absMask = _mm256_castsi256_ps(mag);
    const auto [useAbs, atol, rtolLimit, ulpLimit] = toleranceLanes(tolerance);
    UlpLanes lanes = startUlpLanes();
    __m256i signedZero = zeroI;
    __m256 maxAbs = zero, minAbs = infinity;
    // maxRel in double; relBound, the largest float not above it, filters the lanes to divide:
    // a lane with |Δ| / scale > maxRel has |Δ| > relBound * scale, and the rounded product
    // never exceeds |Δ| then (rounding is monotonic and |Δ| is a float). maxRel and rtol are
    // scalars, read only where a lane is let through: the loop keeps its registers for the
    // bounds (as vectors they pushed a bound out to the stack, a load per 8 elements).
    double maxRel = 0;
    __m256 relBound = zero;
    // The smallest rtol to pass in double, and rtolBound, the largest float not above it: a
    // lane with |Δ| < rtolBound * |b| in float passes rtol * |b| in double (|Δ| is a float, so
    // if the rounded product exceeds it the exact product does: rounding to nearest could not
    // pass over |Δ|; and rtol >= rtolBound). The other lanes are tested in double.
    __m256 rtolBound = _mm256_set1_ps(floatAtMost(rtol));
    std::uint64_t candidates = 0, outside = 0;
    for (std::size_t i = 0; i < n; i += 8) {
        const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 4 * i));
        const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 4 * i));
        const auto [ulp, eq, high, magB, differ] = ulpStep(x, y, i, lanes, out);

        // Equal lanes give |Δ| 0, which leaves the maximum of a block with a difference as it is.
        const __m256 absDelta =
            _mm256_and_ps(_mm256_sub_ps(_mm256_castsi256_ps(x), _mm256_castsi256_ps(y)), absMask);
        maxAbs = _mm256_max_ps(maxAbs, absDelta);
        const __m256 isZero = _mm256_cmp_ps(absDelta, zero, _CMP_EQ_OQ); // equal bits, or +0 vs -0
        minAbs = _mm256_min_ps(minAbs, _mm256_or_ps(absDelta, _mm256_and_ps(isZero, infinity)));
        signedZero =
            _mm256_sub_epi32(signedZero, _mm256_andnot_si256(eq, _mm256_castps_si256(isZero)));
        _mm256_store_ps(out.absDeltaF + i, absDelta);
        const __m256 absY = _mm256_castsi256_ps(magB);
        if (tolerance) {
            const int zeroBits = _mm256_movemask_ps(isZero);
            const int ulpOk = _mm256_movemask_ps(
                _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_max_epu32(ulp, ulpLimit), ulpLimit)));
            int absOk = 0xff;
            if (useAbs) {
                absOk = 0;
                for (int h = 0; h < 2; ++h) {
                    const __m128 d =
                        h ? _mm256_extractf128_ps(absDelta, 1) : _mm256_castps256_ps128(absDelta);
                    const __m128 v =
                        h ? _mm256_extractf128_ps(absY, 1) : _mm256_castps256_ps128(absY);
                    const __m256d limit =
                        _mm256_add_pd(atol, _mm256_mul_pd(rtolLimit, _mm256_cvtps_pd(v)));
                    absOk |=
                        _mm256_movemask_pd(_mm256_cmp_pd(_mm256_cvtps_pd(d), limit, _CMP_LE_OQ))
                        << (4 * h);
                }
            }
            outside += static_cast<unsigned>(
                __builtin_popcount(static_cast<unsigned>(differ & ~(zeroBits | (ulpOk & absOk)))));
        }

        const __m256 kept =
            _mm256_andnot_ps(_mm256_castsi256_ps(eq), _mm256_cmp_ps(absDelta, floor, _CMP_GE_OQ));
        candidates |= static_cast<std::uint64_t>(_mm256_movemask_ps(kept)) << (i % 64);
        if (i % 64 == 56) out.candidates[i / 64] = candidates, candidates = 0;

        // The scale max(|a|, |b|) is the larger magnitude, whose bits order like its value.
        const __m256 scale = _mm256_castsi256_ps(high);
        // raiseMaxRelative (schema/element_traits.h) on eight float lanes, divided in double,
        // and raiseRtolToPass on the lanes rtolBound does not clear: one branch for both, and
        // one compare, against the smaller of the two products (a lane is let through when it
        // is not below either). Only rtolBound * |b| can be NaN (rtol +Inf, |b| 0: nothing left
        // to raise); min_ps then gives the other product.
        const __m256 limit =
            _mm256_min_ps(_mm256_mul_ps(rtolBound, absY), _mm256_mul_ps(relBound, scale));
        const __m256 may = _mm256_andnot_ps(isZero, _mm256_cmp_ps(absDelta, limit, _CMP_NLT_UQ));
        if (_mm256_movemask_ps(may)) [[unlikely]] {
            const __m256d zeroD = _mm256_setzero_pd();
            __m256d rel = _mm256_set1_pd(maxRel);
            for (int h = 0; h < 2; ++h) {
                const __m256d d = _mm256_cvtps_pd(h ? _mm256_extractf128_ps(absDelta, 1)
                                                    : _mm256_castps256_ps128(absDelta));
                const __m256d s = _mm256_cvtps_pd(h ? _mm256_extractf128_ps(scale, 1)
                                                    : _mm256_castps256_ps128(scale));
                rel = _mm256_max_pd(
                    rel, _mm256_and_pd(_mm256_div_pd(d, s), _mm256_cmp_pd(s, zeroD, _CMP_GT_OQ)));
                const __m256d absB = _mm256_cvtps_pd(h ? _mm256_extractf128_ps(absY, 1)
                                                       : _mm256_castps256_ps128(absY));
                const __m256d raises =
                    _mm256_cmp_pd(d, _mm256_mul_pd(_mm256_set1_pd(rtol), absB), _CMP_GT_OQ);
                if (const int raised = _mm256_movemask_pd(raises))
                    raiseRtolLanes(rtol, d, absB, raised);
            }
            alignas(32) double rel4[4];
            _mm256_store_pd(rel4, rel);
            maxRel = std::max(std::max(rel4[0], rel4[1]), std::max(rel4[2], rel4[3]));
            relBound = _mm256_set1_ps(floatAtMost(maxRel));
            rtolBound = _mm256_set1_ps(floatAtMost(rtol));
        }
    }
    if (n % 64) out.candidates[n / 64] = candidates;
    out.outside = outside;
    finishUlpLanes(lanes, n, out);
    alignas(32) std::uint32_t sz32[8];
    alignas(32) float abs32[8], minAbs32[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(sz32), signedZero);
    _mm256_store_ps(abs32, maxAbs);
    _mm256_store_ps(minAbs32, minAbs);
    float maxAbsF = 0, minAbsF = __builtin_inff();
    for (int k = 0; k < 8; ++k) {
        out.signedZero += sz32[k];
        maxAbsF = std::max(maxAbsF, abs32[k]);
        minAbsF = std::min(minAbsF, minAbs32[k]);
    }
    out.maxAbs = out.nDiff ? static_cast<double>(maxAbsF) : -1.0;
    out.minAbs = static_cast<double>(minAbsF);
    out.maxRel = maxRel;
    out.rtolToPass = rtol;
}

// h (multiset_hash.h) of the low 32 bits of each 64-bit lane, zeroed where `keep` is 0, added
// to `sum`, and h^2 mod 2^64 (lo*lo + (lo*hi << 33) of h's 32-bit halves) added to `sq`.
__attribute__((target("avx2"))) inline void addMultisetTerms(__m256i v, __m256i keep, __m256i& sum,
                                                             __m256i& sq) {
    const __m256i p = _mm256_mul_epu32(_mm256_xor_si256(v, _mm256_set1_epi64x(kMultisetK1)),
                                       _mm256_set1_epi64x(kMultisetM1));
    const __m256i q = _mm256_mul_epu32(_mm256_xor_si256(v, _mm256_set1_epi64x(kMultisetK2)),
                                       _mm256_set1_epi64x(kMultisetM2));
    const __m256i h = _mm256_and_si256(_mm256_xor_si256(p, _mm256_shuffle_epi32(q, 0xB1)), keep);
    sum = _mm256_add_epi64(sum, h);
    const __m256i loHi = _mm256_mul_epu32(h, _mm256_srli_epi64(h, 32));
    sq =
        _mm256_add_epi64(sq, _mm256_add_epi64(_mm256_mul_epu32(h, h), _mm256_slli_epi64(loHi, 33)));
}

// The multiset hashes' sums over the differing elements, four 64-bit lanes at a time: the even
// and the odd float32 of each 8 go through vpmuludq separately; equal elements add 0.
__attribute__((target("avx2"))) void multisetAvx2(const unsigned char* a, const unsigned char* b,
                                                  std::size_t n, DenseF32Block& out) {
    __m256i sumA = _mm256_setzero_si256(), sqA = sumA, sumB = sumA, sqB = sumA;
    for (std::size_t i = 0; i < n; i += 8) {
        const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 4 * i));
        const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 4 * i));
        const __m256i equal = _mm256_cmpeq_epi32(x, y);
        // Per 64-bit lane: all ones where its even (low) / odd (high) element differs.
        const __m256i keepEven =
            _mm256_andnot_si256(_mm256_shuffle_epi32(equal, 0xA0), _mm256_set1_epi64x(-1));
        const __m256i keepOdd =
            _mm256_andnot_si256(_mm256_shuffle_epi32(equal, 0xF5), _mm256_set1_epi64x(-1));
        addMultisetTerms(x, keepEven, sumA, sqA);
        addMultisetTerms(_mm256_srli_epi64(x, 32), keepOdd, sumA, sqA);
        addMultisetTerms(y, keepEven, sumB, sqB);
        addMultisetTerms(_mm256_srli_epi64(y, 32), keepOdd, sumB, sqB);
    }
    alignas(32) std::uint64_t lanes[4][4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes[0]), sumA);
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes[1]), sqA);
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes[2]), sumB);
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes[3]), sqB);
    std::uint64_t* const sums[4] = {&out.multisetA[0], &out.multisetA[1], &out.multisetB[0],
                                    &out.multisetB[1]};
    for (int k = 0; k < 4; ++k)
        *sums[k] = lanes[k][0] + lanes[k][1] + lanes[k][2] + lanes[k][3];
}
#endif

void resetFigures(DenseF32Block& out) {
    out.nDiff = out.signedZero = out.last = out.outside = 0, out.maxUlp = 0,
    out.minUlp = 0xffffffffu;
    out.maxAbs = -1, out.minAbs = __builtin_inf(), out.maxRel = 0;
}

} // namespace

void denseF32(const unsigned char* a, const unsigned char* b, std::size_t n, double heapFloor,
              double rtolToPass, const Tolerance* tolerance, DenseF32Block& out) {
    // The arrays are overwritten up to n; only the figures are reset.
    resetFigures(out);
    countDenseBlock();
#if DUMPSCOPE_HAVE_AVX2
    // A block whose ULP distances all stay within kExactUlp has each |a - b| exact in float32.
    // Whether one does is known only after its kernel ran, so the float32 kernel is tried when
    // the block before qualified, and the block is done again in double when it did not.
    out.single = false;
    if (out.trySingle) {
        denseSingleAvx2(a, b, n, heapFloor, rtolToPass, tolerance, out);
        out.single = out.maxUlp <= DenseF32Block::kExactUlp;
        if (out.single)
            countSingleBlock();
        else
            resetFigures(out);
    }
    if (!out.single) denseAvx2(a, b, n, heapFloor, rtolToPass, tolerance, out);
    out.trySingle = out.maxUlp <= DenseF32Block::kExactUlp;
    multisetAvx2(a, b, n, out);
#else
    (void)a, (void)b, (void)n, (void)heapFloor, (void)rtolToPass, (void)tolerance;
#endif
}

} // namespace dumpscope::detail

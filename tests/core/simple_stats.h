#pragma once

// The compare routine's statistics computed the simple way — one element at a time, every rule
// taken from dtype.h / stats.h's contract — and a field-by-field comparison with the fast
// paths' result. Shared by test_fast_paths.cpp and test_dense_f32.cpp.
#include "dumpscope/dtype.h"
#include "dumpscope/stats.h"
#include "schema/dtype_special.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

namespace dumpscope::test {

// The smallest rtol with which |Δ| <= 0 + rtol * |b| holds in double, by bisection over the
// non-negative doubles' bits (they order like their values): BufferStats::rtolToPass's
// contract, written without its formula. +Inf when none does (|b| == 0); 0 for a |Δ| of 0
// (+0 vs -0), which passes any tolerance.
inline double smallestRtol(double delta, double absB) {
    if (delta == 0) return 0;
    const auto passes = [&](std::uint64_t bits) {
        return delta <= 0.0 + std::bit_cast<double>(bits) * absB;
    };
    std::uint64_t lo = 0, hi = std::bit_cast<std::uint64_t>(HUGE_VAL);
    if (!passes(hi)) return INFINITY;
    while (lo < hi) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        if (passes(mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    return std::bit_cast<double>(lo);
}

// The simple path: one element at a time, every rule taken from dtype.h / stats.h's contract.
inline BufferStats simpleStats(DType t, const std::vector<unsigned char>& a,
                               const std::vector<unsigned char>& b, const Tolerance& tol) {
    const std::size_t es = dtypeSize(t);
    BufferStats s;
    s.nA = a.size() / es;
    s.nB = b.size() / es;
    std::vector<ElementDiff> all;
    auto scan = [&](const std::vector<unsigned char>& v, std::uint64_t& nan, std::uint64_t& inf,
                    double& maxAbs) {
        for (std::size_t i = 0; i < v.size() / es; ++i) {
            const auto bits = loadBits(t, v.data() + i * es);
            nan += bitsIsNan(t, bits);
            inf += bitsIsInf(t, bits);
            if (isFloat(t) && !bitsIsNan(t, bits) && !bitsIsInf(t, bits))
                maxAbs = std::max(maxAbs, std::fabs(bitsToDouble(t, bits)));
        }
    };
    scan(a, s.nanA, s.infA, s.maxAbsA);
    scan(b, s.nanB, s.infB, s.maxAbsB);
    for (std::uint64_t i = 0; i < std::min(s.nA, s.nB); ++i) {
        const auto x = loadBits(t, a.data() + i * es), y = loadBits(t, b.data() + i * es);
        if (x == y) continue;
        ++s.nDiff;
        if (!s.firstDiff) s.firstDiff = i;
        s.lastDiff = i;
        const bool nanX = bitsIsNan(t, x), nanY = bitsIsNan(t, y);
        if (nanX && nanY) ++s.nanPayloadDiffs;
        if (nanX != nanY || bitsIsInf(t, x) != bitsIsInf(t, y)) ++s.nonFiniteMismatches;
        const auto ulp = ulpDistance(t, x, y);
        if (ulp) {
            s.maxUlp = std::max(s.maxUlp, *ulp);
            ++s.ulpHistogram.counts[ulpBin(*ulp)];
        } else {
            ++s.ulpHistogram.undefined;
        }
        const double vx = bitsToDouble(t, x), vy = bitsToDouble(t, y);
        const double delta = !ulp         ? std::nan("")
                             : isFloat(t) ? std::fabs(vx - vy)
                                          : static_cast<double>(*ulp);
        if (std::isnan(delta))
            ++s.deltaHistogram.nan;
        else if (delta == 0)
            ++s.deltaHistogram.zero, ++s.signedZeroDiffs;
        else if (std::isinf(delta))
            ++s.deltaHistogram.infinite;
        else
            ++s.deltaHistogram.counts[deltaDecade(delta) - DeltaHistogram::kMinDecade];
        if (tol.any() && !(nanX && nanY)) {
            bool within = !std::isnan(delta);
            if (within && delta != 0) {
                if (tol.atol || tol.rtol) // an infinite |Δ| passes neither
                    within =
                        !std::isinf(delta) &&
                        delta <= tol.atol.value_or(0.0) + tol.rtol.value_or(0.0) * std::fabs(vy);
                if (tol.ulp) within = within && ulp && *ulp <= *tol.ulp;
            }
            s.outsideTolerance += !within;
        }
        const ElementDiff d{i, x, y, delta};
        if (s.firstDiffs.size() < BufferStats::kKeep) s.firstDiffs.push_back(d);
        if (std::isnan(delta)) continue;
        if (!s.maxAbsDeltaIndex || delta > s.maxAbsDelta)
            s.maxAbsDelta = delta, s.maxAbsDeltaIndex = i;
        const double scale = std::max(std::fabs(vx), std::fabs(vy));
        s.maxRelDelta = std::max(s.maxRelDelta, std::isinf(delta) ? INFINITY
                                                : scale > 0       ? delta / scale
                                                                  : 0.0);
        s.rtolToPass = std::max(s.rtolToPass,
                                std::isinf(delta) ? INFINITY : smallestRtol(delta, std::fabs(vy)));
        all.push_back(d);
    }
    std::stable_sort(all.begin(), all.end(),
                     [](const auto& p, const auto& q) { return p.absDelta > q.absDelta; });
    all.resize(std::min(all.size(), BufferStats::kKeep));
    s.largestDiffs = all;
    return s;
}

// Doubles compared as bits, so NaN == NaN and -0 != +0: both paths must compute the same thing.
inline std::uint64_t bitsOf(double v) {
    return std::bit_cast<std::uint64_t>(v);
}

inline void expectSameDiffs(const std::vector<ElementDiff>& fast,
                            const std::vector<ElementDiff>& simple) {
    ASSERT_EQ(fast.size(), simple.size());
    for (std::size_t i = 0; i < fast.size(); ++i) {
        EXPECT_EQ(fast[i].index, simple[i].index) << "entry " << i;
        EXPECT_EQ(fast[i].bitsA, simple[i].bitsA) << "entry " << i;
        EXPECT_EQ(fast[i].bitsB, simple[i].bitsB) << "entry " << i;
        EXPECT_EQ(bitsOf(fast[i].absDelta), bitsOf(simple[i].absDelta)) << "entry " << i;
    }
}

inline void expectSameStats(const BufferStats& fast, const BufferStats& simple) {
    EXPECT_EQ(fast.nA, simple.nA);
    EXPECT_EQ(fast.nB, simple.nB);
    EXPECT_EQ(fast.nDiff, simple.nDiff);
    EXPECT_EQ(fast.firstDiff, simple.firstDiff);
    EXPECT_EQ(fast.lastDiff, simple.lastDiff);
    EXPECT_EQ(bitsOf(fast.maxAbsDelta), bitsOf(simple.maxAbsDelta));
    EXPECT_EQ(fast.maxAbsDeltaIndex, simple.maxAbsDeltaIndex);
    EXPECT_EQ(bitsOf(fast.maxRelDelta), bitsOf(simple.maxRelDelta));
    EXPECT_EQ(bitsOf(fast.rtolToPass), bitsOf(simple.rtolToPass));
    EXPECT_EQ(fast.maxUlp, simple.maxUlp);
    EXPECT_EQ(fast.nanA, simple.nanA);
    EXPECT_EQ(fast.nanB, simple.nanB);
    EXPECT_EQ(fast.infA, simple.infA);
    EXPECT_EQ(fast.infB, simple.infB);
    EXPECT_EQ(fast.signedZeroDiffs, simple.signedZeroDiffs);
    EXPECT_EQ(bitsOf(fast.maxAbsA), bitsOf(simple.maxAbsA));
    EXPECT_EQ(bitsOf(fast.maxAbsB), bitsOf(simple.maxAbsB));
    EXPECT_EQ(fast.nanPayloadDiffs, simple.nanPayloadDiffs);
    EXPECT_EQ(fast.nonFiniteMismatches, simple.nonFiniteMismatches);
    EXPECT_EQ(fast.outsideTolerance, simple.outsideTolerance);
    EXPECT_EQ(fast.deltaHistogram.counts, simple.deltaHistogram.counts);
    EXPECT_EQ(fast.deltaHistogram.zero, simple.deltaHistogram.zero);
    EXPECT_EQ(fast.deltaHistogram.nan, simple.deltaHistogram.nan);
    EXPECT_EQ(fast.deltaHistogram.infinite, simple.deltaHistogram.infinite);
    EXPECT_EQ(fast.ulpHistogram.counts, simple.ulpHistogram.counts);
    EXPECT_EQ(fast.ulpHistogram.undefined, simple.ulpHistogram.undefined);
    expectSameDiffs(fast.firstDiffs, simple.firstDiffs);
    expectSameDiffs(fast.largestDiffs, simple.largestDiffs);
}

// What simpleStats does not compute — each side's XXH3 and the multiset hashes — must still
// agree between two fast paths over the same bytes.
inline void expectSameHashes(const BufferStats& x, const BufferStats& y) {
    EXPECT_EQ(x.hashA, y.hashA);
    EXPECT_EQ(x.hashB, y.hashB);
    EXPECT_EQ(x.multisetA, y.multisetA);
    EXPECT_EQ(x.multisetB, y.multisetB);
}

} // namespace dumpscope::test

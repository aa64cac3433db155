// The vector path for float32 blocks in which most elements differ (core/src/dense_f32.h)
// against the simple per-element statistics and against the word-at-a-time path, on sides
// where every block, some blocks or no block is dense, with +0 vs -0, sign flips, denormals,
// ties in |Δ|, a NaN or Inf inside an otherwise dense block, and lengths that are not a
// multiple of 8 or of a block.
#include "compare/dense_f32.h"
#include "dumpscope/stats.h"

#include "simple_stats.h"
#include "test_hooks.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace dumpscope {
namespace {

using test::expectSameStats;
using test::simpleStats;

constexpr std::size_t kBlock = 1024; // float32 elements per 4 KiB compare block

std::vector<unsigned char> toBytes(const std::vector<std::uint32_t>& v) {
    std::vector<unsigned char> out(v.size() * 4);
    std::memcpy(out.data(), v.data(), out.size());
    return out;
}

// Finite float32 bits: any sign, any exponent below Inf's (zeros and denormals included).
std::uint32_t finiteBits(std::mt19937_64& rng) {
    const auto r = static_cast<std::uint32_t>(rng());
    const std::uint32_t exp = static_cast<std::uint32_t>(rng() % 255);
    return (r & 0x807fffffu) | exp << 23;
}

// A differing finite partner for x: a few ULP, a sign flip (+0 vs -0 for a zero), another
// finite value, or x's own binade one ULP up (many equal |Δ|: ties in the kept entries).
std::uint32_t partner(std::uint32_t x, std::mt19937_64& rng) {
    for (;;) {
        std::uint32_t y = x;
        switch (rng() % 4) {
        case 0:
            y = x + 1 + static_cast<std::uint32_t>(rng() % 4);
            break;
        case 1:
            y = x ^ 0x80000000u;
            break;
        case 2:
            y = finiteBits(rng);
            break;
        default:
            y = x ^ 1u;
            break;
        }
        if (y != x && (y & 0x7f800000u) != 0x7f800000u) return y;
    }
}

enum class Pattern {
    allDiffer,
    alternatingBlocks,
    quarterDiffer,
    specialInsideDense,
    tiesEverywhere,
    onTheLimit,
    fewUlpAcrossBinades,
    nearPowersOfTen,
    exactnessEdge
};

// Float32 values at, just below and just above powers of ten from 10^-3 to 10^4, with either
// sign, and 0: against 0 their |Δ| is the value itself, on either side of a decade's edge.
std::vector<std::uint32_t> nearPowersOfTen() {
    std::vector<std::uint32_t> v{0};
    for (float p : {1e-3f, 1e-2f, 1e-1f, 1e0f, 1e1f, 1e2f, 1e3f, 1e4f}) {
        std::uint32_t bits;
        std::memcpy(&bits, &p, 4);
        for (std::uint32_t b : {bits - 1, bits, bits + 1})
            v.insert(v.end(), {b, b | 0x80000000u});
    }
    return v;
}

// The float32 kernel's edge (DenseF32Block::kExactUlp = 2^23 ULP, where a - b stops being
// exact in float32), in blocks of four kinds (block % 4):
//   0, 3: distances of 1-3 ULP, 2^23 - 1 and 2^23, and denormals of opposite signs within
//         2^23 ULP (a span of many decades: the walk bins them);
//   1:    2v against v (2^23 ULP), v at, below and above powers of ten: |Δ| is v, on the
//         decade thresholds, few enough of them for threshold counts;
//   2:    as 0, with distances just above the edge too, so that the block is done again in
//         double; block 2's largest |Δ| (the buffer's) is not exact in float32: 2^31 + 256
//         against 3 * 2^31 + 512 needs 2^-22 of its scale.
// A block is tried in float32 when the one before qualified, so 0 and 3 take turns.
std::vector<std::uint32_t> exactnessEdge(std::vector<std::uint32_t>& a, std::mt19937_64& rng) {
    std::vector<std::uint32_t> b(a.size());
    constexpr std::uint32_t kEdge = std::uint32_t{1} << 23;
    const std::vector<std::uint32_t> edges = nearPowersOfTen();
    for (std::size_t i = 0; i < a.size(); ++i) {
        const std::size_t kind = i / kBlock % 4;
        const std::uint32_t sign = static_cast<std::uint32_t>(rng() % 2) << 31;
        if (kind == 1) {
            b[i] = edges[1 + rng() % (edges.size() - 1)];
            a[i] = b[i] + kEdge;
        } else if (rng() % 8 == 0) { // denormals of opposite signs: s + t + 1 ULP apart
            a[i] = sign | static_cast<std::uint32_t>(rng() % (kEdge / 2));
            b[i] = (sign ^ 0x80000000u) | static_cast<std::uint32_t>(rng() % (kEdge / 2 - 1));
        } else {
            a[i] = sign | static_cast<std::uint32_t>(1 + rng() % 150) << 23 |
                   static_cast<std::uint32_t>(rng() % kEdge);
            const std::uint32_t within[] = {1, 2, 3, kEdge - 1, kEdge};
            const std::uint32_t beyond[] = {kEdge + 1, kEdge + kEdge / 2, 2 * kEdge - 1};
            b[i] = a[i] + (kind == 2 && rng() % 64 == 0 ? beyond[rng() % 3] : within[rng() % 5]);
        }
    }
    if (a.size() > 3 * kBlock) a[2 * kBlock + 5] = 0x4f000001u, b[2 * kBlock + 5] = 0x4fc00001u;
    return b;
}

struct Case {
    std::vector<unsigned char> a, b;
};

Case makeCase(Pattern p, std::size_t n, std::mt19937_64& rng) {
    std::vector<std::uint32_t> a(n), b(n);
    if (p == Pattern::exactnessEdge) {
        b = exactnessEdge(a, rng);
        return {toBytes(a), toBytes(b)};
    }
    if (p == Pattern::fewUlpAcrossBinades || p == Pattern::nearPowersOfTen) {
        // Spans of a few decades and ULP bins (the histograms' threshold counts), with some
        // equal elements and +0 vs -0 among the differences. Every third block of the few-ULP
        // pattern has partners from anywhere instead: a span so wide that it takes the walk, so
        // that one buffer's histograms add up both ways of binning.
        const std::vector<std::uint32_t> edges = nearPowersOfTen();
        for (std::size_t i = 0; i < n; ++i) {
            if (p == Pattern::fewUlpAcrossBinades) {
                a[i] = static_cast<std::uint32_t>(rng() % 2) << 31 |
                       (107 + static_cast<std::uint32_t>(rng() % 20)) << 23 |
                       static_cast<std::uint32_t>(rng() % 0x7ffff0);
                b[i] = i / kBlock % 3 == 2
                           ? partner(a[i], rng)
                           : a[i] + static_cast<std::uint32_t>(rng() % 41); // 0 to 40 ULP
            } else {
                a[i] = rng() % 2 ? 0u : 0x80000000u;
                b[i] = edges[rng() % edges.size()];
            }
        }
        return {toBytes(a), toBytes(b)};
    }
    for (std::size_t i = 0; i < n; ++i) {
        a[i] = p == Pattern::tiesEverywhere
                   ? 0x3f800000u + static_cast<std::uint32_t>(rng() % 1000) * 2
                   : finiteBits(rng);
        const std::size_t block = i / kBlock;
        bool differ = true;
        if (p == Pattern::alternatingBlocks)
            differ = block % 3 == 1 ? rng() % 100 == 0 : rng() % 10 != 0;
        if (p == Pattern::quarterDiffer) differ = rng() % 100 < 30;
        b[i] = !differ ? a[i] : p == Pattern::tiesEverywhere ? a[i] + 1 : partner(a[i], rng);
    }
    // B = 1 and A = 1 - 2^-20 or 1 - 2^-19: |Δ| is exactly rtol * |B| (within) or twice it
    // (outside) for rtol = 2^-20, and more than rtol * |A| either way: the limit uses B's value.
    if (p == Pattern::onTheLimit)
        for (std::size_t i = 0; i < n; ++i)
            a[i] = i % 3 ? 0x3f7ffff0u : 0x3f7fffe0u, b[i] = 0x3f800000u;
    if (p == Pattern::allDiffer)
        for (std::size_t i = 0; i < n; i += 97)
            a[i] = 0, b[i] = 0x80000000u; // +0 vs -0: |Δ| 0, 1 ULP
    if (p == Pattern::specialInsideDense && n > 4 * kBlock) {
        a[2 * kBlock + 17] = 0x7fc00000u;  // NaN on A in block 2
        b[4 * kBlock + 900] = 0xff800000u; // -Inf on B in block 4
    }
    return {toBytes(a), toBytes(b)};
}

BufferStats inPieces(const Case& c, std::mt19937_64& rng, const Tolerance& tol) {
    const std::size_t n = c.a.size() / 4;
    StatsAccumulator acc(DType::f32, tol);
    for (std::size_t off = 0, len = 0; off < n; off += len) {
        len = std::min<std::size_t>(n - off, rng() % 3000); // pieces not a multiple of 8, 0 too
        acc.addPair(c.a.data() + off * 4, c.b.data() + off * 4, len, off);
    }
    return acc.finish();
}

class DenseF32 : public ::testing::Test {
  protected:
    void TearDown() override { detail::setVectorPathsAllowed(true); }
};

// No tolerance; absolute and relative; ULP; all three; rtol exactly 2^-20 (onTheLimit's
// boundary); ULP 0, which only +0 vs -0 passes (the vector path checks each as withinTolerance
// does, and counts what it does not allow).
std::vector<Tolerance> tolerances() {
    Tolerance absRel, ulp, all, limit, none;
    absRel.atol = 1e-30, absRel.rtol = 1e-6;
    ulp.ulp = 2;
    all.atol = 1e-30, all.rtol = 1e-6, all.ulp = 3;
    limit.rtol = 0x1p-20;
    none.ulp = 0;
    return {Tolerance{}, absRel, ulp, all, limit, none};
}

TEST_F(DenseF32, MatchesTheSimplePathAndTheWordSearchOnEveryPattern) {
    std::mt19937_64 rng(20261130);
    const std::uint64_t blocksBefore = detail::denseF32Blocks();
    const std::uint64_t thresholdBefore = detail::denseThresholdBlocks();
    const std::uint64_t singleBefore = detail::denseSingleBlocks();
    for (Pattern p :
         {Pattern::allDiffer, Pattern::alternatingBlocks, Pattern::quarterDiffer,
          Pattern::specialInsideDense, Pattern::tiesEverywhere, Pattern::onTheLimit,
          Pattern::fewUlpAcrossBinades, Pattern::nearPowersOfTen, Pattern::exactnessEdge})
        for (std::size_t n :
             {6 * kBlock, 6 * kBlock + 5, 5 * kBlock - 3, std::size_t{20000}, std::size_t{40}})
            for (const Tolerance& tol : tolerances()) {
                SCOPED_TRACE("pattern " + std::to_string(static_cast<int>(p)) +
                             " n=" + std::to_string(n) + " tolerance " +
                             std::to_string(tol.atol.has_value()) +
                             std::to_string(tol.ulp.has_value()));
                const Case c = makeCase(p, n, rng);
                detail::setVectorPathsAllowed(true);
                const std::uint64_t blocks0 = detail::denseF32Blocks(),
                                    thresholds0 = detail::denseThresholdBlocks(),
                                    single0 = detail::denseSingleBlocks();
                const auto vector =
                    compareMemory(DType::f32, c.a.data(), c.a.size(), c.b.data(), c.b.size(), tol);
                if (p == Pattern::exactnessEdge && n >= 6 * kBlock && detail::cpuHasAvx2()) {
                    const std::uint64_t single = detail::denseSingleBlocks() - single0;
                    EXPECT_GT(single, 0u)
                        << "one buffer's |Δ| computed both in float32 and in double";
                    EXPECT_GT(detail::denseF32Blocks() - blocks0 - single, 0u)
                        << "one buffer's |Δ| computed both in float32 and in double";
                }
                if (p == Pattern::fewUlpAcrossBinades && n >= 6 * kBlock && detail::cpuHasAvx2()) {
                    const std::uint64_t byThresholds = detail::denseThresholdBlocks() - thresholds0;
                    EXPECT_GT(byThresholds, 0u) << "one buffer binned both ways";
                    EXPECT_GT(detail::denseF32Blocks() - blocks0 - byThresholds, 0u)
                        << "one buffer binned both ways";
                }
                const auto pieces = inPieces(c, rng, tol);
                detail::setVectorPathsAllowed(false);
                const auto words =
                    compareMemory(DType::f32, c.a.data(), c.a.size(), c.b.data(), c.b.size(), tol);
                const auto simple = simpleStats(DType::f32, c.a, c.b, tol);
                if (tol.any() && simple.nDiff > 100 && p != Pattern::tiesEverywhere &&
                    p != Pattern::onTheLimit &&
                    tol.ulp != std::uint64_t{0}) { // ties are all 1 ULP; ULP 0 allows nothing there
                    // The tolerance splits the differences, so a miscount cannot hide at 0 or
                    // n_diff.
                    EXPECT_GT(simple.outsideTolerance, 0u);
                    EXPECT_LT(simple.outsideTolerance, simple.nDiff);
                }
                expectSameStats(vector, simple);
                expectSameStats(pieces, simple);
                expectSameStats(words, simple);
                test::expectSameHashes(vector, words);
                test::expectSameHashes(pieces, words);
            }
    if (detail::cpuHasAvx2()) {
        const std::uint64_t blocks = detail::denseF32Blocks() - blocksBefore;
        const std::uint64_t byThresholds = detail::denseThresholdBlocks() - thresholdBefore;
        EXPECT_GT(blocks, 100u) << "the vector path never ran";
        // Both ways of binning ran: threshold counts on the narrow spans, the walk on wide ones.
        EXPECT_GT(byThresholds, 50u) << "no block was binned by threshold counts";
        EXPECT_GT(blocks - byThresholds, 50u) << "no block was binned by the scalar walk";
        // Both kernels ran: float32 where every distance is within 2^23 ULP, double elsewhere.
        const std::uint64_t single = detail::denseSingleBlocks() - singleBefore;
        EXPECT_GT(single, 50u) << "the float32 kernel never ran";
        EXPECT_GT(blocks - single, 50u) << "the double kernel never ran";
    } else
        std::cout
            << "[   NOTE   ] this CPU has no AVX2: only the word-at-a-time path was checked\n";
}

// The vector path is taken with a tolerance, and not where it would not pay or could not be
// exact: a block with NaN or Inf on a side, a shaped buffer (per-row counts), sparse blocks.
TEST_F(DenseF32, IsSkippedForSpecialValuesShapesAndSparseBlocks) {
    if (!detail::cpuHasAvx2())
        GTEST_SKIP() << "this CPU has no AVX2: there is no vector path to skip";
    std::mt19937_64 rng(7);
    const auto count = [](const Case& c, const Tolerance& tol) {
        const std::uint64_t before = detail::denseF32Blocks();
        const auto s =
            compareMemory(DType::f32, c.a.data(), c.a.size(), c.b.data(), c.b.size(), tol);
        EXPECT_EQ(s.nDiff, simpleStats(DType::f32, c.a, c.b, tol).nDiff);
        return detail::denseF32Blocks() - before;
    };
    const Case dense = makeCase(Pattern::allDiffer, 8 * kBlock, rng);
    EXPECT_EQ(count(dense, {}), 7u); // every block after the first (which keeps the first entries)
    Tolerance tol;
    tol.ulp = 2;
    EXPECT_EQ(count(dense, tol), 7u);
    const std::uint64_t before = detail::denseF32Blocks();
    StatsAccumulator shaped(DType::f32);
    shaped.setShape(8, kBlock);
    shaped.addPair(dense.a.data(), dense.b.data(), 8 * kBlock, 0);
    EXPECT_EQ(shaped.finish().nDiff, 8 * kBlock);
    EXPECT_EQ(detail::denseF32Blocks() - before, 0u);
    const Case special = makeCase(Pattern::specialInsideDense, 8 * kBlock, rng);
    EXPECT_EQ(count(special, {}),
              5u); // blocks 1, 3, 5, 6, 7: not 0 (first entries), 2 (NaN), 4 (Inf)
    std::vector<std::uint32_t> a(8 * kBlock), b;
    for (auto& x : a)
        x = finiteBits(rng);
    b = a;
    for (std::size_t i = 0; i < b.size(); i += 7)
        b[i] = partner(a[i], rng); // 1 in 7 < 1 in 4
    EXPECT_EQ(count({toBytes(a), toBytes(b)}, {}), 0u);
}

} // namespace
} // namespace dumpscope

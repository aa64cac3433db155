#include "dumpscope/stats.h"
#include "schema/dtype_special.h"

#include "test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

using namespace dumpscope;
using dumpscope::test::floatFromBits;

namespace {

BufferStats compareF32(const std::vector<float>& a, const std::vector<float>& b) {
    return compareMemory(DType::f32, a.data(), a.size() * 4, b.data(), b.size() * 4);
}

std::vector<float> bitsToFloats(std::initializer_list<std::uint32_t> bits) {
    std::vector<float> v;
    for (auto b : bits)
        v.push_back(floatFromBits(b));
    return v;
}

} // namespace

TEST(Stats, EqualBuffersHaveNoDifferencesAndEqualHashes) {
    std::vector<float> a{1.f, 2.f, 3.f};
    auto s = compareF32(a, a);
    EXPECT_EQ(s.nA, 3u);
    EXPECT_EQ(s.nB, 3u);
    EXPECT_EQ(s.nDiff, 0u);
    EXPECT_FALSE(s.firstDiff);
    EXPECT_EQ(s.hashA, s.hashB);
    EXPECT_NE(s.hashA, 0u);
    EXPECT_TRUE(s.firstDiffs.empty());
}

TEST(Stats, EmptyBuffersHashToXxh3OfNothing) {
    auto s = compareMemory(DType::f32, nullptr, 0, nullptr, 0);
    EXPECT_EQ(s.nA, 0u);
    EXPECT_EQ(s.hashA, 0x2D06800538D394C2ull); // XXH3_64bits of zero bytes, from the xxHash spec
}

TEST(Stats, IdenticalNanBitsAreEqualButOtherNanBitsDiffer) {
    auto a = bitsToFloats({0x7fc00000, 0x7fc00001, 0x3f800000});
    auto b = bitsToFloats({0x7fc00000, 0x7fc00002, 0x3f800000});
    auto s = compareF32(a, b);
    EXPECT_EQ(s.nDiff, 1u);
    EXPECT_EQ(*s.firstDiff, 1u);
    EXPECT_EQ(s.nanA, 2u);
    EXPECT_EQ(s.nanB, 2u);
    EXPECT_EQ(s.deltaHistogram.nan, 1u);
    EXPECT_EQ(s.ulpHistogram.undefined, 1u);
    EXPECT_EQ(s.maxUlp, 0u);
    EXPECT_FALSE(s.maxAbsDeltaIndex); // no finite |Δ| to speak of
    ASSERT_EQ(s.firstDiffs.size(), 1u);
    EXPECT_EQ(s.firstDiffs[0].bitsA, 0x7fc00001u);
    EXPECT_EQ(s.firstDiffs[0].bitsB, 0x7fc00002u);
    EXPECT_TRUE(s.largestDiffs.empty());
}

TEST(Stats, SignedZeroDiffersBitwiseWithZeroDelta) {
    auto a = bitsToFloats({0x00000000, 0x3f800000});
    auto b = bitsToFloats({0x80000000, 0x3f800000});
    auto s = compareF32(a, b);
    EXPECT_EQ(s.nDiff, 1u);
    EXPECT_EQ(s.signedZeroDiffs, 1u);
    EXPECT_EQ(s.maxAbsDelta, 0.0);
    EXPECT_EQ(*s.maxAbsDeltaIndex, 0u);
    EXPECT_EQ(s.maxRelDelta, 0.0);
    EXPECT_EQ(s.maxUlp, 1u);
    EXPECT_EQ(s.deltaHistogram.zero, 1u);
    EXPECT_EQ(s.ulpHistogram.counts[0], 1u);
}

TEST(Stats, InfinityAgainstFiniteIsAnInfiniteDelta) {
    auto a = bitsToFloats({0x7f800000, 0x3f800000, 0xff800000});
    auto b = bitsToFloats({0x3f800000, 0x3f800000, 0xff800000});
    auto s = compareF32(a, b);
    EXPECT_EQ(s.nDiff, 1u);
    EXPECT_EQ(s.infA, 2u);
    EXPECT_EQ(s.infB, 1u);
    EXPECT_TRUE(std::isinf(s.maxAbsDelta));
    EXPECT_TRUE(std::isinf(s.maxRelDelta));
    EXPECT_EQ(s.deltaHistogram.infinite, 1u);
    EXPECT_EQ(s.maxUlp, 0x7f800000u - 0x3f800000u);
}

TEST(Stats, NanOnOneSideOnly) {
    auto a = bitsToFloats({0x7fc00000, 0x40000000});
    auto b = bitsToFloats({0x3f800000, 0x40000000});
    auto s = compareF32(a, b);
    EXPECT_EQ(s.nDiff, 1u);
    EXPECT_EQ(s.nanA, 1u);
    EXPECT_EQ(s.nanB, 0u);
    EXPECT_EQ(s.deltaHistogram.nan, 1u);
}

TEST(Stats, DenormalsAreComparedByBits) {
    auto a = bitsToFloats({0x00000001, 0x00000010});
    auto b = bitsToFloats({0x00000002, 0x80000010});
    auto s = compareF32(a, b);
    EXPECT_EQ(s.nDiff, 2u);
    EXPECT_EQ(s.maxUlp, 0x10u + 0x10u + 1u);
    const double tiny = std::ldexp(1.0, -149);
    EXPECT_DOUBLE_EQ(s.maxAbsDelta, 32 * tiny);
    EXPECT_EQ(*s.maxAbsDeltaIndex, 1u);
    EXPECT_DOUBLE_EQ(s.maxRelDelta, 2.0);    // |x - (-x)| / |x|
    EXPECT_EQ(s.deltaHistogram.at(-45), 1u); // 1.4e-45
    EXPECT_EQ(s.deltaHistogram.at(-44), 1u); // 4.5e-44
}

TEST(Stats, Int32ExtremesUseExactIntegerDistance) {
    std::vector<std::int32_t> a{std::numeric_limits<std::int32_t>::min(), 5, 7};
    std::vector<std::int32_t> b{std::numeric_limits<std::int32_t>::max(), 5, 9};
    auto s = compareMemory(DType::i32, a.data(), 12, b.data(), 12);
    EXPECT_EQ(s.nDiff, 2u);
    EXPECT_EQ(s.maxUlp, 0xffffffffull);
    EXPECT_EQ(s.maxAbsDelta, 4294967295.0);
    EXPECT_EQ(*s.maxAbsDeltaIndex, 0u);
    EXPECT_EQ(s.nanA + s.nanB + s.infA + s.infB, 0u);
    EXPECT_EQ(s.ulpHistogram.counts[31], 1u); // 2^32-1
    EXPECT_EQ(s.ulpHistogram.counts[1], 1u);  // 2
    EXPECT_EQ(s.deltaHistogram.at(9), 1u);    // 4.29e9
    EXPECT_EQ(s.deltaHistogram.at(0), 1u);    // 2
    EXPECT_DOUBLE_EQ(s.maxRelDelta, 4294967295.0 / 2147483648.0);
}

TEST(Stats, EveryDifferenceCountsNotJustTheFirstFive) {
    // 20 differences; the largest |Δ| is the 12th: the reference would never see it.
    std::vector<float> a(100, 1.0f), b(100, 1.0f);
    for (int i = 0; i < 20; ++i)
        b[static_cast<std::size_t>(i * 5)] = 1.0f + 0.001f * static_cast<float>(i == 11 ? 1000 : 1);
    auto s = compareF32(a, b);
    EXPECT_EQ(s.nDiff, 20u);
    EXPECT_EQ(*s.firstDiff, 0u);
    EXPECT_EQ(*s.lastDiff, 95u);
    EXPECT_EQ(*s.maxAbsDeltaIndex, 55u);
    EXPECT_NEAR(s.maxAbsDelta, 1.0, 1e-6);
    EXPECT_EQ(s.firstDiffs.size(), 16u);
    EXPECT_EQ(s.firstDiffs[15].index, 75u);
    ASSERT_EQ(s.largestDiffs.size(), 16u);
    EXPECT_EQ(s.largestDiffs[0].index, 55u);
    // Ties keep the lowest indices, in index order.
    EXPECT_EQ(s.largestDiffs[1].index, 0u);
    EXPECT_EQ(s.largestDiffs[2].index, 5u);
}

TEST(Stats, HistogramsCountEveryDifferenceInTheRightBin) {
    std::vector<float> a{1.0f, 1.0f, 100.0f, 0.5f};
    std::vector<float> b{1.5f, 1.0f, 101.0f, floatFromBits(0x3f000001)}; // 0.5 + 1 ULP
    auto s = compareF32(a, b);
    ASSERT_EQ(s.nDiff, 3u);
    EXPECT_EQ(s.deltaHistogram.at(-1), 1u); // 0.5
    EXPECT_EQ(s.deltaHistogram.at(0), 1u);  // 1
    EXPECT_EQ(s.deltaHistogram.at(-8), 1u); // 5.96e-8
    std::uint64_t total = 0;
    for (auto c : s.ulpHistogram.counts)
        total += c;
    EXPECT_EQ(total, 3u);
    EXPECT_EQ(s.ulpHistogram.counts[0], 1u);  // 1 ULP
    EXPECT_EQ(s.ulpHistogram.counts[17], 1u); // 100 -> 101 is 2^17 ULP
    EXPECT_EQ(s.ulpHistogram.counts[22], 1u); // 1.0 -> 1.5 is 2^22 ULP
}

TEST(Stats, LengthMismatchComparesTheCommonPrefixAndHashesAll) {
    std::vector<float> a{1.f, 2.f, 3.f, NAN};
    std::vector<float> b{1.f, 2.5f};
    auto s = compareF32(a, b);
    EXPECT_EQ(s.nA, 4u);
    EXPECT_EQ(s.nB, 2u);
    EXPECT_EQ(s.nDiff, 1u);
    EXPECT_EQ(s.nanA, 1u); // the tail is counted
    auto s2 = compareF32({1.f, 2.f}, {1.f, 2.f});
    EXPECT_NE(s.hashA, s2.hashA); // the tail is hashed
}

TEST(Stats, DeltaDecadeMatchesLog10OnRandomMagnitudes) {
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> exp(-320, 305);
    for (int i = 0; i < 100000; ++i) {
        const double x = std::pow(10.0, exp(rng)) * (1 + 1e-9);
        if (x == 0 || std::isinf(x)) continue;
        const int expected = static_cast<int>(std::floor(std::log10(x)));
        ASSERT_EQ(deltaDecade(x), expected) << x;
    }
    EXPECT_EQ(deltaDecade(1.0), 0);
    EXPECT_EQ(deltaDecade(10.0), 1);
    EXPECT_EQ(deltaDecade(9.999999), 0);
    EXPECT_EQ(deltaDecade(0.001), -3);
}

// The block-wise fast path must agree with a plain per-element pass on every type and on
// lengths around the block boundary.
TEST(Stats, ChunkedAccumulationMatchesWholeBuffer) {
    std::mt19937_64 rng(7);
    for (DType t : {DType::f16, DType::bf16, DType::f32, DType::f64, DType::i8, DType::u8,
                    DType::i16, DType::u16, DType::i32, DType::u32, DType::i64, DType::u64}) {
        for (std::size_t n : {0u, 1u, 3u, 1023u, 1024u, 1025u, 4097u}) {
            const std::size_t es = dtypeSize(t);
            std::vector<unsigned char> a(n * es), b;
            for (auto& c : a)
                c = static_cast<unsigned char>(rng());
            b = a;
            std::uint64_t expectedDiff = 0, expectedFirst = UINT64_MAX;
            for (std::size_t i = 0; i < n; ++i) {
                if (rng() % 7 != 0) continue;
                b[i * es] ^= static_cast<unsigned char>(1 + rng() % 255);
                ++expectedDiff;
                expectedFirst = std::min<std::uint64_t>(expectedFirst, i);
            }
            const auto whole = compareMemory(t, a.data(), a.size(), b.data(), b.size());
            StatsAccumulator acc(t);
            for (std::size_t off = 0; off < n; off += 100) {
                const std::size_t len = std::min<std::size_t>(100, n - off);
                acc.addPair(a.data() + off * es, b.data() + off * es, len, off);
            }
            const auto chunked = acc.finish();
            SCOPED_TRACE(std::string(dtypeName(t)) + " n=" + std::to_string(n));
            EXPECT_EQ(whole.nDiff, expectedDiff);
            EXPECT_EQ(chunked.nDiff, expectedDiff);
            if (expectedDiff) {
                EXPECT_EQ(*whole.firstDiff, expectedFirst);
            }
            EXPECT_EQ(whole.hashA, chunked.hashA);
            EXPECT_EQ(whole.hashB, chunked.hashB);
            EXPECT_EQ(whole.maxUlp, chunked.maxUlp);
            EXPECT_EQ(whole.nanA, chunked.nanA);
            EXPECT_EQ(whole.infB, chunked.infB);
            EXPECT_EQ(whole.signedZeroDiffs, chunked.signedZeroDiffs);
            EXPECT_EQ(whole.maxAbsDeltaIndex, chunked.maxAbsDeltaIndex);
            // Per-element recount of NaN on side A.
            std::uint64_t nan = 0;
            for (std::size_t i = 0; i < n; ++i)
                nan += bitsIsNan(t, loadBits(t, a.data() + i * es));
            EXPECT_EQ(whole.nanA, nan);
        }
    }
}

// The pieces of the compare routine's fast paths that test_fast_paths.cpp's whole-statistics
// comparison does not pin down by itself: each side's hash (B's is only copied from A's while
// the sides are equal), the order-independent multiset hashes, per-row / per-column counts
// without a division per element, and the f16 decoding — each against a direct computation.
#include "dumpscope/stats.h"

#include "test_support.h"

#include <gtest/gtest.h>

#define XXH_INLINE_ALL // header-only, as the core uses it
#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace dumpscope {
namespace {

using test::kAllTypes;

std::vector<unsigned char> randomBytes(std::size_t n, std::mt19937_64& rng) {
    std::vector<unsigned char> v(n);
    for (auto& c : v)
        c = static_cast<unsigned char>(rng());
    return v;
}

// Feeds the common prefix in uneven pieces (0-length ones too), then the tails, as a reader does.
BufferStats inPieces(DType t, const std::vector<unsigned char>& a,
                     const std::vector<unsigned char>& b, std::mt19937_64& rng,
                     std::uint64_t rows = 0, std::uint64_t cols = 0) {
    const std::size_t es = dtypeSize(t), nA = a.size() / es, nB = b.size() / es,
                      common = std::min(nA, nB);
    StatsAccumulator acc(t);
    if (rows) acc.setShape(rows, cols);
    for (std::size_t off = 0, len = 0; off < common; off += len) {
        len = std::min<std::size_t>(common - off, rng() % 5000);
        acc.addPair(a.data() + off * es, b.data() + off * es, len, off);
    }
    if (nA > common) acc.addTailA(a.data() + common * es, nA - common);
    if (nB > common) acc.addTailB(b.data() + common * es, nB - common);
    return acc.finish();
}

// hashA / hashB are XXH3-64 of each side's whole bytes: equal sides (B's state copied from
// A's), sides that part at the start, in the middle or only in the tail, and empty sides.
TEST(FastPathParts, EachSideHashIsXxh3OfItsBytes) {
    std::mt19937_64 rng(17);
    for (DType t : kAllTypes) {
        const std::size_t es = dtypeSize(t);
        for (std::size_t n : {0u, 1u, 3u, 4095u, 4096u, 4097u, 20000u}) {
            for (int variant = 0; variant < 5; ++variant) {
                auto a = randomBytes(n * es, rng);
                auto b = a;
                if (variant == 1 && n) b[0] ^= 1;                 // parts at once
                if (variant == 2 && n) b[(n / 2) * es] ^= 0x80;   // parts in the middle
                if (variant == 3) b.resize(b.size() + 5 * es, 7); // equal, then a tail of B
                if (variant == 4) a.resize(a.size() + 3 * es, 9); // equal, then a tail of A
                SCOPED_TRACE(std::string(dtypeName(t)) + " n=" + std::to_string(n) +
                             " variant=" + std::to_string(variant));
                const auto whole = compareMemory(t, a.data(), a.size(), b.data(), b.size());
                EXPECT_EQ(whole.hashA, XXH3_64bits(a.data(), a.size()));
                EXPECT_EQ(whole.hashB, XXH3_64bits(b.data(), b.size()));
                const auto pieces = inPieces(t, a, b, rng);
                EXPECT_EQ(pieces.hashA, whole.hashA);
                EXPECT_EQ(pieces.hashB, whole.hashB);
            }
        }
    }
}

// The multiset hashes match exactly when the differing elements of B are those of A in another
// order, and (for these inputs) not when one value changes.
TEST(FastPathParts, MultisetHashesMatchForPermutationsOnly) {
    std::mt19937_64 rng(23);
    for (DType t : kAllTypes) {
        const std::size_t es = dtypeSize(t), n = 3000;
        const auto a = randomBytes(n * es, rng);
        auto b = a;
        // Reverse runs of elements (distinct values in them, so the bytes really move).
        for (std::size_t start = 17; start + 40 <= n; start += 400)
            for (std::size_t i = 0; i < 20; ++i)
                std::swap_ranges(b.begin() + static_cast<long>((start + i) * es),
                                 b.begin() + static_cast<long>((start + i + 1) * es),
                                 b.begin() + static_cast<long>((start + 39 - i) * es));
        SCOPED_TRACE(std::string(dtypeName(t)));
        const auto permuted = compareMemory(t, a.data(), a.size(), b.data(), b.size());
        ASSERT_GT(permuted.nDiff, 0u);
        EXPECT_EQ(permuted.multisetA, permuted.multisetB);
        EXPECT_EQ(inPieces(t, a, b, rng).multisetA, permuted.multisetA);
        auto c = b;
        c[17 * es] ^= 1; // element 17 moved; now it also changes value
        const auto changed = compareMemory(t, a.data(), a.size(), c.data(), c.size());
        EXPECT_NE(changed.multisetA, changed.multisetB);
    }
}

// rowDiffs / colDiffs against index / cols and index % cols for every difference, for shapes
// narrower and wider than the gaps between differences, covering less or more than the buffer.
TEST(FastPathParts, RowAndColumnCountsMatchDivision) {
    std::mt19937_64 rng(29);
    for (DType t : {DType::u8, DType::f16, DType::f32, DType::f64}) {
        const std::size_t es = dtypeSize(t), n = 30000;
        const auto a = randomBytes(n * es, rng);
        for (int density : {2, 50, 3000}) {
            auto b = a;
            for (std::size_t i = 0; i < n; ++i)
                if (rng() % density == 0)
                    b[i * es + rng() % es] ^= static_cast<unsigned char>(1 + rng() % 255);
            for (std::uint64_t cols : {1u, 3u, 7u, 64u, 999u, 4096u, 40000u}) {
                for (std::uint64_t rows : {n / cols / 2 + 1, (n + cols - 1) / cols, n / cols + 5}) {
                    std::vector<std::uint32_t> rowDiffs(rows), colDiffs(cols);
                    for (std::size_t i = 0; i < std::min<std::uint64_t>(n, rows * cols); ++i)
                        if (std::memcmp(a.data() + i * es, b.data() + i * es, es) != 0)
                            ++rowDiffs[i / cols], ++colDiffs[i % cols];
                    SCOPED_TRACE(std::string(dtypeName(t)) + " density=" + std::to_string(density) +
                                 " shape=" + std::to_string(rows) + "x" + std::to_string(cols));
                    const auto s = inPieces(t, a, b, rng, rows, cols);
                    EXPECT_EQ(s.rowDiffs, rowDiffs);
                    EXPECT_EQ(s.colDiffs, colDiffs);
                }
            }
        }
    }
}

// The f16 decoding (exponent bits assembled, no ldexp) gives every one of the 65536 values
// exactly as ldexp does.
TEST(FastPathParts, HalfDecodingMatchesLdexpForEveryBitPattern) {
    for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
        const int exp = (bits >> 10) & 0x1f, mant = bits & 0x3ff;
        double expected = exp == 0    ? std::ldexp(mant, -24)
                          : exp == 31 ? (mant ? NAN : INFINITY)
                                      : std::ldexp(mant | 0x400, exp - 25);
        if (bits & 0x8000) expected = -expected;
        const double got = bitsToDouble(DType::f16, bits);
        if (std::isnan(expected))
            EXPECT_TRUE(std::isnan(got)) << std::hex << bits;
        else
            EXPECT_EQ(std::bit_cast<std::uint64_t>(got), std::bit_cast<std::uint64_t>(expected))
                << std::hex << bits;
    }
}

// deltaDecade reads a normal double's exponent bits and falls back to ilogb otherwise: powers
// of ten and their neighbours, subnormals and the extremes land where floor(log10) says.
TEST(FastPathParts, DeltaDecadeAtPowersOfTenAndSubnormals) {
    for (int d = -300; d <= 300; ++d) {
        const double p = std::stod("1e" + std::to_string(d));
        EXPECT_EQ(deltaDecade(p), d) << p;
        EXPECT_EQ(deltaDecade(std::nextafter(p, 0.0)), d - 1) << p;
        EXPECT_EQ(deltaDecade(std::nextafter(p, INFINITY)), d) << p;
    }
    EXPECT_EQ(deltaDecade(std::numeric_limits<double>::denorm_min()), -324);
    EXPECT_EQ(deltaDecade(1e-310), -310);
    EXPECT_EQ(deltaDecade(2.5e-320), -320);
    EXPECT_EQ(deltaDecade(std::numeric_limits<double>::min()), -308);
    EXPECT_EQ(deltaDecade(std::numeric_limits<double>::max()), 308);
}

} // namespace
} // namespace dumpscope

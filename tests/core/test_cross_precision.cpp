// A pair held at two float precisions: which types widen into which, the exact widening, the
// rounding rule per element (held to an independent round-to-nearest-even), and analyze() over
// .npy files of f16 against f32.
#include "dumpscope/analyze.h"
#include "dumpscope/cross_precision.h"

#include "test_support.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>

using namespace dumpscope;
using dumpscope::test::bitsOfFloat;
using dumpscope::test::floatFromBits;

namespace {

// f32 to bf16 by round to nearest even, the way every bf16 kernel does it (NaN aside).
std::uint64_t bf16Of(std::uint32_t u) {
    return (u + 0x7fff + ((u >> 16) & 1)) >> 16;
}

bool within(DType narrow, std::uint64_t bits, double wide) {
    return judgeRounding(narrow, bits, wide).within;
}

// A C-order .npy of `descr` elements.
void writeNpy(const std::filesystem::path& file, const std::string& descr, std::size_t n,
              const void* data, std::size_t bytes) {
    test::writeNpyFile(file, descr, std::to_string(n) + ",", data, bytes);
}

} // namespace

TEST(CrossPrecision, OnlyFloatTypesThatHoldTheOthersValuesPair) {
    EXPECT_EQ(precisionPair(DType::bf16, DType::f32), (std::pair{DType::bf16, DType::f32}));
    EXPECT_EQ(precisionPair(DType::f32, DType::f16), (std::pair{DType::f16, DType::f32}));
    EXPECT_EQ(precisionPair(DType::f64, DType::bf16), (std::pair{DType::bf16, DType::f64}));
    EXPECT_EQ(precisionPair(DType::f32, DType::f64), (std::pair{DType::f32, DType::f64}));
    EXPECT_FALSE(precisionPair(DType::f16, DType::bf16)); // neither holds the other
    EXPECT_FALSE(precisionPair(DType::f32, DType::f32));
    EXPECT_FALSE(precisionPair(DType::i32, DType::f32));
    EXPECT_FALSE(precisionPair(DType::i16, DType::bf16));
    EXPECT_FALSE(precisionPair(DType::f8_e4m3, DType::f32));
}

TEST(CrossPrecision, WideningIsExactForEveryBf16AndF16Value) {
    for (std::uint64_t bits = 0; bits < 0x10000; ++bits) {
        // bf16 is f32's upper half, NaN payloads included.
        ASSERT_EQ(widenBits(DType::bf16, bits, DType::f32), bits << 16) << bits;
        const double v = bitsToDouble(DType::f16, bits);
        const std::uint64_t w = widenBits(DType::f16, bits, DType::f32);
        if (std::isnan(v)) {
            ASSERT_EQ(w, ((bits & 0x8000) << 16) | 0x7f800000 | ((bits & 0x3ff) << 13)) << bits;
        } else {
            ASSERT_EQ(bitsToDouble(DType::f32, w), v) << bits;
        }
        ASSERT_EQ(bitsToDouble(DType::f64, widenBits(DType::bf16, bits, DType::f64)) ==
                      bitsToDouble(DType::bf16, bits),
                  !std::isnan(bitsToDouble(DType::bf16, bits)));
    }
}

TEST(CrossPrecision, EachF32ValueIsWithinTheRoundingOfItsBf16AndNoNeighbour) {
    std::mt19937 gen(7);
    std::vector<std::uint32_t> values = {0x7f7fffff, 0x7f7f7fff, 0x7f7f8000, 0x00000001,
                                         0x00008000, 0x00018000, 0x3f808000, 0x3f818000,
                                         0x80000001, 0xff7fffff, 0x3f800000};
    for (int i = 0; i < 500000; ++i)
        values.push_back(static_cast<std::uint32_t>(gen()));
    for (const std::uint32_t u : values) {
        const double f = floatFromBits(u);
        if (std::isnan(f)) continue;
        const std::uint64_t r = bf16Of(u);
        ASSERT_TRUE(within(DType::bf16, r, f)) << std::hex << u;
        for (const std::uint64_t other : {(r + 1) & 0xffff, (r - 1) & 0xffff})
            if (bitsToDouble(DType::bf16, other) != bitsToDouble(DType::bf16, r)) {
                ASSERT_FALSE(within(DType::bf16, other, f)) << std::hex << u << " " << other;
            }
        const auto j = judgeRounding(DType::bf16, r, f);
        if (j.ulps) {
            ASSERT_LE(*j.ulps, 0.5) << std::hex << u;
        }
    }
}

TEST(CrossPrecision, TiesGoToTheEvenValueAndMeasureHalfAnUlp) {
    // bf16 1.0 (0x3f80) has an ULP of 2^-7: 1 + 2^-8 is the tie between 0x3f80 and 0x3f81.
    const double tie = 1.0 + std::ldexp(1.0, -8);
    EXPECT_TRUE(within(DType::bf16, 0x3f80, tie));
    EXPECT_FALSE(within(DType::bf16, 0x3f81, tie));
    EXPECT_DOUBLE_EQ(*judgeRounding(DType::bf16, 0x3f80, tie).ulps, 0.5);
    EXPECT_TRUE(within(DType::bf16, 0x3f82, 1.0 + 3 * std::ldexp(1.0, -8)));
    EXPECT_FALSE(within(DType::bf16, 0x3f81, 1.0 + 3 * std::ldexp(1.0, -8)));
    // f16: half the smallest subnormal rounds to zero, three halves to two of them.
    EXPECT_TRUE(within(DType::f16, 0x0000, std::ldexp(1.0, -25)));
    EXPECT_FALSE(within(DType::f16, 0x0001, std::ldexp(1.0, -25)));
    EXPECT_TRUE(within(DType::f16, 0x0002, 3 * std::ldexp(1.0, -25)));
    EXPECT_DOUBLE_EQ(*judgeRounding(DType::f16, 0x3c00, 1.0 + 8 * std::ldexp(1.0, -10)).ulps, 8);
}

TEST(CrossPrecision, InfinityNaNAndZeroFollowTheirOwnRules) {
    // f16's largest is 65504 with an ULP of 32: 65520 and past round to Inf, below to 65504.
    EXPECT_TRUE(within(DType::f16, 0x7bff, 65519.99));
    EXPECT_FALSE(within(DType::f16, 0x7c00, 65519.99));
    EXPECT_TRUE(within(DType::f16, 0x7c00, 65520.0));
    EXPECT_FALSE(within(DType::f16, 0x7bff, 65520.0));
    EXPECT_TRUE(within(DType::f16, 0xfc00, -1e30));
    EXPECT_FALSE(within(DType::f16, 0xfc00, 1e30));
    EXPECT_TRUE(within(DType::bf16, 0x7f80, floatFromBits(0x7f7fffff))); // f32's max
    EXPECT_TRUE(within(DType::bf16, 0x7f80, INFINITY));
    EXPECT_FALSE(within(DType::bf16, 0xff80, INFINITY));
    const auto finiteAgainstInf = judgeRounding(DType::bf16, 0x7f7f, INFINITY);
    EXPECT_FALSE(finiteAgainstInf.within);
    EXPECT_TRUE(finiteAgainstInf.nonFiniteMismatch);
    // NaN against NaN is equal as a class, whatever the payloads; against a number it is not.
    EXPECT_TRUE(within(DType::bf16, 0x7fc1, std::nan("")));
    EXPECT_TRUE(within(DType::bf16, 0xffc0, std::nan("")));
    const auto nanAgainstNumber = judgeRounding(DType::bf16, 0x7fc0, 1.0);
    EXPECT_FALSE(nanAgainstNumber.within);
    EXPECT_TRUE(nanAgainstNumber.nonFiniteMismatch);
    EXPECT_FALSE(nanAgainstNumber.ulps);
    EXPECT_FALSE(within(DType::bf16, 0x3f80, std::nan("")));
    // Signs of zero pass, as they pass every tolerance; a nonzero value of the other sign not.
    EXPECT_TRUE(within(DType::bf16, 0x8000, 0.0));
    EXPECT_TRUE(within(DType::bf16, 0x0000, -1e-45));
    EXPECT_FALSE(within(DType::bf16, 0xbf80, 1.0));
    EXPECT_FALSE(within(DType::bf16, 0x3f80, 0.0));
}

TEST(CrossPrecision, AnalyzeStreamsAnF16RunAgainstItsF32TwinOverChunkEdges) {
    dumpscope::test::TempDir dir;
    // Each f32 element is its f16 plus a quarter of the f16's ULP, one sign or the other: within
    // the rounding; 40,000 elements cross the compare's chunks (32,768 f32 elements each).
    const std::size_t n = 40000, far = 35000;
    std::vector<std::uint16_t> narrow(n);
    std::vector<float> wide(n);
    std::mt19937 gen(11);
    for (std::size_t i = 0; i < n; ++i) {
        std::uint16_t h;
        do
            h = static_cast<std::uint16_t>(gen() & 0x7bff);
        while ((h & 0x7c00) == 0 || (h & 0x7c00) == 0x7c00); // normal, finite
        if (gen() & 1) h = static_cast<std::uint16_t>(h | 0x8000);
        narrow[i] = h;
        const double v = bitsToDouble(DType::f16, h);
        const double ulp = std::ldexp(1.0, std::ilogb(v) - 10);
        wide[i] = static_cast<float>(v + ((gen() & 1) ? 0.25 : -0.25) * ulp);
    }
    const auto write = [&](const std::string& run) {
        writeNpy(dir / run / "a" / "step_1_x.npy", "<f2", n, narrow.data(), 2 * n);
        writeNpy(dir / run / "b" / "step_1_x.npy", "<f4", n, wide.data(), 4 * n);
    };
    write("within");
    const double v = bitsToDouble(DType::f16, narrow[far]);
    wide[far] = static_cast<float>(v + 3 * std::ldexp(1.0, std::ilogb(v) - 10));
    write("beyond");

    const Analysis in = analyze(dir / "within" / "a", dir / "within" / "b");
    ASSERT_EQ(in.buffers.size(), 1u);
    const BufferResult& w = in.buffers[0];
    ASSERT_TRUE(w.precision()) << w.error;
    EXPECT_EQ(w.status, Status::equal);
    EXPECT_EQ(w.dtype, DType::f32);
    EXPECT_EQ(w.precision()->narrow, DType::f16);
    EXPECT_TRUE(w.precision()->narrowInA);
    EXPECT_DOUBLE_EQ(w.precision()->maxUlps, 0.25);
    EXPECT_EQ(w.stats.nDiff, n); // every element differs as an f32
    EXPECT_EQ(in.verdict.exitCode, 0);
    EXPECT_EQ(precisionVerdict(in), "across precisions (f16 in run A, f32 in run B): all 1 "
                                    "buffer(s) within the rounding of f16");

    const Analysis out = analyze(dir / "beyond" / "a", dir / "beyond" / "b");
    const BufferResult& b = out.buffers[0];
    ASSERT_TRUE(b.precision()) << b.error;
    EXPECT_EQ(b.status, Status::diverge);
    EXPECT_EQ(b.kind, Kind::numeric);
    EXPECT_EQ(b.precision()->nBeyond, 1u);
    EXPECT_EQ(b.precision()->firstBeyond, far);
    EXPECT_EQ(b.precision()->maxUlpsIndex, far);
    EXPECT_DOUBLE_EQ(b.precision()->maxUlps, 3);
    EXPECT_EQ(b.precision()->firstBeyondNarrowBits, narrow[far]);
    EXPECT_EQ(out.verdict.exitCode, 1);
    EXPECT_EQ(out.verdict.firstDivergentStep, 1u);
}

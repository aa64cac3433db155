#include "dumpscope/dtype.h"
#include "schema/dtype_special.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace dumpscope;

TEST(DType, NamesSizesAndParsingRoundTrip) {
    const std::pair<const char*, std::size_t> expected[] = {
        {"f16", 2}, {"bf16", 2}, {"f32", 4}, {"f64", 8}, {"i8", 1},  {"u8", 1},
        {"i16", 2}, {"u16", 2},  {"i32", 4}, {"u32", 4}, {"i64", 8}, {"u64", 8}};
    for (auto [name, size] : expected) {
        auto t = parseDType(name);
        ASSERT_TRUE(t) << name;
        EXPECT_EQ(dtypeName(*t), name);
        EXPECT_EQ(dtypeSize(*t), size) << name;
    }
    EXPECT_FALSE(parseDType("f33"));
    EXPECT_FALSE(parseDType(""));
    EXPECT_FALSE(parseDType("F32"));
}

TEST(DType, DecodesValuesOfEveryType) {
    EXPECT_EQ(bitsToDouble(DType::f32, 0x3f800000), 1.0);
    EXPECT_EQ(bitsToDouble(DType::f32, 0xc0000000), -2.0);
    EXPECT_EQ(bitsToDouble(DType::f64, 0x3ff8000000000000ull), 1.5);
    EXPECT_EQ(bitsToDouble(DType::f16, 0x3c00), 1.0);
    EXPECT_EQ(bitsToDouble(DType::f16, 0xc000), -2.0);
    EXPECT_EQ(bitsToDouble(DType::f16, 0x0001), std::ldexp(1.0, -24)); // smallest subnormal
    EXPECT_EQ(bitsToDouble(DType::f16, 0x7bff), 65504.0);
    EXPECT_TRUE(std::isinf(bitsToDouble(DType::f16, 0x7c00)));
    EXPECT_TRUE(std::isnan(bitsToDouble(DType::f16, 0x7e00)));
    EXPECT_EQ(bitsToDouble(DType::bf16, 0x3f80), 1.0);
    EXPECT_EQ(bitsToDouble(DType::bf16, 0xbfc0), -1.5);
    EXPECT_EQ(bitsToDouble(DType::i8, 0xff), -1.0);
    EXPECT_EQ(bitsToDouble(DType::u8, 0xff), 255.0);
    EXPECT_EQ(bitsToDouble(DType::i16, 0x8000), -32768.0);
    EXPECT_EQ(bitsToDouble(DType::i32, 0x80000000u), -2147483648.0);
    EXPECT_EQ(bitsToDouble(DType::u32, 0xffffffffu), 4294967295.0);
    EXPECT_EQ(bitsToDouble(DType::i64, 0xffffffffffffffffull), -1.0);
}

TEST(DType, NanAndInfClassification) {
    EXPECT_TRUE(bitsIsNan(DType::f32, 0x7fc00000));
    EXPECT_TRUE(bitsIsNan(DType::f32, 0xffc00001)); // negative NaN with payload
    EXPECT_FALSE(bitsIsNan(DType::f32, 0x7f800000));
    EXPECT_TRUE(bitsIsInf(DType::f32, 0xff800000));
    EXPECT_TRUE(bitsIsNan(DType::bf16, 0x7fc1));
    EXPECT_TRUE(bitsIsInf(DType::f64, 0x7ff0000000000000ull));
    EXPECT_FALSE(bitsIsNan(DType::i32, 0x7fc00000)); // integers are never NaN
}

TEST(DType, UlpDistanceIsSignCorrect) {
    // Same sign: difference of the bit patterns.
    EXPECT_EQ(*ulpDistance(DType::f32, 0x3f800000, 0x3f800003), 3u);
    EXPECT_EQ(*ulpDistance(DType::f32, 0xbf800003, 0xbf800000), 3u);
    // +0 and -0 are one apart.
    EXPECT_EQ(*ulpDistance(DType::f32, 0x00000000, 0x80000000), 1u);
    // A sign flip is both magnitudes' distance from zero plus the +0/-0 step.
    EXPECT_EQ(*ulpDistance(DType::f32, 0x00000002, 0x80000003), 2u + 3u + 1u);
    // Smallest positive vs smallest negative denormal.
    EXPECT_EQ(*ulpDistance(DType::f32, 0x00000001, 0x80000001), 3u);
    // Largest possible f64 distance does not overflow: +max vs -max.
    EXPECT_EQ(*ulpDistance(DType::f64, 0x7fefffffffffffffull, 0xffefffffffffffffull),
              2 * 0x7fefffffffffffffull + 1);
    // Inf is one past the largest finite.
    EXPECT_EQ(*ulpDistance(DType::f32, 0x7f7fffff, 0x7f800000), 1u);
    // NaN has no distance.
    EXPECT_FALSE(ulpDistance(DType::f32, 0x7fc00000, 0x3f800000));
    EXPECT_FALSE(ulpDistance(DType::f32, 0x7fc00000, 0x7fc00001));
    // f16 / bf16 the same way.
    EXPECT_EQ(*ulpDistance(DType::f16, 0x3c00, 0x3c02), 2u);
    EXPECT_EQ(*ulpDistance(DType::bf16, 0x0000, 0x8000), 1u);
}

TEST(DType, IntegerDistanceIsAbsoluteDifferenceAtTheExtremes) {
    EXPECT_EQ(*ulpDistance(DType::i32, 0x80000000u, 0x7fffffffu),
              0xffffffffull);                                          // INT32_MIN vs MAX
    EXPECT_EQ(*ulpDistance(DType::i32, 0xffffffffu, 0x00000001u), 2u); // -1 vs 1
    EXPECT_EQ(*ulpDistance(DType::i64, 0x8000000000000000ull, 0x7fffffffffffffffull),
              std::numeric_limits<std::uint64_t>::max());
    EXPECT_EQ(*ulpDistance(DType::u64, 0, std::numeric_limits<std::uint64_t>::max()),
              std::numeric_limits<std::uint64_t>::max());
    EXPECT_EQ(*ulpDistance(DType::i8, 0x80, 0x7f), 255u);
    EXPECT_EQ(*ulpDistance(DType::u8, 3, 250), 247u);
}

TEST(DType, FormatsShortestRoundTripAndBits) {
    EXPECT_EQ(formatValue(DType::f32, 0x3dcccccd), "0.1");
    EXPECT_EQ(formatValue(DType::f32, 0x80000000), "-0");
    EXPECT_EQ(formatValue(DType::f32, 0x7f800000), "inf");
    EXPECT_EQ(formatValue(DType::f32, 0xff800000), "-inf");
    EXPECT_EQ(formatValue(DType::f32, 0x7fc00000), "nan");
    EXPECT_EQ(formatValue(DType::f64, 0x3fb999999999999aull), "0.1");
    EXPECT_EQ(formatValue(DType::i32, 0x80000000u), "-2147483648");
    EXPECT_EQ(formatValue(DType::u16, 0xffff), "65535");
    EXPECT_EQ(formatBits(DType::f32, 0x3f800000), "0x3f800000");
    EXPECT_EQ(formatBits(DType::i8, 0x0f), "0x0f");
    EXPECT_EQ(formatBits(DType::f64, 1), "0x0000000000000001");
}

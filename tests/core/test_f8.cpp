// The two 8-bit float types, f8_e4m3 and f8_e5m2 (OCP FP8): every bit pattern against the
// format's definition, NaN and Inf, ULP distance, the shortest text that reads back to the same
// bits, and the kind of a pair of F8 buffers. The tolerance that would pass and the fast paths'
// agreement with the plain per-element rules cover them through test::kAllTypes.
#include "dumpscope/dtype.h"
#include "dumpscope/kind.h"
#include "dumpscope/stats.h"

#include "schema/dtype_special.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using namespace dumpscope;

namespace {

struct Format {
    DType type;
    int mantBits, bias;
    bool ieee; // E5M2: exponent all ones is Inf / NaN; E4M3 (FN): only S.1111.111 is NaN
};
constexpr Format kE4M3{DType::f8_e4m3, 3, 7, false};
constexpr Format kE5M2{DType::f8_e5m2, 2, 15, true};

// The OCP FP8 definition, written out: (-1)^S * 2^(E-bias) * 1.M for E > 0, (-1)^S *
// 2^(1-bias) * 0.M for E = 0, with the specials of each encoding.
double ocpValue(const Format& f, unsigned bits) {
    const unsigned expBits = 7 - static_cast<unsigned>(f.mantBits);
    const unsigned s = bits >> 7, e = (bits >> f.mantBits) & ((1u << expBits) - 1),
                   m = bits & ((1u << f.mantBits) - 1);
    const unsigned eMax = (1u << expBits) - 1;
    double mag;
    if (f.ieee && e == eMax)
        mag = m == 0 ? INFINITY : NAN;
    else if (!f.ieee && e == eMax && m == (1u << f.mantBits) - 1)
        mag = NAN;
    else if (e == 0)
        mag = std::ldexp(static_cast<double>(m) / (1u << f.mantBits), 1 - f.bias);
    else
        mag = std::ldexp(1.0 + static_cast<double>(m) / (1u << f.mantBits),
                         static_cast<int>(e) - f.bias);
    return s ? -mag : mag;
}

// The F8 pattern nearest to x, ties to the even pattern, as a cast would round; x finite and
// within the type's finite range plus half a step.
unsigned nearestPattern(const Format& f, double x) {
    unsigned best = 0;
    double bestD = INFINITY;
    for (unsigned b = 0; b < 256; ++b) {
        const double v = ocpValue(f, b);
        if (!std::isfinite(v) || (v == 0 && std::signbit(v) != std::signbit(x))) continue;
        const double d = std::fabs(v - x);
        if (d < bestD || (d == bestD && (b & 1) == 0)) best = b, bestD = d;
    }
    return best;
}

// Significant digits of a decimal text: without leading zeros, nor trailing ones ("60000" has 1).
std::size_t significantDigits(const std::string& text) {
    std::string digits;
    for (char c : text) {
        if (c == 'e' || c == 'E') break;
        if (c >= '0' && c <= '9' && !(digits.empty() && c == '0')) digits += c;
    }
    while (!digits.empty() && digits.back() == '0')
        digits.pop_back();
    return digits.size();
}

BufferStats compareF8(DType t, const std::vector<std::uint8_t>& a,
                      const std::vector<std::uint8_t>& b) {
    return compareMemory(t, a.data(), a.size(), b.data(), b.size());
}

} // namespace

TEST(F8, NamesAndSizes) {
    EXPECT_EQ(parseDType("f8_e4m3"), DType::f8_e4m3);
    EXPECT_EQ(parseDType("f8_e5m2"), DType::f8_e5m2);
    EXPECT_EQ(dtypeName(DType::f8_e4m3), "f8_e4m3");
    EXPECT_EQ(dtypeName(DType::f8_e5m2), "f8_e5m2");
    EXPECT_EQ(dtypeSize(DType::f8_e4m3), 1u);
    EXPECT_EQ(dtypeSize(DType::f8_e5m2), 1u);
    EXPECT_TRUE(isFloat(DType::f8_e4m3));
    EXPECT_TRUE(isFloat(DType::f8_e5m2));
    EXPECT_FALSE(isSignedInt(DType::f8_e4m3));
}

TEST(F8, EveryBitPatternDecodesAsTheOcpDefinitionGives) {
    for (const Format& f : {kE4M3, kE5M2})
        for (unsigned b = 0; b < 256; ++b) {
            const double expected = ocpValue(f, b), got = bitsToDouble(f.type, b);
            SCOPED_TRACE(std::string(dtypeName(f.type)) + " bits " + std::to_string(b));
            EXPECT_EQ(std::isnan(got), std::isnan(expected));
            EXPECT_EQ(bitsIsNan(f.type, b), std::isnan(expected));
            EXPECT_EQ(bitsIsInf(f.type, b), std::isinf(expected));
            EXPECT_EQ(std::signbit(got), (b & 0x80) != 0);
            if (!std::isnan(expected)) {
                EXPECT_EQ(got, expected);
            }
        }
    // The OCP specification's table of extremes.
    EXPECT_EQ(bitsToDouble(DType::f8_e4m3, 0x7e), 448.0);    // largest: S.1111.110
    EXPECT_EQ(bitsToDouble(DType::f8_e4m3, 0x78), 256.0);    // exponent 1111 is finite in E4M3
    EXPECT_EQ(bitsToDouble(DType::f8_e4m3, 0x08), 0x1p-6);   // smallest normal
    EXPECT_EQ(bitsToDouble(DType::f8_e4m3, 0x07), 0x1.cp-7); // largest subnormal 0.875 * 2^-6
    EXPECT_EQ(bitsToDouble(DType::f8_e4m3, 0x01), 0x1p-9);   // smallest subnormal
    EXPECT_TRUE(std::isnan(bitsToDouble(DType::f8_e4m3, 0x7f)));
    EXPECT_TRUE(std::isnan(bitsToDouble(DType::f8_e4m3, 0xff)));
    EXPECT_EQ(bitsToDouble(DType::f8_e5m2, 0x7b), 57344.0); // largest: S.11110.11
    EXPECT_EQ(bitsToDouble(DType::f8_e5m2, 0x04), 0x1p-14); // smallest normal
    EXPECT_EQ(bitsToDouble(DType::f8_e5m2, 0x01), 0x1p-16); // smallest subnormal
    EXPECT_EQ(bitsToDouble(DType::f8_e5m2, 0x7c), INFINITY);
    EXPECT_EQ(bitsToDouble(DType::f8_e5m2, 0xfc), -INFINITY);
    for (unsigned b : {0x7du, 0x7eu, 0x7fu, 0xfdu, 0xffu})
        EXPECT_TRUE(std::isnan(bitsToDouble(DType::f8_e5m2, b))) << b;
    // E4M3 has no Inf at all.
    for (unsigned b = 0; b < 256; ++b)
        EXPECT_FALSE(bitsIsInf(DType::f8_e4m3, b)) << b;
}

TEST(F8, UlpDistanceIsSignCorrectAcrossZeroAndAtTheEnds) {
    for (DType t : {DType::f8_e4m3, DType::f8_e5m2}) {
        SCOPED_TRACE(std::string(dtypeName(t)));
        EXPECT_EQ(ulpDistance(t, 0x00, 0x80), 1u);         // +0 and -0
        EXPECT_EQ(ulpDistance(t, 0x01, 0x81), 3u);         // ±smallest subnormal
        EXPECT_EQ(ulpDistance(t, 0x3a, 0x38), 2u);         // same sign
        EXPECT_EQ(ulpDistance(t, 0xb8, 0xba), 2u);         // negative side
        EXPECT_EQ(ulpDistance(t, 0x05, 0x83), 5u + 3 + 1); // across zero
    }
    // Largest against -largest.
    EXPECT_EQ(ulpDistance(DType::f8_e4m3, 0x7e, 0xfe), 126u + 126 + 1);
    EXPECT_EQ(ulpDistance(DType::f8_e5m2, 0x7b, 0xfb), 123u + 123 + 1);
    // E5M2's Inf is one ULP past its largest finite value, as in IEEE 754.
    EXPECT_EQ(ulpDistance(DType::f8_e5m2, 0x7b, 0x7c), 1u);
    // NaN on a side has no distance; E4M3's 0x7e is a number, 0x7f its NaN.
    EXPECT_EQ(ulpDistance(DType::f8_e4m3, 0x7e, 0x7d), 1u);
    EXPECT_FALSE(ulpDistance(DType::f8_e4m3, 0x7f, 0x7e));
    EXPECT_FALSE(ulpDistance(DType::f8_e4m3, 0x7f, 0xff));
    EXPECT_FALSE(ulpDistance(DType::f8_e5m2, 0x7d, 0x01));
}

TEST(F8, TextIsTheShortestDecimalThatReadsBackToTheSameBits) {
    for (const Format& f : {kE4M3, kE5M2})
        for (unsigned b = 0; b < 256; ++b) {
            const double v = ocpValue(f, b);
            const std::string text = formatValue(f.type, b);
            SCOPED_TRACE(std::string(dtypeName(f.type)) + " bits " + std::to_string(b) + " " +
                         text);
            if (std::isnan(v)) {
                EXPECT_EQ(text, (b & 0x80) ? "-nan" : "nan");
                continue;
            }
            if (std::isinf(v)) {
                EXPECT_EQ(text, v < 0 ? "-inf" : "inf");
                continue;
            }
            const double read = std::strtod(text.c_str(), nullptr);
            EXPECT_EQ(nearestPattern(f, read), b);
            // One significant digit fewer, rounded either way, names another pattern.
            const std::size_t digits = significantDigits(text);
            if (digits > 1) {
                char shorter[64];
                std::snprintf(shorter, sizeof shorter, "%.*e", static_cast<int>(digits) - 2, v);
                const double s = std::strtod(shorter, nullptr);
                EXPECT_NE(nearestPattern(f, s), b) << shorter;
            }
        }
    EXPECT_EQ(formatValue(DType::f8_e4m3, 0x01), "0.002"); // 2^-9 = 0.001953125
    EXPECT_EQ(formatValue(DType::f8_e4m3, 0x7e), "450");   // 448: its neighbours are 416 and NaN
    EXPECT_EQ(formatValue(DType::f8_e4m3, 0x38), "1");
    EXPECT_EQ(formatValue(DType::f8_e4m3, 0x80), "-0");
    EXPECT_EQ(formatValue(DType::f8_e4m3, 0x6d), "104"); // 100 reads back as 0x6c (96)
    // 57344: 60000 is below the midpoint 61440 to Inf, so it reads back as the largest.
    EXPECT_EQ(formatValue(DType::f8_e5m2, 0x7b), "60000");
    EXPECT_EQ(formatBits(DType::f8_e5m2, 0x7c), "0x7c");
}

// A buffer of F8 values up to 0x6f (E4M3: 120, E5M2: 7168), its largest element moved one ULP
// up: rounding, as a single rounding of a wider result can do (at most one epsilon of the
// scale); two ULP up (E4M3 120 -> 144, a sixth of the scale): numeric, although it would be
// within f16's two epsilons; moved far down: numeric.
TEST(F8, KindOfOneUlpIsRoundingAndOfMoreIsNumeric) {
    for (DType t : {DType::f8_e4m3, DType::f8_e5m2}) {
        SCOPED_TRACE(std::string(dtypeName(t)));
        std::vector<std::uint8_t> a;
        for (unsigned b = 0; b < 256; ++b)
            if ((b & 0x7f) < 0x70) a.push_back(static_cast<std::uint8_t>(b));
        const std::size_t largest = 0x6f;
        ASSERT_EQ(a[largest], 0x6f);
        const auto moved = [&](int ulps) {
            auto b = a;
            b[largest] = static_cast<std::uint8_t>(b[largest] + ulps);
            return b;
        };
        BufferStats s = compareF8(t, a, moved(1));
        EXPECT_EQ(s.nDiff, 1u);
        EXPECT_EQ(s.maxUlp, 1u);
        EXPECT_EQ(classifyKind(t, s, false, kDefaultRoundingThreshold), Kind::rounding);
        s = compareF8(t, a, moved(2));
        EXPECT_EQ(s.maxUlp, 2u);
        EXPECT_EQ(classifyKind(t, s, false, kDefaultRoundingThreshold), Kind::numeric);
        s = compareF8(t, a, moved(-12));
        EXPECT_EQ(s.maxUlp, 12u);
        EXPECT_EQ(classifyKind(t, s, false, kDefaultRoundingThreshold), Kind::numeric);

        // NaN against NaN with other bits (the sign): a NaN payload, not a divergence of values.
        const std::uint8_t nan = t == DType::f8_e4m3 ? 0x7f : 0x7e;
        std::vector<std::uint8_t> x{0x38, nan}, y{0x38, static_cast<std::uint8_t>(nan | 0x80)};
        s = compareF8(t, x, y);
        EXPECT_EQ(s.nanPayloadDiffs, 1u);
        EXPECT_EQ(classifyKind(t, s, false, kDefaultRoundingThreshold), Kind::nan_payload);
        // NaN against a number, and (E5M2) Inf against the largest finite value.
        y = {0x38, 0x38};
        s = compareF8(t, x, y);
        EXPECT_EQ(s.nonFiniteMismatches, 1u);
        EXPECT_EQ(s.nanA, 1u);
        EXPECT_EQ(s.infA, 0u);
        EXPECT_EQ(classifyKind(t, s, false, kDefaultRoundingThreshold), Kind::nan_inf_mismatch);
    }
    std::vector<std::uint8_t> inf{0x7c, 0x38}, largest{0x7b, 0x38};
    const BufferStats s = compareF8(DType::f8_e5m2, inf, largest);
    EXPECT_EQ(s.infA, 1u);
    EXPECT_EQ(s.nanA, 0u);
    EXPECT_EQ(s.maxUlp, 1u);
    EXPECT_EQ(classifyKind(DType::f8_e5m2, s, false, kDefaultRoundingThreshold),
              Kind::nan_inf_mismatch);
}

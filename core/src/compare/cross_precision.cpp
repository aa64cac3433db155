#include "dumpscope/cross_precision.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace dumpscope {

namespace {

// Fraction bits of each float type a pair across precisions may hold.
int fractionBits(DType t) {
    switch (t) {
    case DType::f16:
        return 10;
    case DType::bf16:
        return 7;
    case DType::f32:
        return 23;
    default:
        return 52;
    }
}

int rank(DType t) {
    switch (t) {
    case DType::f16:
    case DType::bf16:
        return 1;
    case DType::f32:
        return 2;
    case DType::f64:
        return 3;
    default:
        return 0;
    }
}

std::string shortNumber(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", v);
    return text;
}

} // namespace

std::optional<std::pair<DType, DType>> precisionPair(DType a, DType b) {
    // f16 and bf16 are both narrow, and neither holds the other's values.
    if (rank(a) == 0 || rank(b) == 0 || rank(a) == rank(b)) return std::nullopt;
    return rank(a) < rank(b) ? std::pair{a, b} : std::pair{b, a};
}

std::uint64_t widenBits(DType narrow, std::uint64_t bits, DType wide) {
    const double v = bitsToDouble(narrow, bits);
    const int width = static_cast<int>(8 * dtypeSize(narrow));
    const int wideWidth = static_cast<int>(8 * dtypeSize(wide));
    if (std::isnan(v)) {
        // A conversion through double may quiet or drop the payload; the bits are kept instead.
        const std::uint64_t sign = (bits >> (width - 1)) & 1;
        const std::uint64_t fraction = bits & ((std::uint64_t{1} << fractionBits(narrow)) - 1);
        const int wideFraction = fractionBits(wide);
        const std::uint64_t exponent = (std::uint64_t{1} << (wideWidth - 1 - wideFraction)) - 1;
        return (sign << (wideWidth - 1)) | (exponent << wideFraction) |
               (fraction << (wideFraction - fractionBits(narrow)));
    }
    if (wide == DType::f32) return std::bit_cast<std::uint32_t>(static_cast<float>(v));
    return std::bit_cast<std::uint64_t>(v);
}

RoundingJudgement judgeRounding(DType narrow, std::uint64_t narrowBits, double wide) {
    const double n = bitsToDouble(narrow, narrowBits);
    if (std::isnan(n) || std::isnan(wide)) {
        const bool both = std::isnan(n) && std::isnan(wide);
        return {both, std::nullopt, !both};
    }
    const std::uint64_t sign = std::uint64_t{1} << (8 * dtypeSize(narrow) - 1);
    const std::uint64_t m = narrowBits & (sign - 1); // the magnitude's bits
    const bool negative = (narrowBits & sign) != 0;
    const auto value = [narrow](std::uint64_t bits) { return bitsToDouble(narrow, bits); };
    if (std::isinf(n)) {
        // Round to nearest even takes a value at or past the largest finite number plus half
        // its ULP to Inf (the largest has an odd fraction, so the tie goes up).
        const double largest = value(m - 1);
        const double threshold = largest + (largest - value(m - 2)) / 2;
        const bool within = std::signbit(wide) == negative && std::fabs(wide) >= threshold;
        return {within, std::nullopt, !within};
    }
    if (std::isinf(wide)) return {false, std::nullopt, true};
    // The spacing above the narrow magnitude; the largest finite number's is the one below it.
    const double above = value(m + 1);
    const double ulp = std::isinf(above) ? value(m) - value(m - 1) : above - value(m);
    const double next = std::isinf(above) ? value(m) + ulp : above;
    RoundingJudgement j;
    j.ulps = std::fabs(wide - n) / ulp;
    if (m == 0) {
        j.within = std::fabs(wide) <= ulp / 2; // zero's fraction is even: a tie rounds to it
        return j;
    }
    if (wide == 0 || std::signbit(wide) != negative) return j;
    const double a = std::fabs(wide);
    const double lo = (value(m - 1) + value(m)) / 2, hi = (value(m) + next) / 2;
    j.within = (m & 1) == 0 ? lo <= a && a <= hi : lo < a && a < hi;
    return j;
}

std::string precisionText(const CrossPrecision& p) {
    const std::string narrow(dtypeName(p.narrow));
    if (p.withinRounding())
        return "within the rounding of " + narrow +
               (p.maxUlpsIndex ? ", up to " + shortNumber(p.maxUlps) + " ULP" : std::string());
    std::string text = "beyond the rounding of " + narrow + ": " + std::to_string(p.nBeyond) +
                       (p.nBeyond == 1 ? " element" : " elements");
    // Past half an ULP only: a NaN against a number says nothing of how far the rest are.
    if (p.maxUlpsIndex && p.maxUlps > 0.5)
        text += ", up to " + shortNumber(p.maxUlps) + " ULP of " + narrow + " (index " +
                std::to_string(*p.maxUlpsIndex) + ")";
    if (p.nonFiniteMismatches)
        text += ", " + std::to_string(p.nonFiniteMismatches) + " NaN or Inf against a number";
    if (p.firstBeyond) text += ", first at index " + std::to_string(*p.firstBeyond);
    return text;
}

} // namespace dumpscope

#pragma once

// Per-element-type constants and operations, as templates so the compare loops specialise.
// dtype.cpp's runtime functions dispatch here, so each rule is written once.
#include "dumpscope/dtype.h"
#include "dumpscope/stats.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>

namespace dumpscope {

// Exact: subnormals are mant * 2^-24, normal values are assembled as a double's bits (no libm
// call per element).
inline double halfToDouble(std::uint16_t bits) {
    const int exp = (bits >> 10) & 0x1f;
    const std::uint64_t mant = bits & 0x3ff;
    double v;
    if (exp == 0)
        v = static_cast<double>(mant) * 0x1p-24;
    else if (exp == 31)
        v = mant ? std::nan("") : INFINITY;
    else
        v = std::bit_cast<double>(static_cast<std::uint64_t>(exp - 15 + 1023) << 52 | mant << 42);
    return (bits & 0x8000) ? -v : v;
}

// An 8-bit float's magnitude bits (sign cleared) decoded as if every exponent were finite:
// exponent 0 is subnormal (mant * 2^(1-bias-mantBits)). The F8 value tables below use it, and
// formatValue for the neighbours of the largest finite value, where the next pattern is NaN or
// Inf but rounding still takes the gap as if it continued. constexpr: the tables are built at
// compile time, so a value is one load.
constexpr double minifloatMagnitude(unsigned mag, int mantBits, int bias) {
    const unsigned exp = mag >> mantBits, mant = mag & ((1u << mantBits) - 1);
    int e = exp == 0 ? 1 - bias - mantBits : static_cast<int>(exp) - bias - mantBits;
    double v = exp == 0 ? mant : (mant | (1u << mantBits));
    for (; e > 0; --e)
        v *= 2;
    for (; e < 0; ++e)
        v /= 2;
    return v;
}

// Every pattern of OCP FP8 E4M3 (bias 7, 3 mantissa bits; the "FN" form: no infinities, NaN is
// S.1111.111 only, so S.1111.110 = ±448 is the largest) or E5M2 (bias 15, 2 mantissa bits;
// exponent 31 is ±Inf with mantissa 0, NaN otherwise, as in IEEE 754).
template <int MantBits, int Bias, bool Ieee> constexpr std::array<double, 256> minifloatTable() {
    std::array<double, 256> t{};
    for (unsigned mag = 0; mag < 128; ++mag) {
        double v = minifloatMagnitude(mag, MantBits, Bias);
        if (Ieee && (mag >> MantBits) == (127u >> MantBits))
            v = (mag & ((1u << MantBits) - 1)) ? std::numeric_limits<double>::quiet_NaN()
                                               : std::numeric_limits<double>::infinity();
        else if (!Ieee && mag == 127)
            v = std::numeric_limits<double>::quiet_NaN();
        t[mag] = v;
        t[mag | 128] = -v;
    }
    return t;
}
inline constexpr std::array<double, 256> kF8E4M3Values = minifloatTable<3, 7, false>();
inline constexpr std::array<double, 256> kF8E5M2Values = minifloatTable<2, 15, true>();

template <typename B> B loadLittle(const unsigned char* p) {
    B v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// Integer types: B is the unsigned storage type, S the value type.
template <typename B, typename S, DType T> struct IntTraits {
    using Bits = B;
    static constexpr bool kFloat = false;
    static constexpr DType kType = T;
    static constexpr Bits kExp = 0;
    static Bits load(const unsigned char* p) { return loadLittle<Bits>(p); }
    static bool isNan(Bits) { return false; }
    static bool isInf(Bits) { return false; }
    static double value(Bits v) { return static_cast<double>(static_cast<S>(v)); }
    static std::optional<std::uint64_t> ulp(Bits a, Bits b) {
        // In 64-bit unsigned arithmetic the difference is exact even for INT64_MIN vs INT64_MAX.
        const auto x = static_cast<std::uint64_t>(
            static_cast<std::conditional_t<std::is_signed_v<S>, std::int64_t, std::uint64_t>>(
                static_cast<S>(a)));
        const auto y = static_cast<std::uint64_t>(
            static_cast<std::conditional_t<std::is_signed_v<S>, std::int64_t, std::uint64_t>>(
                static_cast<S>(b)));
        const bool xLess = static_cast<S>(a) < static_cast<S>(b);
        return xLess ? y - x : x - y;
    }
};

// In magnitude terms (the bits with the sign cleared, which order like the values): `Exp` is the
// smallest magnitude that is not finite and `NanFrom` the smallest NaN. IEEE-like types have
// Inf at the exponent mask and NaN above it; F8 E4M3 (FN) has no Inf, so both are its one NaN
// magnitude 0x7f. The compare loops test `magnitude >= kExp` for "NaN or Inf" and
// `>= kNan` for NaN.
template <typename B, DType T, B Exp, B NanFrom = Exp + 1> struct FloatTraits {
    using Bits = B;
    static constexpr bool kFloat = true;
    static constexpr DType kType = T;
    static constexpr Bits kExp = Exp;
    static constexpr Bits kNan = NanFrom;
    static constexpr Bits kSign = static_cast<Bits>(Bits{1} << (sizeof(Bits) * 8 - 1));
    static constexpr Bits kMag = static_cast<Bits>(kSign - 1);
    static Bits load(const unsigned char* p) { return loadLittle<Bits>(p); }
    static bool isNan(Bits v) { return (v & kMag) >= kNan; }
    static bool isInf(Bits v) { return (v & kMag) >= kExp && (v & kMag) < kNan; }
    static double value(Bits v) {
        if constexpr (T == DType::f8_e4m3)
            return kF8E4M3Values[v];
        else if constexpr (T == DType::f8_e5m2)
            return kF8E5M2Values[v];
        else if constexpr (T == DType::f16)
            return halfToDouble(v);
        else if constexpr (T == DType::bf16)
            return std::bit_cast<float>(static_cast<std::uint32_t>(v) << 16);
        else if constexpr (T == DType::f32)
            return std::bit_cast<float>(v);
        else
            return std::bit_cast<double>(v);
    }
    // Sign-correct ULP distance; +0 and -0 are one apart, so a sign flip costs both magnitudes
    // plus one. NaN has no distance.
    static std::optional<std::uint64_t> ulp(Bits a, Bits b) {
        if (isNan(a) || isNan(b)) return std::nullopt;
        const std::uint64_t ma = a & static_cast<Bits>(kSign - 1),
                            mb = b & static_cast<Bits>(kSign - 1);
        if ((a & kSign) == (b & kSign)) return ma > mb ? ma - mb : mb - ma;
        return ma + mb + 1;
    }
};

using F16 = FloatTraits<std::uint16_t, DType::f16, 0x7c00>;
using BF16 = FloatTraits<std::uint16_t, DType::bf16, 0x7f80>;
using F32 = FloatTraits<std::uint32_t, DType::f32, 0x7f800000u>;
using F64 = FloatTraits<std::uint64_t, DType::f64, 0x7ff0000000000000ull>;
using F8E4M3 = FloatTraits<std::uint8_t, DType::f8_e4m3, 0x7f, 0x7f>;
using F8E5M2 = FloatTraits<std::uint8_t, DType::f8_e5m2, 0x7c>;

// Relative Δ of one pair: |Δ| / scale, scale = max(|a|,|b|); 0 when both are zero, infinite
// when |Δ| is, NaN when it is. The one definition: pairDelta() and the maxima below use it, and
// the AVX2 kernels (dense_f32.cpp) compute the same in vector lanes.
inline double relativeDelta(double absDelta, double scale) {
    if (std::isnan(absDelta)) return absDelta;
    if (std::isinf(absDelta)) return INFINITY;
    return scale > 0 ? absDelta / scale : 0.0;
}

// Raises `maxRel` to relativeDelta(absDelta, scale) if that is larger, for a finite |Δ|. The
// quotient can only be larger when |Δ| >= maxRel * scale (the rounded product never exceeds |Δ|
// then), so most elements cost a multiplication, not a division.
inline void raiseMaxRelative(double& maxRel, double absDelta, double scale) {
    if (scale > 0 && absDelta >= maxRel * scale) maxRel = std::max(maxRel, absDelta / scale);
}

// The smallest rtol with which one difference passes the tolerance alone: |Δ| <= 0 + rtol * |b|
// as StatsAccumulator's withinTolerance evaluates it, the product rounded to double. It is not
// |Δ| / |b| itself: that quotient is rounded too, and the product of a rounded rtol may land on
// either side of |Δ|; where the product is subnormal, a whole range of rtols rounds to the same
// product. So the quotient is only the first guess: non-negative doubles order like their bits,
// and the bits between the last rtol that fails and the first that passes are galloped to and
// bisected (a few products in the usual case). +Inf when no finite rtol passes (|b| == 0, or a
// quotient past the doubles). For |Δ| > 0; a |Δ| of 0 (+0 vs -0) passes any tolerance.
inline double rtolToPass(double absDelta, double absB) {
    constexpr std::uint64_t kInf = 0x7ff0000000000000ull; // taken as passing: none finite does
    const auto passes = [&](std::uint64_t bits) {
        return bits == kInf || std::bit_cast<double>(bits) * absB >= absDelta;
    };
    const std::uint64_t guess =
        std::bit_cast<std::uint64_t>(std::min(absDelta / absB, std::numeric_limits<double>::max()));
    std::uint64_t lo = guess, hi = guess; // lo fails, hi passes
    if (passes(guess)) {
        for (std::uint64_t step = 1; passes(lo); step *= 2)
            hi = lo, lo = lo > step ? lo - step : 0; // 0 * |b| never reaches |Δ| > 0
    } else {
        for (std::uint64_t step = 1; !passes(hi); step *= 2)
            lo = hi, hi = std::min(hi + step, kInf);
    }
    while (hi - lo > 1) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        (passes(mid) ? hi : lo) = mid;
    }
    return std::bit_cast<double>(hi);
}

// Raises `rtol` to rtolToPass(absDelta, absB) when the difference does not pass with it. The
// passing rtols of one difference are all those from its own up (the rounded product grows
// with rtol), so the buffer's smallest is the largest of its differences', and a difference
// that passes the running one cannot raise it: most elements cost a multiplication. The test
// is withinTolerance's with atol 0 (0 + x is x); NaN (rtol +Inf against |b| 0) never raises.
inline void raiseRtolToPass(double& rtol, double absDelta, double absB) {
    if (absDelta > rtol * absB) rtol = std::max(rtol, rtolToPass(absDelta, absB));
}

// One differing pair in the statistics' terms: the single definition of |Δ| (exact |a-b| for
// integers, NaN with a NaN side), relative Δ (|Δ| / max(|a|,|b|); 0 when both are zero,
// infinite when |Δ| is) and ULP distance, shared by the statistics, the element table and the
// histogram-bar filter so that they agree on every element.
template <typename Tr> ElementDelta pairDelta(typename Tr::Bits a, typename Tr::Bits b) {
    ElementDelta d;
    d.a = Tr::value(a);
    d.b = Tr::value(b);
    d.ulp = Tr::ulp(a, b);
    if constexpr (Tr::kFloat)
        d.absDelta = d.ulp ? std::fabs(d.a - d.b) : std::nan("");
    else
        d.absDelta = static_cast<double>(*d.ulp); // exact even where a-b overflows the type
    d.relDelta = relativeDelta(d.absDelta, std::max(std::fabs(d.a), std::fabs(d.b)));
    return d;
}

// Calls f.template operator()<Traits>() for the traits of `t`.
template <typename F> decltype(auto) visitTraits(DType t, F&& f) {
    switch (t) {
    case DType::f16:
        return f.template operator()<F16>();
    case DType::bf16:
        return f.template operator()<BF16>();
    case DType::f32:
        return f.template operator()<F32>();
    case DType::f64:
        return f.template operator()<F64>();
    case DType::i8:
        return f.template operator()<IntTraits<std::uint8_t, std::int8_t, DType::i8>>();
    case DType::u8:
        return f.template operator()<IntTraits<std::uint8_t, std::uint8_t, DType::u8>>();
    case DType::i16:
        return f.template operator()<IntTraits<std::uint16_t, std::int16_t, DType::i16>>();
    case DType::u16:
        return f.template operator()<IntTraits<std::uint16_t, std::uint16_t, DType::u16>>();
    case DType::i32:
        return f.template operator()<IntTraits<std::uint32_t, std::int32_t, DType::i32>>();
    case DType::u32:
        return f.template operator()<IntTraits<std::uint32_t, std::uint32_t, DType::u32>>();
    case DType::i64:
        return f.template operator()<IntTraits<std::uint64_t, std::int64_t, DType::i64>>();
    case DType::u64:
        return f.template operator()<IntTraits<std::uint64_t, std::uint64_t, DType::u64>>();
    case DType::f8_e4m3:
        return f.template operator()<F8E4M3>();
    case DType::f8_e5m2:
        return f.template operator()<F8E5M2>();
    }
    return f.template operator()<F32>();
}

} // namespace dumpscope

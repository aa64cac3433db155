#include "dumpscope/dtype.h"

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "schema/dtype_special.h"
#include "schema/element_traits.h"

static_assert(std::endian::native == std::endian::little,
              "dumps are little-endian; a big-endian host needs byte swapping in loadBits");

namespace dumpscope {

namespace {

struct Info {
    DType type;
    std::string_view name;
    std::size_t size;
};

constexpr std::array<Info, 14> kInfo{{
    {DType::f16, "f16", 2},
    {DType::bf16, "bf16", 2},
    {DType::f32, "f32", 4},
    {DType::f64, "f64", 8},
    {DType::i8, "i8", 1},
    {DType::u8, "u8", 1},
    {DType::i16, "i16", 2},
    {DType::u16, "u16", 2},
    {DType::i32, "i32", 4},
    {DType::u32, "u32", 4},
    {DType::i64, "i64", 8},
    {DType::u64, "u64", 8},
    {DType::f8_e4m3, "f8_e4m3", 1},
    {DType::f8_e5m2, "f8_e5m2", 1},
}};

const Info& info(DType t) {
    return kInfo[static_cast<std::size_t>(t)];
}

std::int64_t signExtend(std::uint64_t bits, std::size_t bytes) {
    const unsigned shift = static_cast<unsigned>(64 - 8 * bytes);
    return static_cast<std::int64_t>(bits << shift) >> shift;
}

// The shortest decimal that reads back to the same F8 bits (finite `bits`), rounding to
// nearest with ties to the even mantissa as every FP8 cast does: the float's shortest text
// would print 0.001953125 for E4M3's 2^-9 where 0.002 already names it. The neighbours of the
// largest finite value are taken as if the exponent went on, as rounding does.
std::string shortestF8(DType t, std::uint64_t bits) {
    const int mantBits = t == DType::f8_e4m3 ? 3 : 2, bias = t == DType::f8_e4m3 ? 7 : 15;
    const unsigned mag = static_cast<unsigned>(bits & 0x7f);
    const double v = minifloatMagnitude(mag, mantBits, bias);
    const double hi = (minifloatMagnitude(mag + 1, mantBits, bias) - v) / 2;
    const double lo = mag == 0 ? 0 : (v - minifloatMagnitude(mag - 1, mantBits, bias)) / 2;
    const bool tiesHere = (mag & 1) == 0;
    char buf[64];
    double c = v;
    for (int digits = 1; digits <= 17; ++digits) {
        const auto r =
            std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific, digits - 1);
        std::from_chars(buf, r.ptr, c);
        const double d = c - v;
        if ((d >= 0 && (d < hi || (tiesHere && d == hi))) ||
            (d < 0 && (-d < lo || (tiesHere && -d == lo))))
            break;
    }
    const auto r = std::to_chars(buf, buf + sizeof buf, (bits & 0x80) ? -c : c);
    return std::string(buf, r.ptr);
}

} // namespace

std::size_t dtypeSize(DType t) {
    return info(t).size;
}
std::string_view dtypeName(DType t) {
    return info(t).name;
}

std::optional<DType> parseDType(std::string_view name) {
    for (const auto& i : kInfo)
        if (i.name == name) return i.type;
    return std::nullopt;
}

bool isFloat(DType t) {
    return t == DType::f16 || t == DType::bf16 || t == DType::f32 || t == DType::f64 ||
           t == DType::f8_e4m3 || t == DType::f8_e5m2;
}

bool isSignedInt(DType t) {
    return t == DType::i8 || t == DType::i16 || t == DType::i32 || t == DType::i64;
}

std::uint64_t loadBits(DType t, const unsigned char* p) {
    std::uint64_t v = 0;
    std::memcpy(&v, p, dtypeSize(t));
    return v;
}

// The runtime entry points below dispatch to element_traits.h, where each rule lives once.
double bitsToDouble(DType t, std::uint64_t bits) {
    return visitTraits(
        t, [&]<typename Tr>() { return Tr::value(static_cast<typename Tr::Bits>(bits)); });
}

bool bitsIsNan(DType t, std::uint64_t bits) {
    return visitTraits(
        t, [&]<typename Tr>() { return Tr::isNan(static_cast<typename Tr::Bits>(bits)); });
}

bool bitsIsInf(DType t, std::uint64_t bits) {
    return visitTraits(
        t, [&]<typename Tr>() { return Tr::isInf(static_cast<typename Tr::Bits>(bits)); });
}

std::optional<std::uint64_t> ulpDistance(DType t, std::uint64_t a, std::uint64_t b) {
    return visitTraits(t, [&]<typename Tr>() {
        return Tr::ulp(static_cast<typename Tr::Bits>(a), static_cast<typename Tr::Bits>(b));
    });
}

std::string formatValue(DType t, std::uint64_t bits) {
    if (!isFloat(t)) {
        if (isSignedInt(t)) return std::to_string(signExtend(bits, dtypeSize(t)));
        return std::to_string(bits);
    }
    const double v = bitsToDouble(t, bits);
    if (std::isnan(v)) return std::signbit(v) ? "-nan" : "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    char buf[64];
    std::to_chars_result r;
    if (t == DType::f8_e4m3 || t == DType::f8_e5m2) return shortestF8(t, bits);
    if (t == DType::f64)
        r = std::to_chars(buf, buf + sizeof buf, v);
    else // shortest text that reads back to the same float (f16/bf16 values are exact floats)
        r = std::to_chars(buf, buf + sizeof buf, static_cast<float>(v));
    return std::string(buf, r.ptr);
}

std::string formatBits(DType t, std::uint64_t bits) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%0*llx", static_cast<int>(dtypeSize(t) * 2),
                  static_cast<unsigned long long>(bits));
    return buf;
}

} // namespace dumpscope

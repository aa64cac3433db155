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

constexpr std::array<Info, 12> kInfo{{
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
}};

const Info& info(DType t) {
    return kInfo[static_cast<std::size_t>(t)];
}

std::int64_t signExtend(std::uint64_t bits, std::size_t bytes) {
    const unsigned shift = static_cast<unsigned>(64 - 8 * bytes);
    return static_cast<std::int64_t>(bits << shift) >> shift;
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
    return t == DType::f16 || t == DType::bf16 || t == DType::f32 || t == DType::f64;
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

#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dumpscope {

// Element types a dump buffer may hold. Every dump is raw little-endian, no header.
// f8_e4m3 is OCP FP8 E4M3 in its "FN" form (no infinities, NaN only at S.1111.111), f8_e5m2 is
// OCP FP8 E5M2 (IEEE-like: ±Inf and NaNs); new types go at the end, DType indexes tables.
enum class DType { f16, bf16, f32, f64, i8, u8, i16, u16, i32, u32, i64, u64, f8_e4m3, f8_e5m2 };

std::size_t dtypeSize(DType t);
std::string_view dtypeName(DType t);
std::optional<DType> parseDType(std::string_view name);
bool isFloat(DType t);
bool isSignedInt(DType t);

// Raw bits of one element, zero-extended to 64 bits (little-endian decode).
std::uint64_t loadBits(DType t, const unsigned char* p);
// The element's value as a double (exact for every type but i64/u64 beyond 2^53).
double bitsToDouble(DType t, std::uint64_t bits);

// Distance in units in the last place. Floats: sign-correct, +0 and -0 are 1 apart and a
// sign flip is the sum of both magnitudes' distances from zero plus that 1. Integers: |a-b|.
// NaN on either side has no distance: returns nullopt.
std::optional<std::uint64_t> ulpDistance(DType t, std::uint64_t bitsA, std::uint64_t bitsB);

// Human text of one element: shortest round-trip decimal for floats, the integer otherwise.
std::string formatValue(DType t, std::uint64_t bits);
// "0x3f800000": the element's bits, zero-padded to its width.
std::string formatBits(DType t, std::uint64_t bits);

} // namespace dumpscope

#pragma once

// The order-independent fingerprint of a buffer's differing values (BufferStats::multisetA/B):
// per side, the sums mod 2^64 of h(x) and of h(x)^2 over its differing elements, so that two
// sides whose differing values are the same multiset in another order get the same sums.
// h(x) for values of 32 bits or less: two 32x32->64 multiplies, the second rotated by 32 bits
// and XORed in — AVX2 computes four of them per instruction (vpmuludq; dense_f32.cpp). For
// 64-bit values: wyhash's "mum", a 64x64->128 multiply folded to 64 bits. Every compare path
// uses these terms, so the sums do not depend on the path that found the difference.
#include <bit>
#include <cstdint>

namespace dumpscope::detail {

inline constexpr std::uint32_t kMultisetK1 = 0x9E3779B9u, kMultisetM1 = 0x85EBCA6Bu;
inline constexpr std::uint32_t kMultisetK2 = 0x7F4A7C15u, kMultisetM2 = 0xC2B2AE35u;

inline std::uint64_t mum(std::uint64_t x) {
    __extension__ using U128 = unsigned __int128;
    const U128 p = static_cast<U128>(x ^ 0xA0761D6478BD642Full) * 0xE7037ED1A0B428DBull;
    return static_cast<std::uint64_t>(p) ^ static_cast<std::uint64_t>(p >> 64);
}

inline std::uint64_t multisetTerm32(std::uint32_t x) {
    const std::uint64_t p = static_cast<std::uint64_t>(x ^ kMultisetK1) * kMultisetM1;
    const std::uint64_t q = static_cast<std::uint64_t>(x ^ kMultisetK2) * kMultisetM2;
    return p ^ std::rotl(q, 32);
}

template <typename Bits> inline std::uint64_t multisetTerm(Bits x) {
    if constexpr (sizeof(Bits) <= 4)
        return multisetTerm32(static_cast<std::uint32_t>(x));
    else
        return mum(static_cast<std::uint64_t>(x));
}

} // namespace dumpscope::detail

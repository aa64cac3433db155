#pragma once
// Little-endian integers at a byte pointer, for the headers of zip and .npy files: those fields
// need not be aligned, so they are assembled byte by byte rather than loaded through a cast.
#include <cstdint>

namespace dumpscope::detail {

inline std::uint16_t loadLe16(const unsigned char* p) {
    return static_cast<std::uint16_t>(p[0] | (p[1] << 8));
}

inline std::uint32_t loadLe32(const unsigned char* p) {
    return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
           (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}

inline std::uint64_t loadLe64(const unsigned char* p) {
    return static_cast<std::uint64_t>(loadLe32(p)) |
           (static_cast<std::uint64_t>(loadLe32(p + 4)) << 32);
}

} // namespace dumpscope::detail

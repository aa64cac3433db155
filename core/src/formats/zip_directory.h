#pragma once
// The central directory of a zip file (.npz, torch.save): each member's name, method, sizes and
// where its data starts, so that a stored member is read by offset like a raw dump and a
// deflated one inflated as a stream. Zip64 is read; encrypted, split or multi-disk archives and
// methods other than stored (0) and deflate (8) are refused per member or per file.
#include "io/dump_reader.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dumpscope::detail {

struct ZipMember {
    std::string name;
    std::uint16_t method = 0; // 0 stored, 8 deflated
    std::uint64_t compressedSize = 0;
    std::uint64_t uncompressedSize = 0;
    std::uint64_t dataOffset = 0; // byte of the file where the member's (compressed) data starts
    std::uint32_t crc32 = 0;
};

struct ZipDirectory {
    std::vector<ZipMember> members; // central directory order
    std::string error;              // "PATH: byte B: what"; members is then empty
};

// Reads the end-of-central-directory record (searched in the file's last 64 KiB + 22 bytes),
// the central directory and each member's local header (for its data offset). Bounded: refuses
// a directory over kMaxZipDirectoryBytes or over kMaxZipMembers members, and any member whose
// data would lie outside the file.
inline constexpr std::uint64_t kMaxZipDirectoryBytes = std::uint64_t{64} << 20;
inline constexpr std::size_t kMaxZipMembers = 1000000;
ZipDirectory readZipDirectory(const DumpReader& file);

// A whole member into memory, inflating a deflated one: for small members (a torch.save
// data.pkl, an .npz member's .npy header). Reads at most `maxBytes` of inflated data: with
// `prefixOnly` the first min(size, maxBytes) bytes are enough; without it a larger member is
// refused. Empty on success, else "PATH: member NAME: byte B: what".
std::string readMember(const DumpReader& file, const ZipMember& member, std::uint64_t maxBytes,
                       bool prefixOnly, std::string& out);

} // namespace dumpscope::detail

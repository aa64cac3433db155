#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

namespace dumpscope {

// What identifies a file's content without reading it: where it lives, and the size,
// modification time and change time the file system reports. The change time cannot be set
// back, so new bytes under an old modification time (touch -d, rsync -t, cp -p) are seen. A
// file rewritten with the same size inside one tick of the file system's clock keeps its
// identity; that is the price of not reading it.
struct FileIdentity {
    std::uint64_t device = 0, inode = 0, size = 0;
    std::int64_t mtimeNs = 0, ctimeNs = 0;
    bool operator==(const FileIdentity&) const = default;
};
// stat() of the path (following symlinks, as the scan does, and of any length); nullopt when it
// cannot be stat'ed or is not a regular file.
std::optional<FileIdentity> fileIdentity(const std::filesystem::path& path);

} // namespace dumpscope

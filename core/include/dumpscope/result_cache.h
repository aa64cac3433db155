#pragma once

#include "dumpscope/analyze.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>

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

// Remembers each buffer pair's comparison so that an unchanged pair is never read again: the
// incremental reload of the window and the polling of `dumpscope-cli --watch`. One entry per
// pair of files (device and inode of both sides); it is used only when both files still have
// the size, modification and change time it was computed from and everything else that shapes the
// result (element type, resolved shape, tolerance, rounding threshold) is the same, and is
// replaced otherwise. Errors and changed_while_reading are never kept: they are retried. A pair
// with no bytes to read (both sides known by their logged fingerprints) is not kept either: it
// is compared again, which reads no file and costs less than the lookup.
// Thread-safe: analyze() calls it from all its threads.
class ResultCache {
  public:
    struct Stats {
        std::uint64_t hits = 0;      // pairs answered without opening a file
        std::uint64_t misses = 0;    // pairs compared
        std::uint64_t filesRead = 0; // files opened by those comparisons (1 or 2 per pair)
        std::uint64_t entries = 0;   // pairs held now
    };

    // compareFiles(a, b, dtype, options), or the remembered result of it.
    BufferResult compare(const std::filesystem::path& a, const std::filesystem::path& b,
                         DType dtype, const CompareOptions& options);
    // compareSources(a, b, dtype, options), or the remembered result of it. Tensors of one file
    // are told apart by their keys; a rewritten file changes its identity, and with it every
    // tensor's entry.
    BufferResult compare(const BufferSource& a, const BufferSource& b, DType dtype,
                         const CompareOptions& options);

    Stats stats() const;
    void clear();

  private:
    // Both sides' device and inode, then what tells a buffer apart within its file, then whether
    // each side is known by its fingerprint alone.
    using Key = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t, std::string,
                           std::string, bool, bool>;
    struct Entry {
        std::optional<FileIdentity> a, b; // nullopt: that side is absent (a one-sided buffer)
        DType dtype = DType::u8;
        CompareOptions options;
        BufferResult result;
    };
    static bool sameInputs(const Entry& e, const std::optional<FileIdentity>& a,
                           const std::optional<FileIdentity>& b, DType dtype,
                           const CompareOptions& options);

    mutable std::mutex m_mutex;
    std::map<Key, Entry> m_entries;
    Stats m_stats;
};

} // namespace dumpscope

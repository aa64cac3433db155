#pragma once

#include "dumpscope/analyze.h"
#include "dumpscope/file_identity.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace dumpscope {

// Remembers each buffer pair's comparison so that an unchanged pair is never read again: the
// incremental reload of the window and the polling of `dumpscope-cli --watch`. One entry per
// pair of paths (and, within a file, of tensor keys), made from the files as the comparison
// opened them (the fstat() of their descriptors). It is used only when both paths still lead to
// those files (device and inode) with the size, modification and change time it was computed
// from, and everything else that shapes the result (element type, resolved shape, tolerance,
// rounding threshold) is the same, and is replaced otherwise. A pair never kept is compared
// without a stat() of its paths: the first comparison of a run stats no file, a lookup two.
// Errors and changed_while_reading are never kept: they are retried. A pair with no bytes to read
// (both sides known by their logged fingerprints) is not kept either: it is compared again,
// which reads no file and costs less than the lookup.
// Thread-safe: analyze() calls it from all its threads, which lock one of several shards.
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
    struct Entry {
        // What tells the pair apart beyond its paths: each side's key within its file, and
        // whether it is known by its fingerprint alone.
        std::string keyA, keyB;
        bool fingerprintA = false, fingerprintB = false;
        std::optional<FileIdentity> a, b; // nullopt: that side has no file (absent, fingerprint)
        DType dtype = DType::u8;
        CompareOptions options;
        BufferResult result;
    };
    static bool sameInputs(const Entry& e, const Entry& now);

    // By a hash of the pair's paths and keys; an entry says in full what it is for, so two
    // pairs of one hash only cost each other their entries.
    struct Shard {
        mutable std::mutex mutex;
        std::unordered_map<std::uint64_t, Entry> entries;
    };
    static constexpr std::size_t kShards = 16;
    std::array<Shard, kShards> m_shards;
    std::atomic<std::uint64_t> m_hits{0}, m_misses{0}, m_filesRead{0};
};

} // namespace dumpscope

#pragma once
// Inflates one deflated zip member (raw deflate, no zlib header) front to back, reading the
// compressed bytes through DumpReader's preads in bounded chunks: memory stays a few hundred KiB
// whatever the member's size.
#include "io/dump_reader.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace dumpscope::detail {

class InflateStream {
  public:
    InflateStream();
    ~InflateStream();
    InflateStream(InflateStream&&) noexcept;
    InflateStream& operator=(InflateStream&&) noexcept;

    // Starts over at the member's first inflated byte. `file` must outlive the stream. With
    // `checksum`, the CRC-32 of every byte inflated from here on is kept (crc()).
    void reset(const DumpReader& file, std::uint64_t offset, std::uint64_t compressedBytes,
               bool checksum = false);
    // Inflates up to n bytes into out. Returns how many; fewer than n only at the member's end or
    // on an error (then error() is set: "PATH: byte B: deflate data is corrupt: …", B the byte
    // of the file where the compressed data could not be read or inflated).
    std::size_t read(void* out, std::size_t n);
    // Inflates and drops n bytes (to reach an offset); false on an error or an early end.
    bool skip(std::uint64_t n);
    // Inflates and drops the rest of the member, stopping past `limit` inflated bytes (a stream
    // that runs on past its directory's size); true when the stream ended within it.
    bool drain(std::uint64_t limit);
    // Inflated bytes handed out (or skipped) since reset().
    std::uint64_t position() const;
    // The CRC-32 of those bytes, when reset() was asked to keep it.
    std::uint32_t crc() const;
    bool atEnd() const;
    const std::string& error() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// A test hook, defined only in the core's tests (tests/support/test_hooks.cpp): told how many
// bytes each inflate call produced, so a test can know how much inflating a compare did.
namespace hooks {
[[gnu::weak]] void countInflatedBytes(std::uint64_t bytes);
} // namespace hooks

} // namespace dumpscope::detail

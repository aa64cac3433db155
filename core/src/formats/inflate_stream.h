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

    // Starts over at the member's first inflated byte. `file` must outlive the stream.
    void reset(const DumpReader& file, std::uint64_t offset, std::uint64_t compressedBytes);
    // Inflates up to n bytes into out. Returns how many; fewer than n only at the member's end or
    // on an error (then error() is set: "PATH: byte B: deflate data is corrupt: …", B the byte
    // of the file where the compressed data could not be read or inflated).
    std::size_t read(void* out, std::size_t n);
    // Inflates and drops n bytes (to reach an offset); false on an error or an early end.
    bool skip(std::uint64_t n);
    // Inflated bytes handed out (or skipped) since reset().
    std::uint64_t position() const;
    bool atEnd() const;
    const std::string& error() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace dumpscope::detail

#pragma once

#include "dumpscope/buffer_source.h"
#include "dumpscope/dtype.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace dumpscope {

// Read-only random access to the elements of one dump file, by element index. The GUI's element
// table asks for a handful of elements per repaint anywhere in a buffer of hundreds of MB, so
// this reads with pread through a small page cache and never loads the whole file.
//
// All reads are safe from several threads at once (the cache is guarded), so one view can serve
// the table on the GUI thread while a worker scans the same file through readRaw().
class BufferView {
  public:
    BufferView();
    ~BufferView();
    BufferView(BufferView&&) noexcept;
    BufferView& operator=(BufferView&&) noexcept;
    BufferView(const BufferView&) = delete;
    BufferView& operator=(const BufferView&) = delete;

    // Opens `path` read-only with O_NONBLOCK so that a FIFO or device named like a dump cannot
    // hang the reader; anything but a regular file (after symlinks, as the comparison follows
    // them) is refused. Returns
    // false and sets error() (naming the file) on failure; the view is then closed.
    bool open(const std::filesystem::path& path, DType dtype);
    // One side of a buffer: a raw dump as above, or a tensor inside a self-describing file, whose
    // elements are then read in C order of its shape (element 0 at its location's offset).
    bool open(const BufferSource& source, DType dtype);
    void close();
    bool isOpen() const;
    const std::string& error() const;
    const std::filesystem::path& path() const;

    DType dtype() const;
    std::size_t elementSize() const;
    // Whole elements in the file as it was when opened; a ragged tail is not an element.
    std::uint64_t size() const;
    std::uint64_t byteSize() const;
    // Why the file is no longer what was opened (its size or modification time moved), naming
    // it; empty when unchanged. A scan that must not mix two versions checks this at its end.
    std::string changedSinceOpen() const;

    // Raw bits of element `index` (zero-extended), or nullopt past the end or when the read fails
    // (e.g. the file shrank after it was opened). A read that failed or came up short sets
    // `error`, when given, to what compareFiles would say: the file and the byte,
    // "PATH: read error at byte B: …" or "PATH: ended at byte B while being read (expected S)".
    std::optional<std::uint64_t> bits(std::uint64_t index, std::string* error = nullptr) const;

    // Copies the bytes of elements [first, first + count) into `out` (count * elementSize()
    // bytes), bypassing the cache: bulk scans would only evict the table's pages. Returns the
    // number of whole elements copied: fewer near the end, fewer on a short read, none when a
    // read fails. A read that failed or came up short sets `error` as bits() does; stopping at
    // the end of the file as it was opened is not an error.
    std::size_t readRaw(std::uint64_t first, std::size_t count, unsigned char* out,
                        std::string* error = nullptr) const;
    // Same range as readRaw, decoded into one 64-bit word per element.
    std::size_t readBits(std::uint64_t first, std::size_t count, std::uint64_t* out) const;

    // Cache geometry, public so that tests can aim at page boundaries.
    static constexpr std::size_t kPageBytes = 64 * 1024;
    static constexpr std::size_t kCachePages = 8;

  private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// Receives `count` elements of each side starting at element `first`; returns false to stop.
using ChunkPairFn = std::function<bool(const unsigned char* a, const unsigned char* b,
                                       std::size_t count, std::uint64_t first)>;
// Reads elements [0, n) of two views of one element type in chunks of `chunkElements` (two
// buffers of that size, whatever n) and hands each pair of chunks to `fn`, in index order.
// Returns why it could not (a read that failed or came up short, naming the file and the byte,
// as readRaw() says), else empty; a stop asked for by `fn` is not an error.
std::string forEachChunkPair(const BufferView& a, const BufferView& b, std::uint64_t n,
                             std::size_t chunkElements, const ChunkPairFn& fn);

} // namespace dumpscope

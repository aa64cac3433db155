#pragma once
// One dump file opened for reading. compareFiles reads it front to back in chunks, BufferView
// by page and by range; both go through this class, so that a dump is opened, read and found
// changed one way, and a failed read is described alike wherever it happens: the file and the
// byte at which it failed.
#include "io/regular_file.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace dumpscope::detail {

// How far a read of a range got. bytes < the range's length means it stopped early: at the
// file's end when errorNumber is 0, else at a pread that failed with errorNumber.
struct ReadOutcome {
    std::size_t bytes = 0;
    int errorNumber = 0;
};

// Reads exactly n bytes at `offset` through `reader`'s readAt(): empty on success, else the
// reader's describe() of where the read stopped; `ended` is set when the data ended first (no
// read failed). The one rule of DumpReader::readExact and SourceReader::readExact.
template <class Reader>
std::string readExactly(const Reader& reader, void* out, std::size_t n, std::uint64_t offset,
                        bool& ended) {
    const ReadOutcome got = reader.readAt(out, n, offset);
    if (got.bytes == n) return {};
    if (got.errorNumber == 0) ended = true;
    return reader.describe(got, offset);
}

// How the file will be read, for the kernel's read-ahead.
enum class ReadPattern {
    sequential, // front to back once (the comparison): read-ahead pays
    random,     // pages here and there (the element table): no hint
};

class DumpReader {
  public:
    // Opens `path` read-only through openRegularFile(): without blocking on a FIFO, any path
    // length, symlinks followed, anything but a regular file refused. Returns false on failure;
    // error() then names the file and why. Opening again closes what was open first.
    bool open(const std::filesystem::path& path, ReadPattern pattern);
    // Closes the file and forgets what it was; path() stays, for messages.
    void close();

    bool isOpen() const { return m_file.isOpen(); }
    const std::filesystem::path& path() const { return m_path; }
    // "PATH: cannot open: …", "PATH: cannot stat: …", "PATH: not a regular file"; empty when open.
    const std::string& error() const { return m_error; }
    // open() failed because the path leads to something other than a regular file.
    bool notRegular() const { return m_file.notRegular(); }
    // The file as it was when opened: the fstat() of the descriptor.
    const dumpscope::FileIdentity& identity() const { return m_identity; }
    // Bytes at open; 0 when not open.
    std::uint64_t size() const { return m_identity.size; }

    // pread of [offset, offset + n) into `out`, retried on EINTR and continued after a short
    // read, until all of it is read, the file ends or a read fails. Safe from several threads at
    // once: there is no file position. This must stay ::pread (not mmap, not a raw system call):
    // the fault-injection tests interpose on it.
    ReadOutcome readAt(void* out, std::size_t n, std::uint64_t offset) const noexcept;
    // Reads exactly n bytes at `offset`. Empty on success, else what went wrong, naming the file
    // and the byte (see describe()); `ended` is set when the file ended first (it was truncated
    // while being read).
    std::string readExact(void* out, std::size_t n, std::uint64_t offset, bool& ended) const;
    // Why a read from `offset` stopped at `got`: "PATH: read error at byte B: …" or
    // "PATH: ended at byte B while being read (expected SIZE)", B being the first byte not read.
    std::string describe(const ReadOutcome& got, std::uint64_t offset) const;

    // Why the file is no longer what was opened (its size or modification time moved), naming
    // it; empty when it is unchanged. The inode is not compared: fstat() of the descriptor
    // always finds the inode it opened, whatever is renamed over the path since.
    std::string changedSinceOpen() const;

  private:
    std::filesystem::path m_path;
    RegularFile m_file;
    dumpscope::FileIdentity m_identity;
    std::string m_error;
};

} // namespace dumpscope::detail

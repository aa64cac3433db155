#pragma once
// The elements of one buffer, read by their offset in C order whatever holds them: a raw dump
// (the whole file), a contiguous tensor inside a self-describing file, a strided view of a
// saved storage, or a deflated zip member. compareFiles and BufferView read through this class,
// so a tensor in a .pt or .npz file is read with the same chunks, checks and messages as a raw
// dump; only a strided view and a deflated member cost more than a pread.
#include "dumpscope/tensor_location.h"
#include "io/dump_reader.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace dumpscope::detail {

class SourceReader {
  public:
    SourceReader();
    ~SourceReader();
    SourceReader(SourceReader&&) noexcept;
    SourceReader& operator=(SourceReader&&) noexcept;

    // A raw dump: the buffer is the whole file.
    bool open(const std::filesystem::path& path, ReadPattern pattern);
    // A tensor at `location` inside `path`, of `elementSize`-byte elements. A location that does
    // not fit the file as it is now (the file shrank since it was listed) fails here.
    bool open(const std::filesystem::path& path, const TensorLocation& location,
              std::size_t elementSize, ReadPattern pattern);
    void close();

    bool isOpen() const;
    const std::filesystem::path& path() const;
    const std::string& error() const;
    bool notRegular() const;
    // The buffer's bytes: the file's size for a raw dump, count * elementSize for a tensor.
    std::uint64_t size() const;

    // As DumpReader's, in the buffer's bytes (C order of the tensor). Safe from several threads
    // at once (a strided or deflated read is serialised).
    ReadOutcome readAt(void* out, std::size_t n, std::uint64_t offset) const;
    std::string readExact(void* out, std::size_t n, std::uint64_t offset, bool& ended) const;
    // Why a read stopped: DumpReader's words at the file's byte for a raw dump or a contiguous
    // tensor; the tensor and its element otherwise.
    std::string describe(const ReadOutcome& got, std::uint64_t offset) const;
    std::string changedSinceOpen() const;
    // The file as it was when opened (its fstat()), whatever is renamed over its path since.
    dumpscope::FileIdentity openedIdentity() const;

    // Whether this deflated tensor and `other` hold the same compressed stream: the same member
    // sizes, CRC-32, header and element count in the zip directory, and the same compressed
    // bytes on disk. Reads only those bytes, never inflates. "" with `same` set, or why a read
    // failed.
    std::string sameCompressedStream(const SourceReader& other, bool& same) const;
    // Keeps the CRC-32 of a deflated member as it is inflated, for verifyWholeMember(). Call
    // before the first read; nothing for any other buffer.
    void checksumWholeMember();
    // After the elements have been read: inflates the rest of a deflated member and holds all
    // of it to the directory's size and CRC-32. "" when they hold (or for any other buffer),
    // else "PATH: member M: byte B: what".
    std::string verifyWholeMember() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace dumpscope::detail

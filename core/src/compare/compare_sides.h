#pragma once
// What every compare of two sides does alike: open a side for a front-to-back read and check
// that its bytes hold whole elements.
#include "dumpscope/analyze.h"
#include "dumpscope/buffer_source.h"
#include "dumpscope/dtype.h"
#include "dumpscope/file_identity.h"
#include "io/source_reader.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace dumpscope::detail {

// A multiple of every element size; 128 KiB per side keeps both chunks within L2 (1 MiB per
// core here) between the copy out of the page cache and the compare. 256 KiB per side took
// 1-3% more time on the equal-heavy bench pair (23 of 30 alternated rounds), 64 KiB the same
// as 256 (measured, not explained).
inline constexpr std::size_t kChunkBytes = 128 << 10;

// Opens one side for a front-to-back read. A path that is not a regular file says it was not
// read, as the scan says of what it skips.
std::string openSide(SourceReader& file, const BufferSource& side, DType dtype);

// Why `size` bytes are not whole elements of `dtype`; empty when they are.
std::string sizeProblem(const std::filesystem::path& path, std::uint64_t size, DType dtype);

// The files a comparison read, as each was when it was opened (the fstat() of its descriptor):
// what a result can be remembered under without a stat() of the paths before and after. Empty
// for a side with no file read (absent, known by its fingerprint) or one that could not be
// opened.
struct OpenedFiles {
    std::optional<FileIdentity> a, b;
};

// compareSources(), saying in `opened` (when not null) which files it read.
BufferResult compareSides(const BufferSource& a, const BufferSource& b, DType dtype,
                          const CompareOptions& options, OpenedFiles* opened);

} // namespace dumpscope::detail

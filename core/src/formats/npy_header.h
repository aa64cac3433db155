#pragma once
// The header of one .npy array, wherever its bytes come from: the front of a .npy file or the
// first inflated bytes of an .npz member. Parsing never evaluates anything: the dictionary is
// read by a small parser of exactly the literal numpy writes.
#include "dumpscope/dtype.h"
#include "formats/tensor_entry.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dumpscope::detail {

// numpy writes headers of a few hundred bytes at most (64-byte aligned); anything past this is
// not a header dumpscope reads.
inline constexpr std::uint64_t kMaxNpyHeaderBytes = std::uint64_t{1} << 20;
// Enough of an array's first bytes to hold the headers numpy writes for plain arrays.
inline constexpr std::uint64_t kNpyPrefixBytes = 4096;

struct NpyHeader {
    std::optional<DType> dtype; // null for `|V2`, `<c8`, ...: typeName says what
    std::string typeName;       // the descr as written: "<f4", "|b1", "<V2"
    std::uint64_t itemBytes = 0;
    std::vector<std::uint64_t> shape;
    bool fortranOrder = false;
    std::uint64_t count = 0;       // elements: the product of the shape (1 for 0-d)
    std::uint64_t dataBytes = 0;   // count * itemBytes
    std::uint64_t headerBytes = 0; // bytes before element 0: magic, version, length, dictionary
};

// What is wrong, and the byte of the array's bytes (the file's, or the member's inflated ones)
// where it is; `what` is empty when all is well.
struct NpyProblem {
    std::uint64_t byte = 0;
    std::string what;
    bool ok() const { return what.empty(); }
};

// From the first min(10 or 12, n) bytes: how many bytes the whole header takes (headerBytes).
NpyProblem npyHeaderBytes(const unsigned char* bytes, std::size_t n, std::uint64_t& headerBytes);
// Parses a whole header: `n` must be at least what npyHeaderBytes() said.
NpyProblem parseNpyHeader(const unsigned char* bytes, std::size_t n, NpyHeader& header);

// The entry for a parsed header whose element 0 lies at `dataOffset` of `file`: shape, type,
// count, extent, and strides when the data is in Fortran order.
TensorEntry npyEntry(const NpyHeader& header, const std::string& file, std::uint64_t dataOffset);

} // namespace dumpscope::detail

#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dumpscope {

// Where the elements of one tensor lie inside a self-describing file (.npy, .npz, safetensors,
// torch.save). A raw dump needs none: its elements are the whole file. The elements are always
// read in C order of the tensor's shape, whatever the layout on disk.
struct TensorLocation {
    std::string file;   // the file holding the tensor, relative to the run directory
    std::string member; // the zip member holding the data ("archive/data/0"); empty outside a zip
    std::string key;    // the tensor's key in the file ("layer1.attn.out"); empty for one .npy
    // Byte in `file` where element 0 lies (for a deflated member: where its compressed data
    // starts).
    std::uint64_t offset = 0;
    std::uint64_t count = 0; // elements of the tensor: the product of its shape
    // A view that is not contiguous in C order (a saved slice, a transpose, numpy's
    // fortran_order): the view's sizes and strides in elements, from `offset`. Empty when the
    // `count` elements lie one after another.
    std::vector<std::uint64_t> sizes;
    std::vector<std::uint64_t> strides;
    // Bytes available from `offset` that the elements may touch (the storage's extent): a
    // strided read past it is refused, not read from whatever follows in the file.
    std::uint64_t extentBytes = 0;
    // A deflated zip member: `compressedBytes` of deflate data at `offset`; its first
    // `skipBytes` inflated bytes are not elements (the .npy header inside an .npz member).
    // The zip directory's inflated size and CRC-32 of the whole member (header included).
    bool deflated = false;
    std::uint64_t compressedBytes = 0;
    std::uint64_t skipBytes = 0;
    std::uint64_t inflatedBytes = 0;
    std::uint32_t crc32 = 0;

    bool contiguous() const { return strides.empty(); }
};

} // namespace dumpscope

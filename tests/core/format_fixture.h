#pragma once
// Shared by the format tests: opening a fixture or a hostile copy of one, and patching the
// little-endian fields of a zip's records in that copy.
#include "dumpscope/tensor_location.h"
#include "formats/inflate_stream.h"
#include "io/dump_reader.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>

namespace dumpscope::test {

inline std::filesystem::path formatsDir() {
    return testDataDir() / "formats";
}

inline detail::DumpReader openFile(const std::filesystem::path& path) {
    detail::DumpReader reader;
    EXPECT_TRUE(reader.open(path, detail::ReadPattern::random)) << reader.error();
    return reader;
}

inline void putLe(std::string& bytes, std::size_t at, std::uint64_t value, int width) {
    for (int i = 0; i < width; ++i)
        bytes[at + i] = static_cast<char>((value >> (8 * i)) & 0xff);
}

inline std::uint64_t getLe(const std::string& bytes, std::size_t at, int width) {
    std::uint64_t value = 0;
    for (int i = width; i-- > 0;)
        value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
    return value;
}

// The byte where the last record with this 4-byte signature starts (npos when none).
inline std::size_t lastRecord(const std::string& bytes, std::uint32_t signature) {
    std::string s(4, '\0');
    putLe(s, 0, signature, 4);
    return bytes.rfind(s);
}

inline std::string hexToBytes(const std::string& hex) {
    std::string out(hex.size() / 2, '\0');
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
    return out;
}

// The elements a location names, in C order of its shape, read the way the element reader
// will: pread at the offset, or inflate past skipBytes; strides gather a Fortran-order array.
inline std::string readElements(const detail::DumpReader& file, const TensorLocation& at,
                                std::size_t itemBytes) {
    std::string extent(at.extentBytes, '\0');
    if (at.deflated) {
        detail::InflateStream stream;
        stream.reset(file, at.offset, at.compressedBytes);
        EXPECT_TRUE(stream.skip(at.skipBytes)) << stream.error();
        EXPECT_EQ(stream.read(extent.data(), extent.size()), extent.size()) << stream.error();
    } else {
        bool ended = false;
        EXPECT_EQ(file.readExact(extent.data(), extent.size(), at.offset, ended), "");
    }
    if (at.contiguous()) return extent.substr(0, at.count * itemBytes);
    std::string out;
    std::vector<std::uint64_t> index(at.sizes.size(), 0);
    for (std::uint64_t n = 0; n < at.count; ++n) {
        std::uint64_t element = 0;
        for (std::size_t d = 0; d < index.size(); ++d)
            element += index[d] * at.strides[d];
        out += extent.substr(element * itemBytes, itemBytes);
        for (std::size_t d = index.size(); d-- > 0;) { // C order: the last index moves fastest
            if (++index[d] < at.sizes[d]) break;
            index[d] = 0;
        }
    }
    return out;
}

} // namespace dumpscope::test

#pragma once
// Raw deflate (no zlib wrapper) of bytes, as a zip member of method 8 holds them: what the
// format tests write into the .npz and torch.save files they build.
#include <gtest/gtest.h>
#include <zlib.h>

#include <string>

namespace dumpscope::test {

// `level` 6 is zlib's default, as numpy's zipfile writes.
inline std::string deflateRaw(const std::string& data, int level = 6) {
    z_stream z{};
    EXPECT_EQ(deflateInit2(&z, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
    std::string out(deflateBound(&z, data.size()), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

} // namespace dumpscope::test

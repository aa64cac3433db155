// InflateStream on members deflated by numpy (through zipfile) and on raw deflate data written
// by zlib here, larger than its input chunk: exact bytes, any read size, skip(), and corrupt or
// truncated data reported at its byte.
#include "deflate_raw.h"
#include "format_fixture.h"
#include "formats/inflate_stream.h"
#include "formats/zip_directory.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <random>

using namespace dumpscope;
using namespace dumpscope::test;
using detail::InflateStream;

namespace {

// 600 KiB that barely compress (random bytes, with a few runs), so that the compressed data
// spans several of the stream's input chunks.
std::string incompressible() {
    std::mt19937 rng(7);
    std::string data(600 * 1024, '\0');
    for (std::size_t i = 0; i < data.size(); ++i)
        data[i] = (i / 4096) % 5 == 0 ? 'z' : static_cast<char>(rng());
    return data;
}

// `deflated` written at byte 1000 of a file, between bytes that are not deflate data.
struct DeflatedFile {
    TempDir dir;
    std::filesystem::path path = dir / "member.bin";
    std::string plain = incompressible();
    std::string deflated = deflateRaw(plain);
    static constexpr std::uint64_t kAt = 1000;

    DeflatedFile() {
        const std::string bytes = std::string(kAt, '\x55') + deflated + std::string(500, '\xaa');
        writeBytes(path, bytes.data(), bytes.size());
    }
};

} // namespace

TEST(InflateStream, ReadsADeflatedNpzMemberInAnyReadSize) {
    const auto file = openFile(formatsDir() / "npz" / "big_deflated.npz");
    const auto zip = detail::readZipDirectory(file);
    ASSERT_EQ(zip.error, "");
    ASSERT_EQ(zip.members[0].name, "big.npy");
    const detail::ZipMember& big = zip.members[0];
    ASSERT_EQ(big.method, 8);
    for (std::size_t piece : {std::size_t{1} << 20, std::size_t{7777}, std::size_t{65536}}) {
        InflateStream stream;
        stream.reset(file, big.dataOffset, big.compressedSize);
        std::string all(big.uncompressedSize + 100, '\0');
        std::size_t got = 0;
        while (got < all.size()) {
            const std::size_t n = stream.read(all.data() + got, std::min(piece, all.size() - got));
            got += n;
            if (n == 0) break;
        }
        EXPECT_EQ(stream.error(), "");
        EXPECT_TRUE(stream.atEnd());
        ASSERT_EQ(got, big.uncompressedSize) << piece;
        EXPECT_EQ(stream.position(), big.uncompressedSize);
        all.resize(got);
        // The .npy inside: its header, then element i == i % 251 as <u4.
        ASSERT_EQ(all.compare(0, 6, "\x93NUMPY"), 0);
        const std::size_t data = got - 120000 * 4;
        bool same = true;
        for (std::uint32_t i = 0; i < 120000 && same; ++i)
            same = getLe(all, data + 4 * i, 4) == i % 251;
        EXPECT_TRUE(same) << piece;
        EXPECT_EQ(crc32_z(0, reinterpret_cast<const Bytef*>(all.data()), all.size()), big.crc32);
    }
}

TEST(InflateStream, ReadsAcrossInputChunksAndSkips) {
    DeflatedFile f;
    ASSERT_GT(f.deflated.size(), 300u * 1024); // several input chunks
    const auto file = openFile(f.path);
    InflateStream stream;
    stream.reset(file, DeflatedFile::kAt, f.deflated.size());
    std::string out(f.plain.size(), '\0');
    std::size_t got = 0;
    while (got < out.size()) {
        const std::size_t n =
            stream.read(out.data() + got, std::min<std::size_t>(100003, out.size() - got));
        ASSERT_GT(n, 0u) << stream.error();
        got += n;
    }
    EXPECT_EQ(out, f.plain);
    char extra = 0;
    EXPECT_EQ(stream.read(&extra, 1), 0u);
    EXPECT_TRUE(stream.atEnd());
    EXPECT_EQ(stream.error(), "");

    // skip() lands exactly where read() would have.
    stream.reset(file, DeflatedFile::kAt, f.deflated.size());
    ASSERT_TRUE(stream.skip(250001));
    EXPECT_EQ(stream.position(), 250001u);
    std::string rest(f.plain.size() - 250001, '\0');
    EXPECT_EQ(stream.read(rest.data(), rest.size()), rest.size());
    EXPECT_EQ(rest, f.plain.substr(250001));
    // Skipping past the end stops at the end.
    stream.reset(file, DeflatedFile::kAt, f.deflated.size());
    EXPECT_FALSE(stream.skip(f.plain.size() + 1));
    EXPECT_EQ(stream.position(), f.plain.size());
    EXPECT_EQ(stream.error(), "");
}

TEST(InflateStream, ReportsTruncatedDeflateDataAtItsByte) {
    DeflatedFile f;
    const auto file = openFile(f.path);
    InflateStream stream;
    const std::uint64_t half = f.deflated.size() / 2;
    stream.reset(file, DeflatedFile::kAt, half);
    std::string out(f.plain.size(), '\0');
    EXPECT_LT(stream.read(out.data(), out.size()), f.plain.size());
    EXPECT_FALSE(stream.atEnd());
    EXPECT_EQ(stream.error(), f.path.string() + ": byte " +
                                  std::to_string(DeflatedFile::kAt + half) +
                                  ": deflate data is corrupt: it stops before the end of the "
                                  "stream (" +
                                  std::to_string(half) + " compressed bytes)");
}

TEST(InflateStream, ReportsCorruptDeflateData) {
    TempDir dir;
    // A deflate block header of type 3, which does not exist.
    const std::string bytes = std::string(10, '\0') + "\xff\xff\xff\xff";
    writeBytes(dir / "bad.bin", bytes.data(), bytes.size());
    const auto file = openFile(dir / "bad.bin");
    InflateStream stream;
    stream.reset(file, 10, 4);
    char out[16];
    EXPECT_EQ(stream.read(out, sizeof out), 0u);
    EXPECT_EQ(stream.error().rfind((dir / "bad.bin").string() + ": byte 1", 0), 0u)
        << stream.error();
    EXPECT_NE(stream.error().find(": deflate data is corrupt: invalid block type"),
              std::string::npos)
        << stream.error();
    EXPECT_FALSE(stream.skip(1));
}

TEST(InflateStream, ReportsCompressedBytesPastTheFile) {
    DeflatedFile f;
    const auto file = openFile(f.path);
    InflateStream stream;
    // The member claims more compressed bytes than follow it, and its data is cut short.
    const std::uint64_t at = file.size() - 100;
    stream.reset(file, at, 5000);
    std::string out(1000, '\0');
    stream.read(out.data(), out.size());
    EXPECT_EQ(stream.error(), f.path.string() + ": ended at byte " + std::to_string(file.size()) +
                                  " while being read (expected " + std::to_string(file.size()) +
                                  ")");
}

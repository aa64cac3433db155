// A deflated .npz member in both runs: held whole to its directory's size and CRC-32 once its
// elements are read, and inflated once when both runs hold the same compressed bytes, with the
// statistics any equal pair gets. The work is counted by the inflate test hook, never timed.
#include "deflate_raw.h"
#include "dumpscope/analyze.h"
#include "format_fixture.h"
#include "formats/tensor_entry.h"
#include "test_hooks.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <limits>
#include <memory>

using namespace dumpscope;
using namespace dumpscope::test;
namespace fs = std::filesystem;

namespace {

void putLe(std::string& out, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i)
        out += static_cast<char>((v >> (8 * i)) & 0xff);
}

// A .npy (version 1.0) of float32 `values`, its header padded as numpy pads it.
std::string npyOf(const std::vector<float>& values) {
    std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                       std::to_string(values.size()) + ",), } ";
    while ((10 + dict.size() + 1) % 64 != 0)
        dict += ' ';
    dict += '\n';
    std::string out("\x93NUMPY\x01\x00", 8);
    putLe(out, dict.size(), 2);
    out += dict;
    out.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
    return out;
}

// Raw deflate of `plain` made of stored blocks alone: its size depends only on the plain size.
// `padding` fills the five unused bits after each block's header, which an inflater ignores:
// another value is other compressed bytes of the same size for the same plain bytes.
std::string storedDeflate(const std::string& plain, unsigned padding) {
    std::string out;
    for (std::size_t at = 0; at < plain.size(); at += 65535) {
        const std::size_t len = std::min<std::size_t>(65535, plain.size() - at);
        const bool last = at + len == plain.size();
        out += static_cast<char>((last ? 1 : 0) | (padding << 3));
        putLe(out, len, 2);
        putLe(out, ~len & 0xffff, 2);
        out += plain.substr(at, len);
    }
    return out;
}

// A zip of one deflated member "x.npy" holding `compressed`, its directory saying `plain`'s
// size and `crc`.
std::string npzOf(const std::string& plain, const std::string& compressed, std::uint32_t crc) {
    const std::string name = "x.npy";
    auto fields = [&](std::string& s) {
        putLe(s, 20, 2); // version needed
        putLe(s, 0, 2);  // flags
        putLe(s, 8, 2);  // deflated
        putLe(s, 0, 4);  // time, date
        putLe(s, crc, 4);
        putLe(s, compressed.size(), 4);
        putLe(s, plain.size(), 4);
        putLe(s, name.size(), 2);
        putLe(s, 0, 2); // extra
    };
    std::string out("PK\x03\x04", 4);
    fields(out);
    out += name + compressed;
    const std::size_t central = out.size();
    out += std::string("PK\x01\x02", 4);
    putLe(out, 20, 2); // version made by
    fields(out);
    putLe(out, 0, 2); // comment
    putLe(out, 0, 4); // disk, internal attributes
    putLe(out, 0, 4); // external attributes
    putLe(out, 0, 4); // local header
    out += name;
    const std::size_t centralBytes = out.size() - central;
    out += std::string("PK\x05\x06", 4);
    putLe(out, 0, 4);
    putLe(out, 1, 2);
    putLe(out, 1, 2);
    putLe(out, centralBytes, 4);
    putLe(out, central, 4);
    putLe(out, 0, 2);
    return out;
}

std::uint32_t crcOf(const std::string& plain) {
    return static_cast<std::uint32_t>(
        crc32_z(0L, reinterpret_cast<const Bytef*>(plain.data()), plain.size()));
}

// 100,000 floats with NaNs, infinities and a -0, so the equal pair's counts are not all zero.
std::vector<float> values() {
    std::vector<float> v(100000);
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<float>(i % 977) * 0.25f - 3.0f;
    v[5] = std::numeric_limits<float>::quiet_NaN();
    v[70000] = std::numeric_limits<float>::quiet_NaN();
    v[123] = std::numeric_limits<float>::infinity();
    v[99999] = -0.0f;
    return v;
}

// The one tensor of an .npz written at `path`, as the scan finds it.
BufferSource sourceOf(const fs::path& path) {
    const auto reader = openFile(path);
    const detail::ContainerListing listing = detail::listNpz(reader, path.filename().string());
    EXPECT_EQ(listing.error, "");
    EXPECT_TRUE(listing.refused.empty());
    EXPECT_EQ(listing.tensors.size(), 1u);
    if (listing.tensors.empty()) return {};
    return {path, std::make_shared<const TensorLocation>(listing.tensors[0].location)};
}

struct Compared {
    BufferResult result;
    std::uint64_t inflated = 0; // bytes inflated by the compare
};

Compared compareNpz(const fs::path& a, const fs::path& b) {
    const BufferSource sa = sourceOf(a), sb = sourceOf(b);
    const std::uint64_t before = detail::inflatedBytes();
    Compared c;
    c.result = compareSources(sa, sb, DType::f32, CompareOptions{});
    c.inflated = detail::inflatedBytes() - before;
    return c;
}

fs::path write(const TempDir& dir, const std::string& name, const std::string& bytes) {
    writeBytes(dir / name, bytes.data(), bytes.size());
    return dir / name;
}

} // namespace

TEST(InflateOnce, IdenticalMembersAreInflatedOnceWithAnEqualPairsStatistics) {
    TempDir dir;
    const std::vector<float> v = values();
    const std::string plain = npyOf(v);
    const std::string npz = npzOf(plain, deflateRaw(plain), crcOf(plain));
    const Compared once = compareNpz(write(dir, "a.npz", npz), write(dir, "b.npz", npz));
    EXPECT_EQ(once.result.status, Status::equal) << once.result.error;
    // The whole member, header included, inflated one time for both sides.
    EXPECT_EQ(once.inflated, plain.size());

    // The same elements as two raw dumps, read on both sides: the same statistics.
    writeArray(dir / "a.bin", v);
    writeArray(dir / "b.bin", v);
    const BufferResult raw = compareFiles(dir / "a.bin", dir / "b.bin", DType::f32);
    ASSERT_EQ(raw.status, Status::equal);
    const BufferStats &s = once.result.stats, &r = raw.stats;
    EXPECT_EQ(s.nA, 100000u);
    EXPECT_EQ(s.nB, 100000u);
    EXPECT_EQ(s.nDiff, 0u);
    EXPECT_EQ(s.hashA, r.hashA);
    EXPECT_EQ(s.hashB, r.hashB);
    EXPECT_EQ(s.hashA, s.hashB);
    EXPECT_EQ(s.nanA, 2u);
    EXPECT_EQ(s.nanB, 2u);
    EXPECT_EQ(s.infA, 1u);
    EXPECT_EQ(s.infB, 1u);
    EXPECT_EQ(s.maxAbsA, r.maxAbsA);
    EXPECT_EQ(s.maxAbsB, r.maxAbsB);
    EXPECT_EQ(once.result.kind, raw.kind);
}

TEST(InflateOnce, ANumpyMemberInBothRunsIsInflatedOnce) {
    TempDir dir;
    const fs::path npz = formatsDir() / "npz" / "big_deflated.npz";
    fs::copy_file(npz, dir / "a.npz");
    fs::copy_file(npz, dir / "b.npz");
    const auto reader = openFile(npz);
    const detail::ContainerListing listing = detail::listNpz(reader, "a.npz");
    ASSERT_FALSE(listing.tensors.empty());
    const TensorLocation& big = listing.tensors[0].location;
    const BufferSource a{dir / "a.npz", std::make_shared<const TensorLocation>(big)};
    const BufferSource b{dir / "b.npz", a.location};
    const std::uint64_t before = detail::inflatedBytes();
    const BufferResult r = compareSources(a, b, DType::u32, CompareOptions{});
    EXPECT_EQ(detail::inflatedBytes() - before, big.inflatedBytes);
    EXPECT_EQ(r.status, Status::equal) << r.error;
    EXPECT_EQ(r.stats.nA, 120000u);
    EXPECT_EQ(r.stats.nB, 120000u);
}

TEST(InflateOnce, OtherCompressedBytesOfTheSameSizeAreReadOnBothSides) {
    TempDir dir;
    std::vector<float> v = values();
    const std::string plain = npyOf(v);
    // The same plain bytes, CRC-32 and compressed size; other compressed bytes.
    const Compared same =
        compareNpz(write(dir, "a.npz", npzOf(plain, storedDeflate(plain, 0), crcOf(plain))),
                   write(dir, "b.npz", npzOf(plain, storedDeflate(plain, 1), crcOf(plain))));
    EXPECT_EQ(same.result.status, Status::equal) << same.result.error;
    EXPECT_EQ(same.inflated, 2 * plain.size());
    // Other elements in a member of the same compressed size.
    v[4321] = 17.0f;
    const std::string other = npyOf(v);
    ASSERT_EQ(storedDeflate(other, 0).size(), storedDeflate(plain, 0).size());
    const Compared diverge = compareNpz(
        dir / "a.npz", write(dir, "c.npz", npzOf(other, storedDeflate(other, 0), crcOf(other))));
    EXPECT_EQ(diverge.result.status, Status::diverge) << diverge.result.error;
    EXPECT_EQ(diverge.result.stats.nDiff, 1u);
    ASSERT_TRUE(diverge.result.stats.firstDiff);
    EXPECT_EQ(*diverge.result.stats.firstDiff, 4321u);
    EXPECT_EQ(diverge.inflated, 2 * plain.size());
}

TEST(InflateOnce, TheSameCorruptMemberInBothRunsIsStillAnError) {
    TempDir dir;
    const std::string plain = npyOf(values());
    // A CRC-32 that the inflated bytes do not have: read once, still refused.
    const std::string wrongCrc = npzOf(plain, deflateRaw(plain), crcOf(plain) ^ 1);
    const Compared crc = compareNpz(write(dir, "a.npz", wrongCrc), write(dir, "b.npz", wrongCrc));
    EXPECT_EQ(crc.result.status, Status::error);
    EXPECT_NE(crc.result.error.find((dir / "a.npz").string() + ": member x.npy: byte "),
              std::string::npos)
        << crc.result.error;
    EXPECT_NE(crc.result.error.find("its CRC-32 does not match the directory's"), std::string::npos)
        << crc.result.error;
    // Against a good member (read on both sides), the same refusal.
    const std::string good = npzOf(plain, deflateRaw(plain), crcOf(plain));
    const Compared oneBad = compareNpz(write(dir, "c.npz", good), dir / "b.npz");
    EXPECT_EQ(oneBad.result.status, Status::error);
    EXPECT_NE(oneBad.result.error.find("its CRC-32 does not match"), std::string::npos)
        << oneBad.result.error;

    // Deflate data that cannot be inflated past its first block (the second block's lengths
    // disagree): the .npy header still lists, the elements are refused.
    std::string broken = storedDeflate(plain, 0);
    broken[65535 + 5 + 3] ^= 0x40;
    const std::string corrupt = npzOf(plain, broken, crcOf(plain));
    const Compared bad = compareNpz(write(dir, "d.npz", corrupt), write(dir, "e.npz", corrupt));
    EXPECT_EQ(bad.result.status, Status::error);
    EXPECT_NE(bad.result.error.find("deflate data is corrupt"), std::string::npos)
        << bad.result.error;
}

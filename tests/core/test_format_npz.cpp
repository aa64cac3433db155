// listNpz on archives np.savez and np.savez_compressed wrote: members in savez's order, keys
// from member names, stored data found by offset and deflated data through InflateStream, both
// reading back numpy's bytes; members that are not arrays, or broken, are skipped with a warning.
#include "format_fixture.h"
#include "formats/tensor_entry.h"
#include "formats/zip_directory.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <zlib.h>

using namespace dumpscope;
using namespace dumpscope::test;
using detail::ContainerListing;
using detail::listNpz;

namespace {

std::size_t itemBytes(const std::string& descr) {
    return std::stoul(descr.substr(2));
}

// Lists `file` (under tests/data/formats) and checks every tensor against the manifest.
ContainerListing listAndCheck(const std::string& file, bool deflated) {
    const auto manifest = nlohmann::json::parse(readFile(formatsDir() / "manifest.json"));
    const auto reader = openFile(formatsDir() / file);
    ContainerListing listing = listNpz(reader, file);
    EXPECT_EQ(listing.error, "");
    for (const detail::TensorEntry& t : listing.tensors) {
        SCOPED_TRACE(file + " " + t.key);
        const auto& expected = manifest.at(file).at(t.key);
        EXPECT_EQ(t.typeName, expected["descr"]);
        EXPECT_EQ(t.shape, expected["shape"].get<std::vector<std::uint64_t>>());
        EXPECT_EQ(t.location.file, file);
        EXPECT_EQ(t.location.key, t.key);
        EXPECT_EQ(t.location.member, t.key + ".npy");
        EXPECT_EQ(t.location.deflated, deflated);
        if (expected.contains("hex")) {
            EXPECT_EQ(readElements(reader, t.location, itemBytes(t.typeName)),
                      hexToBytes(expected["hex"]));
        }
    }
    return listing;
}

std::vector<std::string> keys(const ContainerListing& listing) {
    std::vector<std::string> out;
    for (const auto& t : listing.tensors)
        out.push_back(t.key);
    return out;
}

const std::vector<std::string> kSavezOrder = {"a", "b", "c", "d", "s", "t"};

} // namespace

TEST(NpzListing, StoredMembersAreReadByOffset) {
    const ContainerListing listing = listAndCheck("npz/stored.npz", false);
    EXPECT_EQ(keys(listing), kSavezOrder);
    EXPECT_TRUE(listing.warnings.empty());
    // Element 0 of "b" (int64 -3) is where the listing says, in the archive's bytes.
    const std::string bytes = readFile(formatsDir() / "npz" / "stored.npz");
    EXPECT_EQ(static_cast<std::int64_t>(getLe(bytes, listing.tensors[1].location.offset, 8)), -3);
    EXPECT_EQ(listing.tensors[2].dtype, DType::u8); // numpy's bool
    EXPECT_EQ(listing.tensors[4].shape, std::vector<std::uint64_t>{});
    EXPECT_EQ(listing.tensors[5].location.strides, (std::vector<std::uint64_t>{1, 3}));
}

TEST(NpzListing, DeflatedMembersAreInflatedPastTheirHeader) {
    const ContainerListing listing = listAndCheck("npz/deflated.npz", true);
    EXPECT_EQ(keys(listing), kSavezOrder);
    const auto reader = openFile(formatsDir() / "npz" / "deflated.npz");
    const auto zip = detail::readZipDirectory(reader);
    ASSERT_EQ(zip.error, "");
    for (std::size_t i = 0; i < listing.tensors.size(); ++i) {
        const TensorLocation& at = listing.tensors[i].location;
        EXPECT_EQ(at.offset, zip.members[i].dataOffset);
        EXPECT_EQ(at.compressedBytes, zip.members[i].compressedSize);
        // The .npy header numpy wrote is 64-byte aligned, and the data fills the rest.
        EXPECT_EQ(at.skipBytes % 64, 0u);
        EXPECT_EQ(at.skipBytes + at.extentBytes, zip.members[i].uncompressedSize);
    }
}

TEST(NpzListing, LargeDeflatedMemberReadsBackEveryElement) {
    const ContainerListing listing = listAndCheck("npz/big_deflated.npz", true);
    ASSERT_EQ(keys(listing), (std::vector<std::string>{"big", "after"}));
    const auto reader = openFile(formatsDir() / "npz" / "big_deflated.npz");
    const std::string elements = readElements(reader, listing.tensors[0].location, 4);
    ASSERT_EQ(elements.size(), 120000u * 4);
    bool same = true;
    for (std::uint32_t i = 0; i < 120000 && same; ++i)
        same = getLe(elements, 4 * i, 4) == i % 251;
    EXPECT_TRUE(same);
}

TEST(NpzListing, FoldersBecomeDottedKeysAndOtherMembersAreRefused) {
    const auto reader = openFile(formatsDir() / "npz" / "folders.npz");
    const ContainerListing listing = listNpz(reader, "folders.npz");
    ASSERT_EQ(listing.error, "");
    EXPECT_EQ(keys(listing), (std::vector<std::string>{"enc.layer0.out", "top"}));
    EXPECT_EQ(listing.tensors[0].location.member, "enc/layer0/out.npy");
    EXPECT_TRUE(listing.warnings.empty());
    ASSERT_EQ(listing.refused.size(), 1u);
    EXPECT_EQ(listing.refused[0].key, "notes.txt");
    EXPECT_EQ(listing.refused[0].error,
              reader.path().string() +
                  ": member notes.txt: not a .npy array (np.savez writes only .npy members)");
}

TEST(NpzListing, Zip64Archive) {
    const ContainerListing listing = listAndCheck("npz/zip64.npz", false);
    EXPECT_EQ(keys(listing), (std::vector<std::string>{"first", "second"}));
}

TEST(NpzListing, ABrokenMemberIsRefusedAndTheOthersListed) {
    TempDir dir;
    std::string bytes = readFile(formatsDir() / "npz" / "stored.npz");
    const auto original = detail::readZipDirectory(openFile(formatsDir() / "npz" / "stored.npz"));
    ASSERT_EQ(original.error, "");
    // Member b's descr made big-endian, its checksum in the central directory made to match:
    // the member's header, not the zip, is what is refused.
    const detail::ZipMember& b = original.members[1];
    const std::size_t descr = bytes.find("'<i8'", b.dataOffset);
    ASSERT_LT(descr, b.dataOffset + 128);
    bytes[descr + 1] = '>';
    const auto fixChecksum = [&](const detail::ZipMember& m) {
        const auto crc = crc32_z(0, reinterpret_cast<const Bytef*>(bytes.data() + m.dataOffset),
                                 m.compressedSize);
        std::string central(4, '\0');
        putLe(central, 0, 0x02014b50, 4);
        for (std::size_t at = bytes.find(central); at != std::string::npos;
             at = bytes.find(central, at + 1))
            if (bytes.compare(at + 46, m.name.size(), m.name) == 0) putLe(bytes, at + 16, crc, 4);
    };
    fixChecksum(b);
    // Member d's header made to claim more elements than the member holds.
    const detail::ZipMember& d = original.members[3];
    const std::size_t shape = bytes.find("(4,)", d.dataOffset);
    ASSERT_LT(shape, d.dataOffset + 128);
    bytes[shape + 1] = '9';
    fixChecksum(d);
    writeBytes(dir / "broken.npz", bytes.data(), bytes.size());

    const auto reader = openFile(dir / "broken.npz");
    const ContainerListing listing = listNpz(reader, "broken.npz");
    ASSERT_EQ(listing.error, "");
    EXPECT_EQ(keys(listing), (std::vector<std::string>{"a", "c", "s", "t"}));
    const std::string path = (dir / "broken.npz").string();
    ASSERT_EQ(listing.refused.size(), 2u);
    EXPECT_EQ(listing.refused[0].key, "b");
    EXPECT_EQ(listing.refused[0].error,
              path + ": member b.npy: byte " + std::to_string(descr - b.dataOffset) +
                  ": big-endian data (>i8) is not supported: save it little-endian");
    EXPECT_EQ(listing.refused[1].key, "d");
    EXPECT_EQ(listing.refused[1].error,
              path + ": member d.npy: byte 128: the member is truncated: 9 elements of <f2 need "
                     "18 bytes, 8 follow the header");
}

TEST(NpzListing, NotAZipIsRefused) {
    const auto reader = openFile(formatsDir() / "npy" / "dtype_float32.npy");
    const ContainerListing listing = listNpz(reader, "x.npz");
    EXPECT_TRUE(listing.tensors.empty());
    EXPECT_EQ(listing.error, reader.path().string() +
                                 ": byte 0: not a zip archive: no end-of-central-directory record "
                                 "in its last 160 bytes");
}

// The zip directory on archives written by Python's zipfile, numpy and torch.save, and on
// hostile copies of them: every refusal names the file and the byte.
#include "format_fixture.h"
#include "formats/zip_directory.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace dumpscope;
using namespace dumpscope::test;
using detail::readMember;
using detail::readZipDirectory;
using detail::ZipDirectory;

namespace {

constexpr std::uint32_t kEnd = 0x06054b50;
constexpr std::uint32_t kZip64End = 0x06064b50;
constexpr std::uint32_t kCentral = 0x02014b50;

// The central entry of the member named `name` in the archive's bytes.
std::size_t centralEntry(const std::string& bytes, const std::string& name) {
    std::string signature(4, '\0');
    putLe(signature, 0, kCentral, 4);
    for (std::size_t at = bytes.find(signature); at != std::string::npos;
         at = bytes.find(signature, at + 1)) {
        const auto nameBytes = static_cast<std::size_t>(getLe(bytes, at + 28, 2));
        if (bytes.compare(at + 46, nameBytes, name) == 0) return at;
    }
    ADD_FAILURE() << "no central entry " << name;
    return 0;
}

// A hostile copy of a fixture, written into `dir` after `edit` changed its bytes.
struct Hostile {
    TempDir dir;
    std::filesystem::path path;
    std::string bytes;

    explicit Hostile(const std::string& fixture)
        : path(dir / "hostile.zip"), bytes(readFile(formatsDir() / fixture)) {}
    ZipDirectory read() {
        writeBytes(path, bytes.data(), bytes.size());
        return readZipDirectory(openFile(path));
    }
};

std::string memberText(const detail::DumpReader& file, const detail::ZipMember& member) {
    std::string out;
    const std::string error = readMember(file, member, 1 << 20, false, out);
    EXPECT_EQ(error, "");
    return out;
}

} // namespace

TEST(ZipDirectory, ListsStoredDeflatedAndEmptyMembersBeforeAComment) {
    const auto file = openFile(formatsDir() / "zip" / "mixed.zip");
    const ZipDirectory zip = readZipDirectory(file);
    ASSERT_EQ(zip.error, "");
    ASSERT_EQ(zip.members.size(), 3u);
    EXPECT_EQ(zip.members[0].name, "stored.bin");
    EXPECT_EQ(zip.members[0].method, 0);
    EXPECT_EQ(zip.members[0].uncompressedSize, 200u);
    EXPECT_EQ(zip.members[1].name, "deflated.txt");
    EXPECT_EQ(zip.members[1].method, 8);
    EXPECT_LT(zip.members[1].compressedSize, zip.members[1].uncompressedSize);
    EXPECT_EQ(zip.members[2].name, "empty");

    std::string expected;
    for (int i = 0; i < 200; ++i)
        expected += static_cast<char>(i);
    EXPECT_EQ(memberText(file, zip.members[0]), expected);
    std::string text;
    for (int i = 0; i < 300; ++i)
        text += "dumpscope ";
    EXPECT_EQ(memberText(file, zip.members[1]), text);
    EXPECT_EQ(memberText(file, zip.members[2]), "");

    // A prefix of a deflated member, without the whole member's checksum.
    std::string prefix;
    EXPECT_EQ(readMember(file, zip.members[1], 15, true, prefix), "");
    EXPECT_EQ(prefix, "dumpscope dumps");
    // The whole member, over its limit, is refused.
    const std::string error = readMember(file, zip.members[1], 15, false, prefix);
    EXPECT_NE(error.find(file.path().string() + ": member deflated.txt: byte "), std::string::npos)
        << error;
    EXPECT_NE(error.find("3000 bytes: more than the 15"), std::string::npos) << error;
}

TEST(ZipDirectory, ReadsTorchSaveArchive) {
    const auto file = openFile(formatsDir() / "zip" / "torch_dict.pt");
    const ZipDirectory zip = readZipDirectory(file);
    ASSERT_EQ(zip.error, "");
    ASSERT_GE(zip.members.size(), 3u);
    EXPECT_EQ(zip.members[0].name, "torch_dict/data.pkl");
    const detail::ZipMember* storage = nullptr;
    for (const auto& m : zip.members)
        if (m.name == "torch_dict/data/0") storage = &m;
    ASSERT_NE(storage, nullptr);
    // torch.arange(6, dtype=torch.float32), read where the directory says its bytes are.
    ASSERT_EQ(storage->uncompressedSize, 6 * sizeof(float));
    float values[6];
    bool ended = false;
    ASSERT_EQ(file.readExact(values, sizeof values, storage->dataOffset, ended), "");
    for (int i = 0; i < 6; ++i)
        EXPECT_EQ(values[i], static_cast<float>(i));
    EXPECT_NE(memberText(file, zip.members[0]).find("_rebuild_tensor_v2"), std::string::npos);
}

TEST(ZipDirectory, ReadsZip64EndRecordsAndExtraFields) {
    const std::string bytes = readFile(formatsDir() / "npz" / "zip64.npz");
    ASSERT_NE(lastRecord(bytes, kZip64End), std::string::npos); // the fixture is really zip64
    const auto file = openFile(formatsDir() / "npz" / "zip64.npz");
    const ZipDirectory zip = readZipDirectory(file);
    ASSERT_EQ(zip.error, "");
    ASSERT_EQ(zip.members.size(), 2u);
    EXPECT_EQ(zip.members[0].name, "first.npy");
    EXPECT_EQ(zip.members[1].name, "second.npy");
    for (const auto& m : zip.members)
        EXPECT_EQ(bytes.compare(m.dataOffset, 6, "\x93NUMPY"), 0) << m.name;
    EXPECT_EQ(memberText(file, zip.members[1]).size(), zip.members[1].uncompressedSize);
}

TEST(ZipDirectory, RefusesAFileWithoutEndRecord) {
    TempDir dir;
    const std::string junk(300, 'x');
    writeBytes(dir / "junk.npz", junk.data(), junk.size());
    const ZipDirectory zip = readZipDirectory(openFile(dir / "junk.npz"));
    EXPECT_TRUE(zip.members.empty());
    EXPECT_EQ(zip.error, (dir / "junk.npz").string() +
                             ": byte 0: not a zip archive: no end-of-central-directory record in "
                             "its last 300 bytes");
    writeBytes(dir / "short.npz", "PK", 2);
    EXPECT_EQ(readZipDirectory(openFile(dir / "short.npz")).error,
              (dir / "short.npz").string() +
                  ": byte 0: not a zip archive: 2 bytes, too short for an "
                  "end-of-central-directory record");
}

TEST(ZipDirectory, RefusesCentralDirectoryPastTheEnd) {
    Hostile h("zip/mixed.zip");
    const std::size_t end = lastRecord(h.bytes, kEnd);
    putLe(h.bytes, end + 16, 0x7fff0000, 4);
    const ZipDirectory zip = h.read();
    EXPECT_TRUE(zip.members.empty());
    EXPECT_NE(zip.error.find(h.path.string() + ": byte " + std::to_string(end) +
                             ": the central directory ("),
              std::string::npos)
        << zip.error;
    EXPECT_NE(zip.error.find("runs past the end record at byte " + std::to_string(end)),
              std::string::npos)
        << zip.error;
}

TEST(ZipDirectory, RefusesMemberOffsetPastTheData) {
    Hostile h("zip/mixed.zip");
    putLe(h.bytes, centralEntry(h.bytes, "deflated.txt") + 42, 0x10000000, 4);
    const ZipDirectory zip = h.read();
    EXPECT_NE(zip.error.find(h.path.string() + ": byte 268435456: member deflated.txt: its "
                                               "local header lies outside"),
              std::string::npos)
        << zip.error;
}

TEST(ZipDirectory, RefusesMemberDataPastTheData) {
    Hostile h("zip/mixed.zip");
    const std::size_t entry = centralEntry(h.bytes, "stored.bin");
    putLe(h.bytes, entry + 20, 5000, 4);
    putLe(h.bytes, entry + 24, 5000, 4);
    const ZipDirectory zip = h.read();
    EXPECT_NE(zip.error.find(": member stored.bin: its 5000 bytes of data run past byte "),
              std::string::npos)
        << zip.error;
    EXPECT_EQ(zip.error.rfind(h.path.string() + ": byte ", 0), 0u) << zip.error;
}

TEST(ZipDirectory, RefusesEncryptedMember) {
    Hostile h("zip/mixed.zip");
    const std::size_t entry = centralEntry(h.bytes, "deflated.txt");
    putLe(h.bytes, entry + 8, getLe(h.bytes, entry + 8, 2) | 1, 2);
    EXPECT_EQ(h.read().error, h.path.string() + ": byte " + std::to_string(entry) +
                                  ": member deflated.txt is encrypted: not supported");
}

TEST(ZipDirectory, RefusesOverlappingMembers) {
    Hostile h("zip/mixed.zip");
    putLe(h.bytes, centralEntry(h.bytes, "deflated.txt") + 42, 0, 4);
    const std::string error = h.read().error;
    EXPECT_NE(error.find(": byte 0: member "), std::string::npos) << error;
    EXPECT_NE(error.find(" overlaps member "), std::string::npos) << error;
}

TEST(ZipDirectory, RefusesMoreMembersThanTheDirectoryHolds) {
    Hostile h("zip/mixed.zip");
    const std::size_t end = lastRecord(h.bytes, kEnd);
    putLe(h.bytes, end + 8, 900, 2);
    putLe(h.bytes, end + 10, 900, 2);
    EXPECT_NE(h.read().error.find(": byte " + std::to_string(end) +
                                  ": 900 members cannot fit in a central directory of "),
              std::string::npos);
}

TEST(ZipDirectory, RefusesMoreMembersThanItReads) {
    Hostile h("npz/zip64.npz");
    const std::size_t end64 = lastRecord(h.bytes, kZip64End);
    putLe(h.bytes, end64 + 32, 5000000, 8);
    EXPECT_EQ(h.read().error, h.path.string() + ": byte " + std::to_string(end64) +
                                  ": 5000000 members: more than the 1000000 dumpscope reads");
}

TEST(ZipDirectory, RefusesACentralDirectoryOverItsCap) {
    Hostile h("npz/zip64.npz");
    const std::size_t end64 = lastRecord(h.bytes, kZip64End);
    putLe(h.bytes, end64 + 40, std::uint64_t{1} << 40, 8);
    EXPECT_NE(h.read().error.find(": byte " + std::to_string(end64) +
                                  ": a central directory of 1099511627776 bytes: more than"),
              std::string::npos);
}

TEST(ZipMember, RefusesUnknownMethodAndWrongChecksum) {
    Hostile h("zip/mixed.zip");
    const std::size_t stored = centralEntry(h.bytes, "stored.bin");
    putLe(h.bytes, stored + 16, getLe(h.bytes, stored + 16, 4) ^ 1, 4);
    putLe(h.bytes, centralEntry(h.bytes, "deflated.txt") + 10, 12, 2);
    const ZipDirectory zip = h.read();
    ASSERT_EQ(zip.error, "");
    const auto file = openFile(h.path);
    std::string out;
    const std::string crc = readMember(file, zip.members[0], 1000, false, out);
    EXPECT_EQ(crc, h.path.string() + ": member stored.bin: byte " +
                       std::to_string(zip.members[0].dataOffset) +
                       ": its CRC-32 does not match the directory's");
    EXPECT_TRUE(out.empty());
    EXPECT_EQ(readMember(file, zip.members[1], 1000, false, out),
              h.path.string() + ": member deflated.txt: byte " +
                  std::to_string(zip.members[1].dataOffset) +
                  ": compression method 12 is not supported (only stored and deflated)");
}

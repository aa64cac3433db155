// listTorchSave on files written by torch.save (tests/data/formats/write_torch.py): what each
// lists must be what torch saved, key by key, and reading each listed location (through its
// strides, or inflating a deflated member) must give the bytes torch gives for the tensor in C
// order, recorded by the script in torch/expected.json.
#include "format_fixture.h"
#include "formats/tensor_entry.h"
#include "io/dump_reader.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

using namespace dumpscope;
using namespace dumpscope::detail;
using dumpscope::test::testDataDir;
namespace fs = std::filesystem;

namespace {

fs::path torchDir() {
    return testDataDir() / "formats" / "torch";
}

ContainerListing listFile(const fs::path& path, DumpReader& file) {
    EXPECT_TRUE(file.open(path, ReadPattern::random)) << file.error();
    return listTorchSave(file, path.filename().string());
}

ContainerListing listFixture(const std::string& name) {
    DumpReader file;
    return listFile(torchDir() / name, file);
}

std::size_t itemSize(const TensorEntry& e) {
    if (e.dtype) return dtypeSize(*e.dtype);
    return e.typeName == "torch.complex64" ? 8 : 0;
}

// The tensor's elements in C order, gathered through its location by the format tests' reader.
std::string readElements(const DumpReader& file, const TensorEntry& e) {
    return dumpscope::test::readElements(file, e.location, itemSize(e));
}

std::string hex(const std::string& bytes) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (unsigned char c : bytes) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

nlohmann::json expected() {
    std::ifstream in(torchDir() / "expected.json");
    return nlohmann::json::parse(in);
}

} // namespace

TEST(FormatTorch, EveryFixtureListsWhatTorchSavedWithItsBytes) {
    const nlohmann::json all = expected();
    ASSERT_GE(all.size(), 10u);
    for (const auto& [name, tensors] : all.items()) {
        SCOPED_TRACE(name);
        DumpReader file;
        const ContainerListing l = listFile(torchDir() / name, file);
        ASSERT_EQ(l.error, "");
        if (name != "deflated.pt") {
            EXPECT_TRUE(l.warnings.empty()) << l.warnings.front();
        }
        ASSERT_EQ(l.tensors.size(), tensors.size());
        for (std::size_t i = 0; i < tensors.size(); ++i) {
            const TensorEntry& e = l.tensors[i];
            const nlohmann::json& want = tensors[i];
            SCOPED_TRACE(e.key);
            EXPECT_EQ(e.key, want["key"].get<std::string>());
            EXPECT_EQ(e.location.key, e.key);
            EXPECT_EQ(e.location.file, name);
            EXPECT_EQ(e.typeName, want["type"].get<std::string>());
            EXPECT_EQ(e.shape, want["shape"].get<std::vector<std::uint64_t>>());
            EXPECT_EQ(e.location.contiguous(), want["contiguous"].get<bool>());
            EXPECT_EQ(hex(readElements(file, e)), want["hex"].get<std::string>());
        }
    }
}

TEST(FormatTorch, NamesTypesAndViews) {
    const ContainerListing nested = listFixture("nested.pt");
    ASSERT_EQ(nested.tensors.size(), 3u);
    EXPECT_EQ(nested.tensors[0].key, "layer1.attn.out");
    EXPECT_EQ(nested.tensors[1].key, "grads.0");
    EXPECT_EQ(nested.tensors[2].location.member, "nested/data/2");

    const ContainerListing top = listFixture("tensor.pt");
    ASSERT_EQ(top.tensors.size(), 1u);
    EXPECT_EQ(top.tensors[0].key, ""); // the file is the buffer
    EXPECT_EQ(top.tensors[0].dtype, DType::i32);

    const ContainerListing dtypes = listFixture("dtypes.pt");
    ASSERT_EQ(dtypes.tensors.size(), 13u);
    EXPECT_EQ(dtypes.tensors[0].dtype, DType::bf16);
    EXPECT_EQ(dtypes.tensors[9].typeName, "torch.bool");
    EXPECT_EQ(dtypes.tensors[9].dtype, DType::u8);
    EXPECT_EQ(dtypes.tensors[12].dtype, std::nullopt); // complex64: the schema's to type

    // All six views share one storage member; "row" starts 20 elements into it.
    const ContainerListing views = listFixture("views.pt");
    ASSERT_EQ(views.tensors.size(), 6u);
    const TensorLocation& t = views.tensors[1].location;
    const TensorLocation& row = views.tensors[3].location;
    EXPECT_EQ(row.member, t.member);
    EXPECT_EQ(row.offset, t.offset + 80);
    EXPECT_EQ(row.extentBytes, 240u - 80);
    EXPECT_EQ(t.sizes, (std::vector<std::uint64_t>{10, 6}));
    EXPECT_EQ(t.strides, (std::vector<std::uint64_t>{1, 10}));
}

TEST(FormatTorch, DeflatedMembersListContiguousViewsOnly) {
    const ContainerListing l = listFixture("deflated.pt");
    ASSERT_EQ(l.error, "");
    ASSERT_EQ(l.tensors.size(), 2u);
    EXPECT_TRUE(l.tensors[0].location.deflated);
    EXPECT_EQ(l.tensors[1].location.skipBytes, 80u);
    ASSERT_EQ(l.refused.size(), 4u);
    EXPECT_EQ(l.refused[0].key, "t");
    EXPECT_NE(l.refused[0].error.find("deflated.pt: t: a non-contiguous view in a compressed "
                                      "member"),
              std::string::npos)
        << l.refused[0].error;
}

TEST(FormatTorch, RefusedFilesSayWhy) {
    const std::string dir = torchDir().string() + "/";
    EXPECT_EQ(listFixture("legacy.pt").error,
              dir + "legacy.pt: the legacy torch.save format (before torch 1.6) is not "
                    "supported: re-save with torch >= 1.6");
    EXPECT_EQ(listFixture("script.pt").error,
              dir + "script.pt: a TorchScript archive (torch.jit.save), not a torch.save file: "
                    "not supported (save the tensors with torch.save)");
    EXPECT_EQ(listFixture("nodata.pt").error,
              dir + "nodata.pt: a zip archive without nodata/data.pkl: not a torch.save file");
    EXPECT_EQ(listFixture("bigendian.pt").error,
              dir + "bigendian.pt: member views/byteorder says the storages are \"big\"-endian: "
                    "only little-endian storages are read");
    const ContainerListing little = listFixture("byteorder.pt");
    EXPECT_EQ(little.error, "");
    EXPECT_EQ(little.tensors.size(), 6u);

    // A global that is not torch's, in a file torch.save wrote: named, with the member and byte.
    const struct {
        const char* file;
        const char* global;
    } refused[] = {{"refused_eval.pt", "__builtin__.eval"},
                   {"refused_counter.pt", "collections.Counter"},
                   {"refused_reduce.pt", "posix.system"}};
    for (const auto& r : refused) {
        const ContainerListing l = listFixture(r.file);
        const std::string archive = std::string(r.file).substr(0, std::strlen(r.file) - 3);
        EXPECT_EQ(l.error.rfind(dir + r.file + ": " + archive + "/data.pkl byte ", 0), 0u)
            << l.error;
        EXPECT_NE(l.error.find(std::string("refuses global ") + r.global +
                               ": not something torch.save writes for tensors"),
                  std::string::npos)
            << l.error;
        EXPECT_TRUE(l.tensors.empty());
    }

    const ContainerListing cut = listFixture("short_storage.pt");
    EXPECT_NE(cut.error.find("short_storage.pt: t: its view (storage offset 0, size [10, 6], "
                             "stride [1, 10]) reaches past the 40 elements of its storage "
                             "views/data/0"),
              std::string::npos)
        << cut.error;
}

TEST(FormatTorch, TruncatedOrForeignFilesAreErrorsNotCrashes) {
    const std::string whole = dumpscope::test::readFile(torchDir() / "views.pt");
    ASSERT_GT(whole.size(), 100u);
    dumpscope::test::TempDir tmp;
    for (std::size_t n :
         {std::size_t{0}, std::size_t{13}, std::size_t{100}, whole.size() / 2, whole.size() - 1}) {
        const fs::path path = tmp / ("cut_" + std::to_string(n) + ".pt");
        dumpscope::test::writeBytes(path, whole.data(), n);
        DumpReader file;
        const ContainerListing l = listFile(path, file);
        EXPECT_EQ(l.error.rfind(path.string() + ": ", 0), 0u) << n << ": " << l.error;
        EXPECT_TRUE(l.tensors.empty());
    }
    // A pickle in the zip whose every byte is flipped in turn never crashes the reader.
    std::string bytes = dumpscope::test::readFile(torchDir() / "dict.pt");
    const std::size_t pkl = bytes.find("\x80\x02");
    ASSERT_NE(pkl, std::string::npos);
    for (std::size_t i = pkl; i < pkl + 64; ++i) {
        std::string flipped = bytes;
        flipped[i] = static_cast<char>(flipped[i] ^ 0x5a);
        const fs::path path = tmp / "flipped.pt";
        dumpscope::test::writeBytes(path, flipped.data(), flipped.size());
        DumpReader file;
        const ContainerListing l = listFile(path, file);
        if (!l.error.empty()) {
            EXPECT_EQ(l.error.rfind(path.string() + ": ", 0), 0u) << l.error;
        }
    }
}

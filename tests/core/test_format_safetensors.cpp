// listSafetensors on the files tests/data/formats/write_safetensors.py wrote (every dtype,
// BOOL, both FP8 encodings, metadata, a 0-d and an empty tensor): names, data order, types,
// shapes, and the bytes at each location against the bytes the script wrote. Then hostile
// headers written here: each refused with the file, the byte and what is wrong.
#include "formats/tensor_entry.h"
#include "io/dump_reader.h"

#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

using namespace dumpscope;
using detail::ContainerListing;
using detail::listSafetensors;
namespace fs = std::filesystem;

namespace {

ContainerListing listFile(const fs::path& file, const std::string& relative) {
    detail::DumpReader reader;
    EXPECT_TRUE(reader.open(file, detail::ReadPattern::random)) << reader.error();
    return listSafetensors(reader, relative);
}

std::string hexAt(const fs::path& file, std::uint64_t offset, std::uint64_t bytes) {
    std::ifstream in(file, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(offset));
    std::string raw(bytes, '\0');
    in.read(raw.data(), static_cast<std::streamsize>(bytes));
    EXPECT_EQ(static_cast<std::uint64_t>(in.gcount()), bytes);
    std::string hex;
    char two[3];
    for (unsigned char c : raw) {
        std::snprintf(two, sizeof two, "%02x", c);
        hex += two;
    }
    return hex;
}

// The dtype dumpscope gives each safetensors type name.
const std::map<std::string, DType> kExpectedTypes = {
    {"F64", DType::f64},   {"F32", DType::f32},         {"F16", DType::f16},
    {"BF16", DType::bf16}, {"I64", DType::i64},         {"I32", DType::i32},
    {"I16", DType::i16},   {"I8", DType::i8},           {"U64", DType::u64},
    {"U32", DType::u32},   {"U16", DType::u16},         {"U8", DType::u8},
    {"BOOL", DType::u8},   {"F8_E4M3", DType::f8_e4m3}, {"F8_E5M2", DType::f8_e5m2},
};

// A safetensors file of `header` and `data`, its length field `length` (the header's size when
// not given).
fs::path writeFile(const test::TempDir& dir, const std::string& header, const std::string& data,
                   std::optional<std::uint64_t> length = std::nullopt) {
    const std::uint64_t n = length.value_or(header.size());
    std::string bytes;
    for (int i = 0; i < 8; ++i)
        bytes += static_cast<char>((n >> (8 * i)) & 0xff);
    bytes += header + data;
    const fs::path file = dir / "t.safetensors";
    test::writeBytes(file, bytes.data(), bytes.size());
    return file;
}

} // namespace

TEST(FormatSafetensors, ListsEveryTypeInDataOrderWithTheBytesTheScriptWrote) {
    const fs::path dir = test::testDataDir() / "formats" / "safetensors";
    std::ifstream in(dir / "all_dtypes.expected.json");
    ASSERT_TRUE(in) << "run tests/data/formats/write_safetensors.py";
    const auto expected = nlohmann::json::parse(in);
    const ContainerListing listing = listFile(dir / "all_dtypes.safetensors", "r/all.safetensors");
    ASSERT_EQ(listing.error, "");
    EXPECT_TRUE(listing.warnings.empty());
    const auto& tensors = expected["tensors"];
    ASSERT_EQ(listing.tensors.size(), tensors.size()); // __metadata__ is not a tensor
    const std::uint64_t dataStart = expected["data_start"];
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        const auto& want = tensors[i];
        const detail::TensorEntry& got = listing.tensors[i];
        SCOPED_TRACE(want["key"].get<std::string>());
        EXPECT_EQ(got.key, want["key"]);
        EXPECT_EQ(got.typeName, want["dtype"]);
        ASSERT_TRUE(got.dtype);
        EXPECT_EQ(*got.dtype, kExpectedTypes.at(want["dtype"]));
        EXPECT_EQ(got.shape, want["shape"].get<std::vector<std::uint64_t>>());
        std::uint64_t count = 1;
        for (auto d : got.shape)
            count *= d;
        const std::string hex = want["hex"];
        EXPECT_EQ(got.location.file, "r/all.safetensors");
        EXPECT_EQ(got.location.key, got.key);
        EXPECT_EQ(got.location.member, "");
        EXPECT_TRUE(got.location.contiguous());
        EXPECT_FALSE(got.location.deflated);
        EXPECT_EQ(got.location.count, count);
        EXPECT_EQ(got.location.offset, dataStart + want["begin"].get<std::uint64_t>());
        EXPECT_EQ(got.location.extentBytes, hex.size() / 2);
        EXPECT_EQ(hexAt(dir / "all_dtypes.safetensors", got.location.offset,
                        count * dtypeSize(*got.dtype)),
                  hex);
    }
    // The header's keys are sorted ("bf16.act" first); the data, and so the listing, starts
    // with the 8-byte types.
    EXPECT_EQ(listing.tensors.front().key, "f64.weight");
    std::map<std::string, std::vector<std::uint64_t>> shapes;
    for (const auto& t : listing.tensors)
        shapes[t.key] = t.shape;
    EXPECT_EQ(shapes.at("scalar"), std::vector<std::uint64_t>{}); // 0-d: one element
    EXPECT_EQ(shapes.at("empty"), (std::vector<std::uint64_t>{0, 3}));
    EXPECT_EQ(shapes.at("f8.e4m3"), (std::vector<std::uint64_t>{16, 16}));

    const ContainerListing plain = listFile(dir / "no_metadata.safetensors", "n.safetensors");
    ASSERT_EQ(plain.error, "");
    ASSERT_EQ(plain.tensors.size(), 1u);
    EXPECT_EQ(plain.tensors[0].key, "x");
    EXPECT_EQ(hexAt(dir / "no_metadata.safetensors", plain.tensors[0].location.offset, 8),
              "0000803f00000080"); // 1.0f, -0.0f
}

// A type dumpscope has no element type for is listed, its name kept, for the plan to resolve
// through the schema; its extent is the file's.
TEST(FormatSafetensors, UnknownTypeIsListedWithItsName) {
    test::TempDir dir;
    const fs::path file = writeFile(
        dir, R"({"z":{"dtype":"C64","shape":[2],"data_offsets":[0,16]}})", std::string(16, 'x'));
    const ContainerListing listing = listFile(file, "t.safetensors");
    ASSERT_EQ(listing.error, "");
    ASSERT_EQ(listing.tensors.size(), 1u);
    EXPECT_FALSE(listing.tensors[0].dtype);
    EXPECT_EQ(listing.tensors[0].typeName, "C64");
    EXPECT_EQ(listing.tensors[0].location.count, 2u);
    EXPECT_EQ(listing.tensors[0].location.extentBytes, 16u);
}

TEST(FormatSafetensors, HostileHeadersAreRefusedNamingTheFileAndTheByte) {
    struct Case {
        const char* what;
        std::string header, data;
        std::optional<std::uint64_t> length;
        std::uint64_t byte;
        std::string message;
    };
    const std::string x4(4, '\0');
    const auto tensor = [](const std::string& fields) { return R"({"x":{)" + fields + "}}"; };
    const std::string overlapping = R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                                    R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})";
    const std::vector<Case> cases = {
        {"length past the end", "{}", "", 100, 0,
         "header length 100 runs past the end of the file"},
        {"length 2^63", "{}", "", std::uint64_t{1} << 63, 0,
         "header length 9223372036854775808 is over the 100000000-byte limit"},
        {"invalid JSON", R"({"x": nul})", "", {}, 8 + 9, "the header is not valid JSON"},
        {"truncated JSON", R"({"x": {)", "", {}, 8 + 7, "the header is not valid JSON"},
        {"not an object",
         "[1, 2]",
         "",
         {},
         8,
         "the header must be a JSON object of tensors, not array"},
        {"tensor not an object", R"({"x": 3})", "", {}, 9, "tensor \"x\": must be an object"},
        {"dtype a number",
         tensor(R"("dtype":5,"shape":[1],"data_offsets":[0,4])"),
         x4,
         {},
         9,
         "tensor \"x\": \"dtype\" must be a string"},
        {"dtype missing",
         tensor(R"("shape":[1],"data_offsets":[0,4])"),
         x4,
         {},
         9,
         "\"dtype\" must be a string"},
        {"shape a string",
         tensor(R"("dtype":"F32","shape":"1","data_offsets":[0,4])"),
         x4,
         {},
         9,
         "\"shape\" must be an array of non-negative integers"},
        {"shape negative",
         tensor(R"("dtype":"F32","shape":[-1],"data_offsets":[0,4])"),
         x4,
         {},
         9,
         "\"shape\" must be an array of non-negative integers"},
        {"shape fractional",
         tensor(R"("dtype":"F32","shape":[1.5],"data_offsets":[0,4])"),
         x4,
         {},
         9,
         "\"shape\" must be an array of non-negative integers"},
        {"shape overflows",
         tensor(R"("dtype":"U8","shape":[4294967296,4294967296],"data_offsets":[0,4])"),
         x4,
         {},
         9,
         "the shape's element count overflows 64 bits"},
        {"bytes overflow",
         tensor(R"("dtype":"F32","shape":[4611686018427387904],"data_offsets":[0,4])"),
         x4,
         {},
         9,
         "the shape's byte count overflows 64 bits"},
        {"offsets not a pair",
         tensor(R"("dtype":"F32","shape":[1],"data_offsets":[0])"),
         x4,
         {},
         9,
         "\"data_offsets\" must be [begin, end]"},
        {"offsets strings",
         tensor(R"("dtype":"F32","shape":[1],"data_offsets":["0","4"])"),
         x4,
         {},
         9,
         "\"data_offsets\" must be [begin, end]"},
        {"offsets inverted",
         tensor(R"("dtype":"F32","shape":[1],"data_offsets":[4,0])"),
         x4,
         {},
         9,
         "data_offsets end 0 is before its begin 4"},
        {"offsets past the end",
         tensor(R"("dtype":"F32","shape":[100],"data_offsets":[0,400])"),
         x4,
         {},
         9,
         "data_offsets end 400 is past the end of the data (4 bytes from byte"},
        {"offsets not the shape",
         tensor(R"("dtype":"F32","shape":[2],"data_offsets":[0,4])"),
         x4,
         {},
         9,
         "data_offsets span 4 bytes but the shape and dtype F32 need 8"},
        {"overlapping",
         overlapping,
         std::string(12, '\0'),
         {},
         8 + overlapping.find("\"b\""),
         "tensor \"b\" (data_offsets [4, 12]) overlaps tensor \"a\" ([0, 8])"},
        {"metadata not strings",
         R"({"__metadata__":{"k":1}})",
         "",
         {},
         9,
         "\"__metadata__\" must be an object of strings"},
        {"metadata an array",
         R"({"__metadata__":["k"]})",
         "",
         {},
         9,
         "\"__metadata__\" must be an object of strings"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        test::TempDir dir;
        const fs::path file = writeFile(dir, c.header, c.data, c.length);
        const ContainerListing listing = listFile(file, "t.safetensors");
        EXPECT_TRUE(listing.tensors.empty());
        const std::string prefix = file.string() + ": byte " + std::to_string(c.byte) + ": ";
        EXPECT_EQ(listing.error.rfind(prefix, 0), 0u) << listing.error;
        EXPECT_NE(listing.error.find(c.message), std::string::npos) << listing.error;
    }
    // Shorter than the length field itself.
    test::TempDir dir;
    test::writeBytes(dir / "short.safetensors", "abc", 3);
    const ContainerListing shortFile = listFile(dir / "short.safetensors", "short.safetensors");
    EXPECT_EQ(shortFile.error, (dir / "short.safetensors").string() +
                                   ": byte 0: too short for safetensors: the header length needs "
                                   "8 bytes, the file has 3");
}

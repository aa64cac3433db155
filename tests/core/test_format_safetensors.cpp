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

// `header` and `data` in a file whose length field says `length` (the header's size when not
// given) are refused: no tensor, an error that starts with the file and `byte` and says `message`.
void expectRefused(const char* what, const std::string& header, const std::string& data,
                   std::uint64_t byte, const std::string& message,
                   std::optional<std::uint64_t> length = std::nullopt) {
    SCOPED_TRACE(what);
    test::TempDir dir;
    const fs::path file = writeFile(dir, header, data, length);
    const ContainerListing listing = listFile(file, "t.safetensors");
    EXPECT_TRUE(listing.tensors.empty());
    const std::string prefix = file.string() + ": byte " + std::to_string(byte) + ": ";
    EXPECT_EQ(listing.error.rfind(prefix, 0), 0u) << listing.error;
    EXPECT_NE(listing.error.find(message), std::string::npos) << listing.error;
}

std::string tensorX(const std::string& fields) {
    return R"({"x":{)" + fields + "}}";
}

TEST(FormatSafetensors, HostileLengthsAndJsonAreRefusedNamingTheFileAndTheByte) {
    expectRefused("length past the end", "{}", "", 0,
                  "header length 100 runs past the end of the file (10 bytes)", 100);
    expectRefused("length 2^63", "{}", "", 0,
                  "header length 9223372036854775808 is over the 100000000-byte limit",
                  std::uint64_t{1} << 63);
    // The parser stops at the '}' after "nul" (header byte 9) and at the end (7).
    expectRefused("invalid JSON", R"({"x": nul})", "", 8 + 9, "the header is not valid JSON");
    expectRefused("truncated JSON", R"({"x": {)", "", 8 + 7, "the header is not valid JSON");
    expectRefused("not an object", "[1, 2]", "", 8,
                  "the header must be a JSON object of tensors, not array");
    expectRefused("a number", "7", "", 8,
                  "the header must be a JSON object of tensors, not number");
    // Shorter than the length field itself.
    test::TempDir dir;
    test::writeBytes(dir / "short.safetensors", "abc", 3);
    const ContainerListing shortFile = listFile(dir / "short.safetensors", "short.safetensors");
    EXPECT_EQ(shortFile.error, (dir / "short.safetensors").string() +
                                   ": byte 0: too short for safetensors: the header length needs "
                                   "8 bytes, the file has 3");
}

// Byte 9 is where "x" is written in the header.
TEST(FormatSafetensors, HostileFieldsAreRefusedAtTheTensorsName) {
    const std::string x4(4, '\0');
    const std::string shapeWrong = "\"shape\" must be an array of non-negative integers";
    const std::string offsetsWrong = "\"data_offsets\" must be [begin, end]";
    expectRefused("tensor not an object", R"({"x": 3})", "", 9, "tensor \"x\": must be an object");
    expectRefused("tensor an array", R"({"x": [3]})", "", 9, "tensor \"x\": must be an object");
    expectRefused("dtype a number", tensorX(R"("dtype":5,"shape":[1],"data_offsets":[0,4])"), x4, 9,
                  "tensor \"x\": \"dtype\" must be a string");
    expectRefused("dtype missing", tensorX(R"("shape":[1],"data_offsets":[0,4])"), x4, 9,
                  "\"dtype\" must be a string");
    expectRefused("shape a string", tensorX(R"("dtype":"F32","shape":"1","data_offsets":[0,4])"),
                  x4, 9, shapeWrong);
    expectRefused("shape negative", tensorX(R"("dtype":"F32","shape":[-1],"data_offsets":[0,4])"),
                  x4, 9, shapeWrong);
    expectRefused("shape fractional",
                  tensorX(R"("dtype":"F32","shape":[1.5],"data_offsets":[0,4])"), x4, 9,
                  shapeWrong);
    expectRefused("shape missing", tensorX(R"("dtype":"F32","data_offsets":[0,4])"), x4, 9,
                  shapeWrong);
    std::string ones65 = "1";
    for (int i = 1; i < 65; ++i)
        ones65 += ",1";
    expectRefused("65 dimensions",
                  tensorX(R"("dtype":"U8","shape":[)" + ones65 + R"(],"data_offsets":[0,1])"), "x",
                  9, "\"shape\" has more than 64 dimensions");
    expectRefused("shape overflows",
                  tensorX(R"("dtype":"U8","shape":[4294967296,4294967296],"data_offsets":[0,4])"),
                  x4, 9, "the shape's element count overflows 64 bits");
    expectRefused("bytes overflow",
                  tensorX(R"("dtype":"F32","shape":[4611686018427387904],"data_offsets":[0,4])"),
                  x4, 9, "the shape's byte count overflows 64 bits");
    expectRefused("offsets not a pair", tensorX(R"("dtype":"F32","shape":[1],"data_offsets":[0])"),
                  x4, 9, offsetsWrong);
    expectRefused("offsets a triple",
                  tensorX(R"("dtype":"F32","shape":[1],"data_offsets":[0,4,8])"), x4, 9,
                  offsetsWrong);
    expectRefused("offsets strings",
                  tensorX(R"("dtype":"F32","shape":[1],"data_offsets":["0","4"])"), x4, 9,
                  offsetsWrong);
    expectRefused("offsets inverted", tensorX(R"("dtype":"F32","shape":[1],"data_offsets":[4,0])"),
                  x4, 9, "data_offsets end 0 is before its begin 4");
    expectRefused("offsets past the end",
                  tensorX(R"("dtype":"F32","shape":[100],"data_offsets":[0,400])"), x4, 9,
                  "data_offsets end 400 is past the end of the data (4 bytes from byte");
    expectRefused("offsets not the shape",
                  tensorX(R"("dtype":"F32","shape":[2],"data_offsets":[0,4])"), x4, 9,
                  "data_offsets span 4 bytes but the shape and dtype F32 need 8");
}

TEST(FormatSafetensors, OverlapsDuplicatesAndBadMetadataAreRefused) {
    const std::string overlapping = R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                                    R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})";
    expectRefused("overlapping", overlapping, std::string(12, '\0'), 8 + overlapping.find("\"b\""),
                  "tensor \"b\" (data_offsets [4, 12]) overlaps tensor \"a\" ([0, 8])");
    const std::string twice = R"({"x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                              R"("x":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})";
    expectRefused("named twice", twice, std::string(8, '\0'), 9,
                  "tensor \"x\" is named twice in the header");
    const std::string metadataWrong = "\"__metadata__\" must be an object of strings";
    expectRefused("metadata not strings", R"({"__metadata__":{"k":1}})", "", 9, metadataWrong);
    expectRefused("metadata nested", R"({"__metadata__":{"k":{}}})", "", 9, metadataWrong);
    expectRefused("metadata an array", R"({"__metadata__":["k"]})", "", 9, metadataWrong);
    const std::string afterMetadata = R"({"__metadata__":{"a":"x"},"x":3})";
    expectRefused("tensor after metadata", afterMetadata, "", 8 + afterMetadata.find("\"x\":"),
                  "tensor \"x\": must be an object");
}

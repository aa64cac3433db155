// listNpy on arrays numpy wrote (every dtype, 0-d to 3-d, Fortran order, format versions 1 to
// 3) and on hostile headers: what is listed reads back numpy's own bytes, and every refusal
// names the file and the byte.
#include "format_fixture.h"
#include "formats/tensor_entry.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>

using namespace dumpscope;
using namespace dumpscope::test;
using detail::ContainerListing;
using detail::listNpy;

namespace {

nlohmann::json manifest() {
    return nlohmann::json::parse(readFile(formatsDir() / "manifest.json"));
}

ContainerListing list(const std::filesystem::path& path) {
    return listNpy(openFile(path), path.filename().string());
}

// A version 1.0 .npy with this header dictionary (padded as numpy pads it) and these data bytes.
std::string npy(const std::string& dict, const std::string& data = std::string(12, '\x01')) {
    std::string header = dict;
    while ((10 + header.size() + 1) % 64 != 0)
        header += ' ';
    header += '\n';
    std::string bytes = std::string("\x93NUMPY\x01\x00", 8) + "  " + header + data;
    putLe(bytes, 8, header.size(), 2);
    return bytes;
}

const std::string kPlain = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";

// The listing's error for a .npy file holding `bytes`, with the temp path replaced by "F".
std::string refusal(const std::string& bytes) {
    TempDir dir;
    const auto path = dir / "bad.npy";
    writeBytes(path, bytes.data(), bytes.size());
    const ContainerListing listing = list(path);
    EXPECT_TRUE(listing.tensors.empty());
    std::string error = listing.error;
    if (error.rfind(path.string(), 0) == 0) error = "F" + error.substr(path.string().size());
    return error;
}

} // namespace

TEST(NpyListing, EveryArrayReadsBackNumpysBytes) {
    const std::map<std::string, std::optional<DType>> types = {
        {"<f2", DType::f16},   {"<f4", DType::f32},  {"<f8", DType::f64}, {"|i1", DType::i8},
        {"<i2", DType::i16},   {"<i4", DType::i32},  {"<i8", DType::i64}, {"|u1", DType::u8},
        {"<u2", DType::u16},   {"<u4", DType::u32},  {"<u8", DType::u64}, {"|b1", DType::u8},
        {"|V2", std::nullopt}, {"<c8", std::nullopt}};
    std::size_t checked = 0;
    const nlohmann::json all = manifest();
    for (const auto& [file, tensors] : all.items()) {
        if (file.rfind("npy/", 0) != 0) continue;
        const std::string descr = tensors[""]["descr"].is_string() ? tensors[""]["descr"] : "";
        if (types.count(descr) == 0) continue; // the refused ones, below
        SCOPED_TRACE(file);
        const auto reader = openFile(formatsDir() / file);
        const ContainerListing listing = listNpy(reader, file);
        ASSERT_EQ(listing.error, "");
        EXPECT_TRUE(listing.warnings.empty());
        ASSERT_EQ(listing.tensors.size(), 1u);
        const detail::TensorEntry& t = listing.tensors[0];
        EXPECT_EQ(t.key, "");
        EXPECT_EQ(t.typeName, descr);
        EXPECT_EQ(t.dtype, types.at(descr));
        EXPECT_EQ(t.shape, tensors[""]["shape"].get<std::vector<std::uint64_t>>());
        EXPECT_EQ(t.location.file, file);
        const std::string expected = hexToBytes(tensors[""]["hex"]);
        const std::size_t item = descr == "<c8" ? 8 : std::stoul(descr.substr(2));
        EXPECT_EQ(t.location.count * item, expected.size());
        EXPECT_EQ(t.location.extentBytes, expected.size());
        EXPECT_EQ(readElements(reader, t.location, item), expected);
        ++checked;
    }
    EXPECT_EQ(checked, 24u);
}

TEST(NpyListing, ShapesFromZeroDToThreeD) {
    const auto scalar = list(formatsDir() / "npy" / "scalar_f8.npy");
    ASSERT_EQ(scalar.tensors.size(), 1u);
    EXPECT_TRUE(scalar.tensors[0].shape.empty());
    EXPECT_EQ(scalar.tensors[0].location.count, 1u);
    const auto cube = list(formatsDir() / "npy" / "cube_f4.npy");
    EXPECT_EQ(cube.tensors[0].shape, (std::vector<std::uint64_t>{2, 3, 4}));
    EXPECT_EQ(cube.tensors[0].location.count, 24u);
    EXPECT_TRUE(cube.tensors[0].location.contiguous());
    const auto empty = list(formatsDir() / "npy" / "empty_f4.npy");
    EXPECT_EQ(empty.tensors[0].shape, (std::vector<std::uint64_t>{0, 3}));
    EXPECT_EQ(empty.tensors[0].location.count, 0u);
}

TEST(NpyListing, FortranOrderGivesColumnMajorStrides) {
    const auto cube = list(formatsDir() / "npy" / "fortran_i4.npy");
    ASSERT_EQ(cube.error, "");
    const TensorLocation& at = cube.tensors[0].location;
    EXPECT_EQ(at.sizes, (std::vector<std::uint64_t>{2, 3, 4}));
    EXPECT_EQ(at.strides, (std::vector<std::uint64_t>{1, 2, 6}));
    EXPECT_NE(readFile(formatsDir() / "npy" / "fortran_i4.npy").find("'fortran_order': True"),
              std::string::npos); // numpy wrote it in Fortran order
    // One long dimension: both orders are the same bytes.
    const auto row = list(formatsDir() / "npy" / "fortran_row_f4.npy");
    EXPECT_TRUE(row.tensors[0].location.contiguous());
}

TEST(NpyListing, FormatVersionsOneToThree) {
    int version = 1;
    for (const char* name : {"v1_i2.npy", "v2_f4.npy", "v3_u8.npy"}) {
        const std::string bytes = readFile(formatsDir() / "npy" / name);
        EXPECT_EQ(bytes[6], version++) << name; // numpy really wrote that version
        const auto listing = list(formatsDir() / "npy" / name);
        EXPECT_EQ(listing.error, "") << name;
        EXPECT_EQ(listing.tensors.size(), 1u) << name;
        EXPECT_EQ(listing.tensors[0].location.offset,
                  bytes[6] == 1 ? 10 + getLe(bytes, 8, 2) : 12 + getLe(bytes, 8, 4));
    }
}

TEST(NpyListing, RefusesWhatNumpyWroteButDumpscopeCannotCompare) {
    const auto path = [](const char* name) { return formatsDir() / "npy" / name; };
    const auto error = [&](const char* name) { return list(path(name)).error; };
    const std::string big = readFile(path("bigendian_f4.npy"));
    EXPECT_EQ(error("bigendian_f4.npy"),
              path("bigendian_f4.npy").string() + ": byte " + std::to_string(big.find("'>f4'")) +
                  ": big-endian data (>f4) is not supported: save it little-endian");
    EXPECT_NE(
        error("structured.npy")
            .find(": byte 20: structured dtype [('a', '<f4'), ('b', '<i2')] is not supported"),
        std::string::npos)
        << error("structured.npy");
    EXPECT_NE(error("unicode.npy").find(": dtype '<U2' (strings) is not supported"),
              std::string::npos);
    EXPECT_NE(error("object.npy").find(": dtype '|O' (Python objects) is not supported"),
              std::string::npos);
}

TEST(NpyListing, HeaderDictionaryGrammar) {
    TempDir dir;
    const auto keysInAnyOrder = "{\"shape\": (3L,), 'fortran_order': False, 'descr': '<f4'}";
    writeBytes(dir / "ok.npy", npy(keysInAnyOrder).data(), npy(keysInAnyOrder).size());
    const auto listing = list(dir / "ok.npy");
    ASSERT_EQ(listing.error, "");
    EXPECT_EQ(listing.tensors[0].shape, (std::vector<std::uint64_t>{3}));
    const std::string twoD = "{'descr': '<i2', 'fortran_order': False, 'shape': ( 2 , 3 ), }";
    writeBytes(dir / "ok2.npy", npy(twoD).data(), npy(twoD).size());
    EXPECT_EQ(list(dir / "ok2.npy").tensors[0].shape, (std::vector<std::uint64_t>{2, 3}));
}

TEST(NpyListing, RefusesHostileHeaders) {
    EXPECT_EQ(refusal("\x93NUM"), "F: byte 0: not a .npy array: it does not start with \\x93NUMPY");
    std::string longHeader = readFile(formatsDir() / "npy" / "dtype_float32.npy");
    putLe(longHeader, 8, 5000, 2);
    EXPECT_EQ(refusal(longHeader), "F: byte 8: the header's length (5010 bytes with the magic) "
                                   "runs past the end of the file (160 bytes)");
    std::string v4 = npy(kPlain);
    v4[6] = 4;
    EXPECT_EQ(refusal(v4),
              "F: byte 6: .npy format version 4.0 is not supported (1.0, 2.0 and 3.0 are)");
    std::string huge = std::string("\x93NUMPY\x02\x00", 8) + "    ";
    putLe(huge, 8, 2000000, 4);
    EXPECT_EQ(refusal(huge),
              "F: byte 8: a header of 2000000 bytes: more than the 1048576 dumpscope reads");

    struct Case {
        std::string dict;
        std::string token; // where the error is: its first occurrence after `from`
        std::size_t from;
        std::string what;
    };
    const Case cases[] = {
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3), }", "(3)", 0,
         "the shape is not a tuple"},
        {"{'descr': '<f4', 'fortran_order': Maybe, 'shape': (3,), }", "Maybe", 0,
         "True or False expected"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'x': 1}", "'x'", 0,
         "unexpected key 'x' (a .npy header has descr, fortran_order and shape)"},
        {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (3,)}", "'descr'", 2,
         "the key 'descr' appears twice"},
        {"{'descr': '<f4' 'fortran_order': False, 'shape': (3,)}", "'fortran", 0,
         "',' or '}' expected"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (-3,), }", "-3", 0,
         "a negative dimension"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }", "999", 0,
         "a dimension over 2^64"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 2), }", "{", 0,
         "the shape (4294967296, 4294967296, 2) of <f4 holds more than 2^64 bytes"},
        {"{'descr': '<f3', 'fortran_order': False, 'shape': (3,), }", "'<f3'", 0,
         "dtype '<f3' is not supported"},
        {"{'descr': '>i8', 'fortran_order': False, 'shape': (3,), }", "'>i8'", 0,
         "big-endian data (>i8) is not supported: save it little-endian"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,), } junk", "junk", 0,
         "unexpected text after the header's dictionary"},
        {"['descr', '<f4']", "[", 0, "the header is not a dictionary ('{' expected)"},
        {"{'descr': '<f4", "'<f4", 0, "the string never ends"},
    };
    for (const Case& c : cases) {
        const std::size_t at = 10 + c.dict.find(c.token, c.from);
        EXPECT_EQ(refusal(npy(c.dict)), "F: byte " + std::to_string(at) + ": " + c.what) << c.dict;
    }
    // A missing key is found where the dictionary's text ends: the 64-byte aligned header's end.
    EXPECT_EQ(refusal(npy("{'descr': '<f4', 'shape': (3,), }")),
              "F: byte 64: the header lacks the key 'fortran_order'");
}

TEST(NpyListing, TruncatedDataIsRefusedAndTrailingBytesWarned) {
    EXPECT_EQ(refusal(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (100,), }")),
              "F: byte 128: the file is truncated: 100 elements of <f4 need 400 bytes, 12 follow "
              "the header");
    TempDir dir;
    const std::string bytes = npy(kPlain, std::string(20, '\x02'));
    writeBytes(dir / "long.npy", bytes.data(), bytes.size());
    const auto listing = list(dir / "long.npy");
    EXPECT_EQ(listing.error, "");
    ASSERT_EQ(listing.tensors.size(), 1u);
    EXPECT_EQ(listing.tensors[0].location.offset, 128u);
    EXPECT_EQ(listing.tensors[0].location.extentBytes, 12u);
    EXPECT_EQ(listing.warnings, std::vector<std::string>{(dir / "long.npy").string() +
                                                         ": byte 140: 8 bytes after the array's "
                                                         "data are ignored"});
}

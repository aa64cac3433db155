// How the tensors of an unpickled torch.save object are named and located, on the data.pkl of
// real torch.save files (the fuzzer's seeds) with storage members laid out here, so that every
// offset, extent and compression case is chosen by the test.
#include "formats/pickle_reader.h"
#include "formats/torch_tensors.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

using namespace dumpscope::detail;
using namespace std::string_literals;
using dumpscope::DType;
using dumpscope::test::readFile;
using dumpscope::test::testDataDir;

namespace {

Pickle seedPickle(const std::string& name) {
    const std::string bytes = readFile(testDataDir() / ".." / "fuzz" / "corpus" / "pickle" / name);
    Pickle p = readPickle(bytes, name);
    EXPECT_EQ(p.error, "");
    return p;
}

// The archive `prefix` with storage members of the given uncompressed sizes, each placed at
// 1000 * (key + 1) in the file and compressed with `method`.
struct Archive {
    std::map<std::string, ZipMember> members;
    TorchTensorSource source(const std::string& prefix) const {
        return {"run/x.pt", "x.pt", prefix, [this](const std::string& name) -> const ZipMember* {
                    const auto it = members.find(name);
                    return it == members.end() ? nullptr : &it->second;
                }};
    }
};

Archive archive(const std::string& prefix, const std::vector<std::uint64_t>& sizes,
                std::uint16_t method = 0) {
    Archive a;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        ZipMember m;
        m.name = prefix + "data/" + std::to_string(i);
        m.method = method;
        m.uncompressedSize = sizes[i];
        m.compressedSize = method == 0 ? sizes[i] : sizes[i] / 2;
        m.dataOffset = 1000 * (i + 1);
        a.members[m.name] = m;
    }
    return a;
}

ContainerListing list(const Pickle& p, const Archive& a, const std::string& prefix) {
    ContainerListing out;
    listPickledTensors(p, a.source(prefix), out);
    return out;
}

std::vector<std::string> keys(const ContainerListing& l) {
    std::vector<std::string> out;
    for (const auto& e : l.tensors)
        out.push_back(e.key);
    return out;
}

using Counts = std::vector<std::uint64_t>;

} // namespace

TEST(TorchTensors, ViewsLieAtTheirStorageOffsetWithTheirStrides) {
    const Pickle p = seedPickle("views.pkl");
    const ContainerListing l = list(p, archive("views/", {240}), "views/");
    ASSERT_EQ(l.error, "");
    EXPECT_TRUE(l.warnings.empty());
    ASSERT_EQ(keys(l),
              (std::vector<std::string>{"slice", "t", "every_other", "row", "block", "column"}));
    struct Want {
        std::uint64_t offset, count;
        Counts sizes, strides; // empty when contiguous
    };
    // big = arange(60, f32).reshape(6, 10) in member data/0 at byte 1000.
    const Want want[] = {{1040, 10, {}, {}},          {1000, 60, {10, 6}, {1, 10}},
                         {1000, 30, {6, 5}, {10, 2}}, {1080, 10, {}, {}},
                         {1048, 9, {3, 3}, {10, 1}},  {1028, 6, {6, 1}, {10, 1}}};
    for (std::size_t i = 0; i < 6; ++i) {
        const TensorEntry& e = l.tensors[i];
        SCOPED_TRACE(e.key);
        EXPECT_EQ(e.dtype, DType::f32);
        EXPECT_EQ(e.typeName, "torch.float32");
        EXPECT_EQ(e.location.file, "x.pt");
        EXPECT_EQ(e.location.member, "views/data/0");
        EXPECT_EQ(e.location.key, e.key);
        EXPECT_EQ(e.location.offset, want[i].offset);
        EXPECT_EQ(e.location.count, want[i].count);
        EXPECT_EQ(e.location.sizes, want[i].sizes);
        EXPECT_EQ(e.location.strides, want[i].strides);
        EXPECT_EQ(e.location.extentBytes, 240 - (want[i].offset - 1000));
        EXPECT_FALSE(e.location.deflated);
    }
    EXPECT_EQ(l.tensors[1].shape, (Counts{10, 6}));
    EXPECT_EQ(l.tensors[5].shape, (Counts{6, 1}));
}

TEST(TorchTensors, AViewPastItsStorageOrAMissingStorageRefusesTheFile) {
    const Pickle p = seedPickle("views.pkl");
    // 40 elements: "slice" (10..19) fits, "t" reaches element 59.
    const ContainerListing shortStorage = list(p, archive("views/", {160}), "views/");
    EXPECT_EQ(shortStorage.error.rfind("run/x.pt: t: its view (storage offset 0, size [10, 6], "
                                       "stride [1, 10]) reaches past the 40 elements of its "
                                       "storage views/data/0 (pickle byte ",
                                       0),
              0u)
        << shortStorage.error;
    const ContainerListing missing = list(p, archive("other/", {240}), "views/");
    EXPECT_EQ(missing.error, "run/x.pt: slice: its storage views/data/0 is not in the archive");
}

TEST(TorchTensors, DeflatedStoragesListOnlyContiguousViews) {
    const Pickle p = seedPickle("views.pkl");
    const ContainerListing l = list(p, archive("views/", {240}, 8), "views/");
    ASSERT_EQ(l.error, "");
    ASSERT_EQ(keys(l), (std::vector<std::string>{"slice", "row"}));
    for (const TensorEntry& e : l.tensors) {
        EXPECT_TRUE(e.location.deflated);
        EXPECT_EQ(e.location.offset, 1000u); // where the compressed data starts
        EXPECT_EQ(e.location.compressedBytes, 120u);
    }
    EXPECT_EQ(l.tensors[0].location.skipBytes, 40u);
    EXPECT_EQ(l.tensors[1].location.skipBytes, 80u);
    ASSERT_EQ(l.refused.size(), 4u);
    EXPECT_EQ(l.refused[0].key, "t");
    EXPECT_EQ(l.refused[0].error, "run/x.pt: t: a non-contiguous view in a compressed member "
                                  "(views/data/0): not supported (re-save the tensor with "
                                  ".contiguous())");
}

TEST(TorchTensors, DottedNamesTypesAndShapes) {
    const ContainerListing nested =
        list(seedPickle("nested.pkl"), archive("nested/", {24, 16, 16}), "nested/");
    ASSERT_EQ(nested.error, "");
    EXPECT_EQ(keys(nested), (std::vector<std::string>{"layer1.attn.out", "grads.0", "grads.1"}));
    EXPECT_TRUE(nested.warnings.empty()); // meta = (1, "a", 2.5) is left out silently

    const ContainerListing top =
        list(seedPickle("tensor.pkl"), archive("tensor/", {24}), "tensor/");
    ASSERT_EQ(top.tensors.size(), 1u);
    EXPECT_EQ(top.tensors[0].key, ""); // the file is the buffer
    EXPECT_EQ(top.tensors[0].dtype, DType::i32);

    const ContainerListing dt =
        list(seedPickle("dtypes.pkl"),
             archive("dtypes/", {14, 14, 28, 56, 56, 28, 14, 7, 7, 7, 4, 0, 16}), "dtypes/");
    ASSERT_EQ(dt.error, "");
    ASSERT_EQ(dt.tensors.size(), 13u);
    const std::map<std::string, std::pair<std::optional<DType>, std::string>> types = {
        {"bfloat16", {DType::bf16, "torch.bfloat16"}}, {"float16", {DType::f16, "torch.float16"}},
        {"float64", {DType::f64, "torch.float64"}},    {"int64", {DType::i64, "torch.int64"}},
        {"int16", {DType::i16, "torch.int16"}},        {"int8", {DType::i8, "torch.int8"}},
        {"uint8", {DType::u8, "torch.uint8"}},         {"bool", {DType::u8, "torch.bool"}},
        {"complex", {std::nullopt, "torch.complex64"}}};
    for (const TensorEntry& e : dt.tensors) {
        const auto it = types.find(e.key);
        if (it == types.end()) continue;
        EXPECT_EQ(e.dtype, it->second.first) << e.key;
        EXPECT_EQ(e.typeName, it->second.second) << e.key;
    }
    EXPECT_EQ(dt.tensors[10].key, "scalar");
    EXPECT_TRUE(dt.tensors[10].shape.empty());
    EXPECT_EQ(dt.tensors[10].location.count, 1u);
    EXPECT_EQ(dt.tensors[11].key, "empty");
    EXPECT_EQ(dt.tensors[11].shape, (Counts{0, 3}));
    EXPECT_EQ(dt.tensors[11].location.count, 0u);
}

TEST(TorchTensors, DictKeysAsPythonHasThem) {
    // {"a": torch.float32, "b": torch.int8, "a": torch.float16, 1: torch.bool, None: torch.uint8}:
    // a repeated key keeps its first place and its last value; an int key is its digits.
    const std::string body = "}(X\x01\0\0\0actorch\nfloat32\nX\x01\0\0\0bctorch\nint8\n"s
                             "X\x01\0\0\0actorch\nfloat16\nK\x01"s
                             "ctorch\nbool\n"
                             "Nctorch\nuint8\nu.";
    const Pickle p = readPickle(std::string("\x80\x02") + body, "keys");
    ASSERT_EQ(p.error, "");
    const ContainerListing l = list(p, archive("k/", {}), "k/");
    ASSERT_EQ(l.error, "");
    EXPECT_EQ(l.warnings, (std::vector<std::string>{
                              "run/x.pt: a: torch.float16, not a tensor: left out",
                              "run/x.pt: b: torch.int8, not a tensor: left out",
                              "run/x.pt: 1: torch.bool, not a tensor: left out",
                              "run/x.pt: the saved object: a key that is None, not a str or an "
                              "int: its value is left out"}));
}

TEST(TorchTensors, CyclesAndSharedContainersAreBounded) {
    // A list that holds itself.
    const Pickle cycle = readPickle(std::string("\x80\x02]q\x00h\x00"s
                                                "a."),
                                    "cycle");
    ASSERT_EQ(cycle.error, "");
    const ContainerListing c = list(cycle, archive("c/", {}), "c/");
    EXPECT_NE(c.error.find("containers nest deeper than 256 levels (or hold themselves)"),
              std::string::npos)
        << c.error;
    // x = (x, x) thirty times over: 2^30 paths through 31 objects.
    std::string doubling = "\x80\x02N";
    for (int i = 0; i < 30; ++i)
        doubling += "2\x86";
    const Pickle dag = readPickle(doubling + ".", "dag");
    ASSERT_EQ(dag.error, "");
    const ContainerListing d = list(dag, archive("d/", {}), "d/");
    EXPECT_NE(d.error.find("the containers hold one another more than 4194304 times over"),
              std::string::npos)
        << d.error;
}

TEST(TorchTensors, RebuildTensorV3TakesItsDTypeOverItsUntypedStorage) {
    // What torch >= 2.1 writes for a dtype with no storage type: the bytes in an UntypedStorage
    // (numel in bytes), the dtype after the hooks. Here {"u": uint16 view of 3 at element 1,
    // "f": float8_e4m3fn of 4}, both on storage "0" of 8 bytes.
    const auto tensorV3 = [](const std::string& dtype, const std::string& tail) {
        return "ctorch._utils\n_rebuild_tensor_v3\n((X\x07\0\0\0storagectorch\nUntypedStorage\n"
               "X\x01\0\0\0"s +
               "0X\x03\0\0\0cpuK\x08tQ"s + tail + "\x89}ctorch\n" + dtype + "\ntR";
    };
    const std::string pickle = "\x80\x02}(X\x01\0\0\0u"s +
                               tensorV3("uint16", "K\x01K\x03\x85K\x01\x85") + "X\x01\0\0\0f"s +
                               tensorV3("float8_e4m3fn", "K\0K\x04\x85K\x01\x85"s) + "u.";
    const Pickle p = readPickle(pickle, "v3");
    ASSERT_EQ(p.error, "");
    const ContainerListing l = list(p, archive("a/", {8}), "a/");
    ASSERT_EQ(l.error, "");
    ASSERT_EQ(l.tensors.size(), 2u);
    EXPECT_EQ(l.tensors[0].dtype, DType::u16);
    EXPECT_EQ(l.tensors[0].typeName, "torch.uint16");
    EXPECT_EQ(l.tensors[0].location.offset, 1002u); // element 1 of two bytes
    EXPECT_EQ(l.tensors[0].location.count, 3u);
    EXPECT_EQ(l.tensors[0].location.extentBytes, 6u);
    EXPECT_EQ(l.tensors[1].dtype, DType::f8_e4m3); // OCP E4M3 (FN), as safetensors' F8_E4M3
    EXPECT_EQ(l.tensors[1].typeName, "torch.float8_e4m3fn");
    EXPECT_EQ(l.tensors[1].location.count, 4u);

    // A uint16 view of 4 from element 1 needs 10 bytes: refused.
    const Pickle past =
        readPickle("\x80\x02"s + tensorV3("uint16", "K\x01K\x04\x85K\x01\x85") + ".", "v3");
    ASSERT_EQ(past.error, "");
    EXPECT_NE(list(past, archive("a/", {8}), "a/").error.find("reaches past the 4 elements"),
              std::string::npos);
    // The dtype must be torch's.
    EXPECT_NE(readPickle("\x80\x02"s + tensorV3("FloatStorage", "K\0))"s) + ".", "v3")
                  .error.find("_rebuild_tensor_v3 whose dtype is not one of torch's dtypes"),
              std::string::npos);
}

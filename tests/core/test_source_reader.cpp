// The elements of a tensor inside a file, read in C order whatever its layout on disk: a
// contiguous range at an offset, a strided view of a storage (a transpose, a slice with a
// step, an offset into a larger storage), and the refusals of locations that do not fit the file.
#include "dumpscope/analyze.h"
#include "dumpscope/buffer_view.h"
#include "io/source_reader.h"

#include "test_support.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace dumpscope;
namespace fs = std::filesystem;

namespace {

// A file of `header` bytes of 0xAB followed by the float32 values 0, 1, 2, … (n of them).
fs::path writeStorage(const test::TempDir& dir, std::size_t header, std::size_t n) {
    std::vector<unsigned char> bytes(header, 0xAB);
    std::vector<float> values(n);
    std::iota(values.begin(), values.end(), 0.0f);
    const auto* raw = reinterpret_cast<const unsigned char*>(values.data());
    bytes.insert(bytes.end(), raw, raw + n * sizeof(float));
    const fs::path file = dir / "tensors.bin";
    test::writeBytes(file, bytes.data(), bytes.size());
    return file;
}

std::vector<float> readAll(const detail::SourceReader& reader) {
    std::vector<float> out(reader.size() / sizeof(float));
    bool ended = false;
    EXPECT_EQ(reader.readExact(out.data(), reader.size(), 0, ended), "");
    return out;
}

TensorLocation stored(std::uint64_t offset, std::uint64_t count, std::uint64_t extent) {
    TensorLocation l;
    l.file = "tensors.bin";
    l.key = "t";
    l.offset = offset;
    l.count = count;
    l.extentBytes = extent;
    return l;
}

} // namespace

TEST(SourceReader, AContiguousTensorIsItsRangeOfTheFile) {
    test::TempDir dir;
    const fs::path file = writeStorage(dir, 100, 20);
    detail::SourceReader r;
    ASSERT_TRUE(r.open(file, stored(100 + 4 * 5, 6, 24), 4, detail::ReadPattern::sequential));
    EXPECT_EQ(r.size(), 24u);
    EXPECT_EQ(readAll(r), (std::vector<float>{5, 6, 7, 8, 9, 10}));
}

TEST(SourceReader, ATransposedViewIsReadInCOrderOfItsShape) {
    test::TempDir dir;
    const fs::path file = writeStorage(dir, 64, 12); // storage 3 x 4, row-major
    TensorLocation t = stored(64, 12, 48);
    t.sizes = {4, 3}; // its transpose: element (i, j) is storage (j, i)
    t.strides = {1, 4};
    detail::SourceReader r;
    ASSERT_TRUE(r.open(file, t, 4, detail::ReadPattern::sequential));
    EXPECT_EQ(readAll(r), (std::vector<float>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
    // A read from the middle starts at the right multi-index.
    float two[2] = {};
    ASSERT_EQ(r.readAt(two, 8, 4 * 4).bytes, 8u);
    EXPECT_EQ(two[0], 5);
    EXPECT_EQ(two[1], 9);
}

TEST(SourceReader, ASliceWithAStepFromAnOffsetIntoALargeStorage) {
    test::TempDir dir;
    // Larger than the whole-extent window, so the sliding window is used.
    const std::size_t n = (std::size_t{20} << 20) / 4;
    const fs::path file = writeStorage(dir, 8, n);
    TensorLocation t = stored(8 + 4 * 1000, 0, 4 * (n - 1000));
    t.sizes = {3, 1000}; // storage[1000:], viewed as rows of 4000 taking every 4th element
    t.strides = {2000000, 4};
    t.count = 3000;
    detail::SourceReader r;
    ASSERT_TRUE(r.open(file, t, 4, detail::ReadPattern::sequential));
    const auto v = readAll(r);
    ASSERT_EQ(v.size(), 3000u);
    EXPECT_EQ(v[0], 1000);
    EXPECT_EQ(v[1], 1004);
    EXPECT_EQ(v[999], 1000 + 4 * 999);
    EXPECT_EQ(v[1000], 1000 + 2000000);
    EXPECT_EQ(v[2999], 1000 + 2 * 2000000 + 4 * 999);
}

TEST(SourceReader, RefusesALocationPastTheEndOfTheFileNamingIt) {
    test::TempDir dir;
    const fs::path file = writeStorage(dir, 16, 4);
    detail::SourceReader r;
    EXPECT_FALSE(r.open(file, stored(16, 5, 20), 4, detail::ReadPattern::sequential));
    EXPECT_NE(r.error().find(file.string() + ": tensor \"t\": its data (20 bytes at byte 16) lies "
                                             "past the end of the file (32 bytes)"),
              std::string::npos)
        << r.error();
    TensorLocation view = stored(16, 4, 16);
    view.sizes = {2, 2};
    view.strides = {1, 3}; // reaches element 4 of a 4-element storage
    EXPECT_FALSE(r.open(file, view, 4, detail::ReadPattern::sequential));
    EXPECT_NE(r.error().find("its view reaches element 4 of a storage of 4 elements"),
              std::string::npos)
        << r.error();
}

TEST(SourceReader, ComparesTwoTensorsAtDifferentOffsetsAsTheirElements) {
    test::TempDir dir;
    const fs::path a = writeStorage(dir, 10, 8);
    std::vector<float> b = {99, 99, 0, 1, 2, 3, 4, 5, 6, 70};
    test::writeArray(dir / "b.bin", b);
    auto la = std::make_shared<TensorLocation>(stored(10, 8, 32));
    auto lb = std::make_shared<TensorLocation>(stored(8, 8, 32));
    const BufferResult r =
        compareSources({a, la}, {dir / "b.bin", lb}, DType::f32, CompareOptions{});
    EXPECT_EQ(r.status, Status::diverge) << r.error;
    EXPECT_EQ(r.stats.nA, 8u);
    EXPECT_EQ(r.stats.nDiff, 1u);
    ASSERT_TRUE(r.stats.firstDiff);
    EXPECT_EQ(*r.stats.firstDiff, 7u);
    // The element table reads the same elements.
    BufferView view;
    ASSERT_TRUE(view.open(BufferSource{dir / "b.bin", lb}, DType::f32));
    EXPECT_EQ(view.size(), 8u);
    EXPECT_EQ(bitsToDouble(DType::f32, *view.bits(7)), 70.0);
}

// BufferView against the bytes it was written from: every element type, awkward lengths around
// the cache's page size, reads past the end, refused file kinds, and a file that shrinks.
#include "dumpscope/buffer_view.h"

#include "test_support.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <thread>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

using namespace dumpscope;
using dumpscope::test::TempDir;
using dumpscope::test::writeBytes;

namespace {

using dumpscope::test::kAllTypes;

std::vector<unsigned char> randomBytes(std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::vector<unsigned char> bytes(n);
    for (auto& b : bytes)
        b = static_cast<unsigned char>(rng());
    return bytes;
}

// Element counts that straddle the page cache's boundaries for element size `es`.
std::vector<std::uint64_t> awkwardLengths(std::size_t es) {
    const std::uint64_t page = BufferView::kPageBytes / es;
    return {0, 1, 3, page - 1, page, page + 1, 2 * page + 3};
}

} // namespace

TEST(BufferView, ReadsEveryElementOfEveryTypeAndAwkwardLength) {
    TempDir dir;
    unsigned seed = 1;
    for (DType t : kAllTypes) {
        const std::size_t es = dtypeSize(t);
        for (std::uint64_t n : awkwardLengths(es)) {
            SCOPED_TRACE(std::string(dtypeName(t)) + " n=" + std::to_string(n));
            const auto bytes = randomBytes(n * es, seed++);
            const auto file = dir / ("b" + std::to_string(seed) + ".bin");
            writeBytes(file, bytes.data(), bytes.size());

            BufferView view;
            ASSERT_TRUE(view.open(file, t)) << view.error();
            EXPECT_EQ(view.size(), n);
            EXPECT_EQ(view.byteSize(), n * es);
            EXPECT_EQ(view.elementSize(), es);
            // Backwards first, so that pages are fetched out of order and evicted.
            for (std::uint64_t i = n; i-- > 0;)
                ASSERT_EQ(view.bits(i), loadBits(t, bytes.data() + i * es)) << "index " << i;
            EXPECT_FALSE(view.bits(n).has_value());
            EXPECT_FALSE(view.bits(~std::uint64_t{0}).has_value());

            std::vector<std::uint64_t> decoded(n + 5, 12345);
            EXPECT_EQ(view.readBits(0, n + 5, decoded.data()), n);
            for (std::uint64_t i = 0; i < n; ++i)
                ASSERT_EQ(decoded[i], loadBits(t, bytes.data() + i * es));
        }
    }
}

TEST(BufferView, ReadRawClipsAtTheEndAndCopiesExactBytes) {
    TempDir dir;
    const auto bytes = randomBytes(4 * 1000, 7);
    writeBytes(dir / "f.bin", bytes.data(), bytes.size());
    BufferView view;
    ASSERT_TRUE(view.open(dir / "f.bin", DType::f32));
    std::vector<unsigned char> out(4 * 100, 0);
    EXPECT_EQ(view.readRaw(950, 100, out.data()), 50u);
    EXPECT_TRUE(std::equal(out.begin(), out.begin() + 200, bytes.begin() + 4 * 950));
    EXPECT_EQ(view.readRaw(1000, 1, out.data()), 0u);
    EXPECT_EQ(view.readRaw(0, 0, out.data()), 0u);
}

TEST(BufferView, RaggedTailIsNotAnElement) {
    TempDir dir;
    const unsigned char bytes[7] = {0, 0, 0x80, 0x3f, 1, 2, 3};
    writeBytes(dir / "r.bin", bytes, sizeof bytes);
    BufferView view;
    ASSERT_TRUE(view.open(dir / "r.bin", DType::f32));
    EXPECT_EQ(view.size(), 1u);
    EXPECT_EQ(view.bits(0), 0x3f800000u);
    EXPECT_FALSE(view.bits(1).has_value());
}

TEST(BufferView, RefusesWhatIsNotARegularFile) {
    TempDir dir;
    const unsigned char one[4] = {1, 2, 3, 4};
    writeBytes(dir / "real.bin", one, sizeof one);
    std::filesystem::create_symlink(dir / "real.bin", dir / "link.bin");
    ASSERT_EQ(::mkfifo((dir / "fifo.bin").c_str(), 0600), 0);
    std::filesystem::create_directory(dir / "sub.bin");

    std::filesystem::create_symlink(dir / "fifo.bin", dir / "link-to-fifo.bin");
    {
        // A link to a regular file reads like the file, as the comparison reads it.
        BufferView linked;
        ASSERT_TRUE(linked.open(dir / "link.bin", DType::f32));
        EXPECT_EQ(linked.size(), 1u);
    }
    for (const char* name : {"link-to-fifo.bin", "fifo.bin", "sub.bin", "absent.bin"}) {
        SCOPED_TRACE(name);
        BufferView view;
        // A FIFO without a writer would block a plain open(); this must return at once.
        EXPECT_FALSE(view.open(dir / name, DType::f32));
        EXPECT_FALSE(view.isOpen());
        EXPECT_NE(view.error().find(name), std::string::npos) << view.error();
        EXPECT_EQ(view.size(), 0u);
        EXPECT_FALSE(view.bits(0).has_value());
    }
}

TEST(BufferView, FileThatShrinksAfterOpenGivesNoValueInsteadOfGarbage) {
    TempDir dir;
    const std::size_t n = 3 * BufferView::kPageBytes / 4;
    const auto bytes = randomBytes(n * 4, 9);
    writeBytes(dir / "s.bin", bytes.data(), bytes.size());
    BufferView view;
    ASSERT_TRUE(view.open(dir / "s.bin", DType::f32));
    ASSERT_EQ(view.size(), n);
    ASSERT_EQ(::truncate((dir / "s.bin").c_str(), BufferView::kPageBytes), 0);
    EXPECT_EQ(view.bits(0), loadBits(DType::f32, bytes.data()));
    EXPECT_FALSE(view.bits(n - 1).has_value()); // on a page past the new end
    std::vector<unsigned char> out(8);
    EXPECT_EQ(view.readRaw(n - 2, 2, out.data()), 0u);
}

TEST(BufferView, ConcurrentReadersSeeTheFileBytes) {
    TempDir dir;
    const std::size_t n = 20 * BufferView::kPageBytes / 8; // more pages than the cache holds
    const auto bytes = randomBytes(n * 8, 11);
    writeBytes(dir / "c.bin", bytes.data(), bytes.size());
    BufferView view;
    ASSERT_TRUE(view.open(dir / "c.bin", DType::u64));
    std::vector<int> mismatches(4, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            std::mt19937_64 rng(static_cast<unsigned>(t));
            for (int k = 0; k < 20000; ++k) {
                const std::uint64_t i = rng() % n;
                if (view.bits(i) != loadBits(DType::u64, bytes.data() + i * 8)) ++mismatches[t];
            }
        });
    }
    for (auto& th : threads)
        th.join();
    for (int m : mismatches)
        EXPECT_EQ(m, 0);
}

TEST(BufferView, ReopenAndMoveKeepTheRightFile) {
    TempDir dir;
    const std::uint32_t a[2] = {1, 2}, b[3] = {7, 8, 9};
    writeBytes(dir / "a.bin", a, sizeof a);
    writeBytes(dir / "b.bin", b, sizeof b);
    BufferView view;
    ASSERT_TRUE(view.open(dir / "a.bin", DType::u32));
    EXPECT_EQ(view.bits(1), 2u);
    ASSERT_TRUE(view.open(dir / "b.bin", DType::u32)); // must not serve a.bin's cached page
    EXPECT_EQ(view.size(), 3u);
    EXPECT_EQ(view.bits(1), 8u);
    BufferView moved(std::move(view));
    EXPECT_EQ(moved.bits(2), 9u);
    EXPECT_EQ(moved.path(), dir / "b.bin");
}

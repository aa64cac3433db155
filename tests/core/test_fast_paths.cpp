// The compare routine's fast paths (a memcmp per block of elements, a branch-free NaN/Inf/scale
// scan, files streamed in fixed chunks, buffers compared on several threads) against a plain
// per-element pass written here from dtype.h's element rules alone, on randomised inputs of
// every element type, awkward lengths (0, 1, 3, block and chunk boundaries +- 1) and values
// chosen to hit every branch (NaN payloads, +-Inf, +-0, denormals, extremes).
#include "dumpscope/analyze.h"
#include "dumpscope/report.h"
#include "dumpscope/stats.h"

#include "compare/dense_f32.h"
#include "simple_stats.h"
#include "test_hooks.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace dumpscope {
namespace {

using test::TempDir;

using dumpscope::test::kAllTypes;
using test::expectSameStats;
using test::simpleStats;

// Raw bits that reach every branch: NaNs with several payloads and signs, +-Inf, +-0, the
// smallest denormal, the largest finite, and the integer extremes.
std::vector<std::uint64_t> specialBits(DType t) {
    switch (t) {
    case DType::f16:
        return {0x7e00, 0xfe01, 0x7c01, 0x7c00, 0xfc00, 0x0000,
                0x8000, 0x0001, 0x7bff, 0xfbff, 0x3c00};
    case DType::bf16:
        return {0x7fc0, 0xffc1, 0x7f81, 0x7f80, 0xff80, 0x0000,
                0x8000, 0x0001, 0x7f7f, 0xff7f, 0x3f80};
    case DType::f32:
        return {0x7fc00000, 0xffc00001, 0x7f800001, 0x7f800000, 0xff800000, 0x00000000,
                0x80000000, 0x00000001, 0x7f7fffff, 0xff7fffff, 0x3f800000};
    case DType::f64:
        return {0x7ff8000000000000, 0xfff8000000000001,
                0x7ff0000000000001, 0x7ff0000000000000,
                0xfff0000000000000, 0,
                0x8000000000000000, 1,
                0x7fefffffffffffff, 0xffefffffffffffff};
    default:
        return {0,    1,    ~0ull, ~0ull >> 1, 1ull << 63, 1ull << 31, (1ull << 31) - 1,
                0x80, 0x7f, 0x8000};
    }
}

// One side of `n` elements: random bits, one element in eight a special value.
std::vector<unsigned char> randomSide(DType t, std::size_t n, std::mt19937_64& rng) {
    const std::size_t es = dtypeSize(t);
    const auto specials = specialBits(t);
    std::vector<unsigned char> v(n * es);
    for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t bits = rng();
        if (rng() % 8 == 0) bits = specials[rng() % specials.size()];
        std::memcpy(v.data() + i * es, &bits, es); // little-endian: the low bytes
    }
    return v;
}

// B from A with differences of a given density: none, rare (most blocks equal, so the memcmp
// fast path is taken), dense, or at block edges (first and last element of a block of 1024
// elements or of 4 KiB, and every fourth element).
std::vector<unsigned char> perturbed(DType t, const std::vector<unsigned char>& a, int density,
                                     std::mt19937_64& rng) {
    const std::size_t es = dtypeSize(t), n = a.size() / es;
    const auto specials = specialBits(t);
    auto b = a;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t block = 4096 / es; // the compare's block: 4 KiB of each side
        const bool edge = i % 1024 == 0 || i % 1024 == 1023 || i % block == 0 ||
                          i % block == block - 1 ||
                          i % 4 == 3; // and one lane of every 8-byte word the search reads
        const bool change = density == 1   ? rng() % 3000 == 0
                            : density == 2 ? rng() % 3 == 0
                                           : density == 3 && edge;
        if (!change) continue;
        std::uint64_t bits = 0;
        std::memcpy(&bits, b.data() + i * es, es);
        switch (rng() % 3) {
        case 0:
            bits += 1 + rng() % 4;
            break; // a few ULP
        case 1:
            bits = specials[rng() % specials.size()];
            break; // into or out of NaN/Inf/0
        default:
            bits ^= 1ull << (rng() % (es * 8));
            break; // any single bit, sign included
        }
        std::memcpy(b.data() + i * es, &bits, es);
    }
    return b;
}

Tolerance someTolerance(int which) {
    Tolerance tol;
    if (which == 1) tol.atol = 1e-3, tol.rtol = 1e-2;
    if (which == 2) tol.ulp = 3;
    return tol;
}

TEST(FastPaths, CompareMemoryMatchesTheSimplePathOnEveryTypeAndAwkwardLength) {
    std::mt19937_64 rng(20261129);
    for (DType t : kAllTypes)
        for (std::size_t n :
             {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{1023}, std::size_t{1024},
              std::size_t{1025}, std::size_t{2047}, std::size_t{2048}, std::size_t{2049},
              std::size_t{5000}, 4095 / dtypeSize(t), 4096 / dtypeSize(t), 4097 / dtypeSize(t) + 1,
              8192 / dtypeSize(t) + 7})
            for (int density = 0; density < 4; ++density) {
                const auto a = randomSide(t, n, rng);
                auto b = perturbed(t, a, density, rng);
                // Sometimes B is longer or shorter: the tail is only scanned and hashed.
                const std::size_t extra = rng() % 3 == 0 ? 1 + rng() % 3 : 0;
                if (extra) {
                    const auto tail = randomSide(t, extra, rng);
                    b.insert(b.end(), tail.begin(), tail.end());
                }
                const bool bShorter = extra && rng() % 2;
                const auto& x = bShorter ? b : a;
                const auto& y = bShorter ? a : b;
                const Tolerance tol = someTolerance(density % 3);
                SCOPED_TRACE(std::string(dtypeName(t)) + " n=" + std::to_string(n) + " density=" +
                             std::to_string(density) + " extra=" + std::to_string(extra));
                const auto simple = simpleStats(t, x, y, tol);
                expectSameStats(compareMemory(t, x.data(), x.size(), y.data(), y.size(), tol),
                                simple);
                // And with the AVX2 paths off (the word search and per-side scans a CPU
                // without AVX2 runs); a no-op where the CPU has none.
                detail::setVectorPathsAllowed(false);
                expectSameStats(compareMemory(t, x.data(), x.size(), y.data(), y.size(), tol),
                                simple);
                detail::setVectorPathsAllowed(true);
            }
}

// Feeding the same bytes in uneven pieces (as a file reader does) must not change any number,
// hash or kept element: every statistic is a pure function of the bytes.
TEST(FastPaths, AccumulatingInUnevenPiecesMatchesOnePass) {
    std::mt19937_64 rng(5);
    for (DType t : kAllTypes) {
        const std::size_t es = dtypeSize(t), n = 3000;
        const auto a = randomSide(t, n, rng);
        const auto b = perturbed(t, a, 2, rng);
        const auto whole = compareMemory(t, a.data(), a.size(), b.data(), b.size());
        StatsAccumulator acc(t);
        for (std::size_t off = 0, len = 0; off < n; off += len) {
            len = std::min<std::size_t>(n - off, rng() % 1100); // 0-length pieces too
            acc.addPair(a.data() + off * es, b.data() + off * es, len, off);
        }
        const auto pieces = acc.finish();
        SCOPED_TRACE(std::string(dtypeName(t)));
        expectSameStats(pieces, whole);
        test::expectSameHashes(pieces, whole);
    }
}

// compareFiles reads in chunks of 128 KiB today; lengths around one, two and several chunks
// (and around 64 KiB and 1 MiB, should the chunk change) for every element size, with B
// longer or shorter so the tail loop crosses a chunk boundary too.
TEST(FastPaths, FilesStreamedInChunksMatchTheSimplePath) {
    std::mt19937_64 rng(11);
    TempDir dir;
    int k = 0;
    for (DType t : {DType::u8, DType::bf16, DType::f32, DType::f64}) {
        const std::size_t es = dtypeSize(t);
        for (std::size_t bytes : {64u << 10, 128u << 10, 256u << 10, 1u << 20, 2u << 20}) {
            for (long delta : {-1L, 0L, 1L}) {
                const std::size_t n = bytes / es + static_cast<std::size_t>(delta);
                const auto a = randomSide(t, n, rng);
                auto b = perturbed(t, a, 1 + k % 3, rng);
                const std::size_t tail = k % 3 == 0 ? 0 : bytes / es / 2 + 1;
                if (k % 3 == 1) b.resize(b.size() - std::min(b.size(), tail * es)); // B shorter
                if (k % 3 == 2) {
                    const auto more = randomSide(t, tail, rng); // B longer
                    b.insert(b.end(), more.begin(), more.end());
                }
                const auto pa = dir / ("a" + std::to_string(k) + ".bin");
                const auto pb = dir / ("b" + std::to_string(k) + ".bin");
                ++k;
                test::writeBytes(pa, a.data(), a.size());
                test::writeBytes(pb, b.data(), b.size());
                SCOPED_TRACE(std::string(dtypeName(t)) + " bytes=" + std::to_string(bytes) +
                             " delta=" + std::to_string(delta) + " k=" + std::to_string(k));
                const auto r = compareFiles(pa, pb, t);
                const auto simple = simpleStats(t, a, b, {});
                expectSameStats(r.stats, simple);
                const auto memory = compareMemory(t, a.data(), a.size(), b.data(), b.size());
                EXPECT_EQ(r.stats.hashA, memory.hashA);
                EXPECT_EQ(r.stats.hashB, memory.hashB);
                EXPECT_EQ(r.status, a.size() != b.size() ? Status::length_mismatch
                                    : simple.nDiff       ? Status::diverge
                                                         : Status::equal);
            }
        }
    }
}

// Several buffers are compared on several threads, and the whole JSON
// report (every number, every order) is the same as a single-threaded run's.
TEST(FastPaths, TwoThreadsGiveTheSameReportAsOne) {
    std::mt19937_64 rng(3);
    TempDir dir;
    for (std::uint64_t step = 0; step < 3; ++step)
        for (const auto& group : defaultSchema().groups)
            for (const auto& buffer : group.buffers) {
                // Uneven sizes, so the threads finish out of order.
                const std::size_t n = 256 * (1 + rng() % 40);
                const auto a = randomSide(buffer.dtype, n, rng);
                const auto b = perturbed(buffer.dtype, a, static_cast<int>(rng() % 4), rng);
                const std::string name =
                    "step_" + std::to_string(step) + "_" + buffer.file + ".bin";
                std::filesystem::create_directories(dir / "a");
                std::filesystem::create_directories(dir / "b");
                test::writeBytes(dir / "a" / name, a.data(), a.size());
                test::writeBytes(dir / "b" / name, b.data(), b.size());
            }
    AnalyzeOptions one, two;
    one.threads = 1;
    two.threads = 2;
    const auto single = analyze(dir / "a", dir / "b", one);
    const auto dual = analyze(dir / "a", dir / "b", two);
    ASSERT_EQ(single.buffers.size(), 93u);
    std::size_t diverging = 0;
    for (const auto& b : single.buffers)
        diverging += b.status == Status::diverge;
    EXPECT_GT(diverging, 10u); // the report has something to get wrong
    EXPECT_EQ(reportJson(single), reportJson(dual));
    EXPECT_EQ(reportMarkdown(single), reportMarkdown(dual));
}

} // namespace
} // namespace dumpscope

// DiffIndex against a plain list of differing positions, on randomized pairs of every element
// type and lengths around the bitmap's word, rank-block and scan-chunk boundaries; the filtered
// variants against the statistics' histograms; cancel, read failures and the CSV export.
#include "dumpscope/diff_index.h"

#include "test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include <unistd.h>

using namespace dumpscope;
using dumpscope::test::TempDir;
using dumpscope::test::writeBytes;

namespace {

using dumpscope::test::kAllTypes;

struct Pair {
    std::vector<unsigned char> a, b;
};

// B is A with about `density` of its elements changed in one random bit.
Pair randomPair(DType t, std::uint64_t n, double density, unsigned seed) {
    const std::size_t es = dtypeSize(t);
    std::mt19937_64 rng(seed);
    Pair p;
    p.a.resize(n * es);
    for (auto& x : p.a)
        x = static_cast<unsigned char>(rng());
    p.b = p.a;
    std::uniform_real_distribution<double> u(0, 1);
    for (std::uint64_t i = 0; i < n; ++i) {
        if (u(rng) >= density) continue;
        const std::size_t bit = rng() % (es * 8);
        p.b[i * es + bit / 8] ^= static_cast<unsigned char>(1u << (bit % 8));
    }
    return p;
}

std::vector<std::uint64_t> referenceDiffs(DType t, const Pair& p, std::uint64_t n,
                                          const DiffFilter& f = {}) {
    const std::size_t es = dtypeSize(t);
    std::vector<std::uint64_t> out;
    for (std::uint64_t i = 0; i < n; ++i) {
        const auto x = loadBits(t, p.a.data() + i * es), y = loadBits(t, p.b.data() + i * es);
        if (x != y && f.matches(t, x, y)) out.push_back(i);
    }
    return out;
}

void expectMatches(const DiffIndex& index, const std::vector<std::uint64_t>& ref, std::uint64_t n) {
    ASSERT_EQ(index.size(), n);
    ASSERT_EQ(index.count(), ref.size());
    std::size_t k = 0; // ref entries before i
    for (std::uint64_t i = 0; i < n; ++i) {
        const bool in = k < ref.size() && ref[k] == i;
        ASSERT_EQ(index.contains(i), in) << "index " << i;
        ASSERT_EQ(index.rank(i), k) << "index " << i;
        // Navigation everywhere on short pairs; on long ones near block edges and a stride.
        if (n <= 8192 || i % 4096 < 2 || i % 4096 > 4093 || i % 61 == 0) {
            const std::size_t nk = in ? k + 1 : k;
            ASSERT_EQ(index.nextAfter(i), nk < ref.size() ? std::optional(ref[nk]) : std::nullopt)
                << i;
            ASSERT_EQ(index.previousBefore(i), k > 0 ? std::optional(ref[k - 1]) : std::nullopt)
                << i;
        }
        if (in) ++k;
    }
    EXPECT_EQ(index.rank(n), ref.size());
    EXPECT_EQ(index.rank(n + 1000), ref.size());
    for (std::size_t j = 0; j < ref.size(); ++j)
        ASSERT_EQ(index.select(j), ref[j]) << j;
    EXPECT_FALSE(index.select(ref.size()).has_value());
    EXPECT_FALSE(index.nextAfter(n).has_value());
}

// Word, rank-block (4096) and scan-chunk (65536) boundaries, each +- 1.
const std::uint64_t kLengths[] = {0, 1, 3, 63, 64, 65, 4095, 4096, 4097, 65535, 65536, 65537};

} // namespace

TEST(DiffIndex, MatchesReferenceOnRandomPairsOfEveryTypeAndAwkwardLength) {
    unsigned seed = 100;
    for (DType t : kAllTypes) {
        for (std::uint64_t n : kLengths) {
            for (double density : {0.0, 0.001, 0.3, 1.0}) {
                // Past the rank block, one density is enough: the scan chunk is what changes.
                if (n > 8192 && density != 0.3) continue;
                SCOPED_TRACE(std::string(dtypeName(t)) + " n=" + std::to_string(n) +
                             " density=" + std::to_string(density));
                const Pair p = randomPair(t, n, density, seed++);
                const auto index = DiffIndex::fromMemory(t, p.a.data(), p.b.data(), n);
                expectMatches(index, referenceDiffs(t, p, n), n);
            }
        }
    }
}

TEST(DiffIndex, BuildFromFilesEqualsMemoryAndCoversTheCommonPrefix) {
    TempDir dir;
    unsigned seed = 500;
    for (DType t : {DType::f32, DType::bf16, DType::f64, DType::u8}) {
        for (std::uint64_t n : {std::uint64_t{0}, std::uint64_t{3}, std::uint64_t{65537},
                                std::uint64_t{3 * 65536 + 5}}) {
            SCOPED_TRACE(std::string(dtypeName(t)) + " n=" + std::to_string(n));
            const std::size_t es = dtypeSize(t);
            Pair p = randomPair(t, n, 0.01, seed++);
            writeBytes(dir / "a.bin", p.a.data(), p.a.size());
            p.b.resize(p.b.size() + 2 * es, 0xab); // B longer: the tail is not compared
            writeBytes(dir / "b.bin", p.b.data(), p.b.size());
            BufferView a, b;
            ASSERT_TRUE(a.open(dir / "a.bin", t));
            ASSERT_TRUE(b.open(dir / "b.bin", t));
            std::uint64_t lastDone = 0, calls = 0;
            auto index = DiffIndex::build(a, b, {}, [&](std::uint64_t done, std::uint64_t total) {
                EXPECT_EQ(total, n);
                EXPECT_GT(done, lastDone);
                lastDone = done;
                ++calls;
                return true;
            });
            ASSERT_TRUE(index.has_value());
            EXPECT_EQ(lastDone, n);
            EXPECT_EQ(calls, (n + 65535) / 65536);
            expectMatches(*index, referenceDiffs(t, p, n), n);
        }
    }
}

TEST(DiffIndex, CancelStopsTheScan) {
    TempDir dir;
    const Pair p = randomPair(DType::f32, 4 * 65536, 0.5, 3);
    writeBytes(dir / "a.bin", p.a.data(), p.a.size());
    writeBytes(dir / "b.bin", p.b.data(), p.b.size());
    BufferView a, b;
    ASSERT_TRUE(a.open(dir / "a.bin", DType::f32));
    ASSERT_TRUE(b.open(dir / "b.bin", DType::f32));
    int calls = 0;
    auto index = DiffIndex::build(a, b, {}, [&](std::uint64_t, std::uint64_t) {
        ++calls;
        return false;
    });
    EXPECT_FALSE(index.has_value());
    EXPECT_EQ(calls, 1);
}

TEST(DiffIndex, ReadFailureNamesTheFile) {
    TempDir dir;
    const Pair p = randomPair(DType::f32, 2 * 65536, 0.5, 4);
    writeBytes(dir / "a.bin", p.a.data(), p.a.size());
    writeBytes(dir / "b.bin", p.b.data(), p.b.size());
    BufferView a, b;
    ASSERT_TRUE(a.open(dir / "a.bin", DType::f32));
    ASSERT_TRUE(b.open(dir / "b.bin", DType::f32));
    ASSERT_EQ(::truncate((dir / "b.bin").c_str(), 4 * 1000), 0);
    std::string error;
    EXPECT_FALSE(DiffIndex::build(a, b, {}, {}, &error).has_value());
    EXPECT_NE(error.find("b.bin"), std::string::npos) << error;
}

namespace {
// float32 pairs whose differences spread over many decades and ULP bins, plus the special bars:
// sign of zero only, NaN on a side, an infinite Δ.
Pair spreadFloatPair(std::uint64_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::vector<float> a(n), b(n);
    std::uniform_real_distribution<float> mag(-3, 3);
    for (std::uint64_t i = 0; i < n; ++i) {
        a[i] = b[i] = std::pow(10.0f, mag(rng)) * (rng() % 2 ? 1.f : -1.f);
        switch (rng() % 8) {
        case 0:
            break; // equal
        case 1:
            b[i] = a[i] + std::pow(10.0f, static_cast<float>(rng() % 12) - 9.f);
            break;
        case 2:
            b[i] = std::nextafter(a[i], 1e30f);
            break;
        case 3:
            b[i] = -a[i];
            break;
        case 4:
            a[i] = 0.0f, b[i] = -0.0f;
            break;
        case 5:
            b[i] = std::nanf("");
            break;
        case 6:
            b[i] = (rng() % 2) ? INFINITY : -INFINITY;
            break;
        default:
            b[i] = a[i] * 1.5f;
            break;
        }
    }
    Pair p;
    p.a.resize(n * 4);
    p.b.resize(n * 4);
    std::memcpy(p.a.data(), a.data(), n * 4);
    std::memcpy(p.b.data(), b.data(), n * 4);
    return p;
}
} // namespace

TEST(DiffIndex, FilteredIndexesPartitionTheDifferencesLikeTheHistograms) {
    const std::uint64_t n = 3 * 4096 + 17;
    const Pair p = spreadFloatPair(n, 21);
    const DType t = DType::f32;
    const auto all = DiffIndex::fromMemory(t, p.a.data(), p.b.data(), n);
    const BufferStats stats = compareMemory(t, p.a.data(), p.a.size(), p.b.data(), p.b.size());
    ASSERT_EQ(all.count(), stats.nDiff);

    std::uint64_t decadeTotal = 0;
    for (int d = DeltaHistogram::kMinDecade; d <= DeltaHistogram::kMaxDecade; ++d) {
        const auto f = DiffFilter::deltaDecade(d);
        const auto idx = DiffIndex::fromMemory(t, p.a.data(), p.b.data(), n, f);
        ASSERT_EQ(idx.count(), stats.deltaHistogram.at(d)) << "decade " << d;
        decadeTotal += idx.count();
        if (idx.count() > 0) expectMatches(idx, referenceDiffs(t, p, n, f), n);
    }
    const auto zero =
        DiffIndex::fromMemory(t, p.a.data(), p.b.data(), n, DiffFilter::deltaDecade(kDecadeZero));
    const auto nan =
        DiffIndex::fromMemory(t, p.a.data(), p.b.data(), n, DiffFilter::deltaDecade(kDecadeNan));
    const auto inf = DiffIndex::fromMemory(t, p.a.data(), p.b.data(), n,
                                           DiffFilter::deltaDecade(kDecadeInfinite));
    EXPECT_GT(zero.count(), 0u);
    EXPECT_GT(nan.count(), 0u);
    EXPECT_GT(inf.count(), 0u);
    EXPECT_EQ(zero.count(), stats.deltaHistogram.zero);
    EXPECT_EQ(nan.count(), stats.deltaHistogram.nan);
    EXPECT_EQ(inf.count(), stats.deltaHistogram.infinite);
    EXPECT_EQ(decadeTotal + zero.count() + nan.count() + inf.count(), all.count());

    std::uint64_t ulpTotal = 0;
    for (int k = 0; k < 64; ++k) {
        const auto idx = DiffIndex::fromMemory(t, p.a.data(), p.b.data(), n, DiffFilter::ulpBin(k));
        ASSERT_EQ(idx.count(), stats.ulpHistogram.counts[static_cast<std::size_t>(k)]) << k;
        ulpTotal += idx.count();
    }
    const auto undefinedUlp =
        DiffIndex::fromMemory(t, p.a.data(), p.b.data(), n, DiffFilter::ulpBin(kUlpUndefined));
    EXPECT_EQ(undefinedUlp.count(), stats.ulpHistogram.undefined);
    EXPECT_EQ(ulpTotal + undefinedUlp.count(), all.count());
}

TEST(DiffIndex, ElementDeltaOfKnownPairs) {
    const auto one = elementDelta(DType::f32, 0x3f800000, 0x3f800001); // 1 vs nextafter(1)
    EXPECT_EQ(one.a, 1.0);
    EXPECT_DOUBLE_EQ(one.absDelta, std::ldexp(1.0, -23));
    EXPECT_DOUBLE_EQ(one.relDelta, std::ldexp(1.0, -23) / one.b);
    EXPECT_EQ(one.ulp, 1u);
    const auto zeros = elementDelta(DType::f32, 0x00000000, 0x80000000);
    EXPECT_EQ(zeros.absDelta, 0.0);
    EXPECT_EQ(zeros.relDelta, 0.0);
    EXPECT_EQ(zeros.ulp, 1u);
    const auto nan = elementDelta(DType::f32, 0x7fc00000, 0x3f800000);
    EXPECT_TRUE(std::isnan(nan.absDelta));
    EXPECT_FALSE(nan.ulp.has_value());
    const auto ints = elementDelta(DType::i32, 0xffffffff, 2); // -1 vs 2
    EXPECT_EQ(ints.absDelta, 3.0);
    EXPECT_DOUBLE_EQ(ints.relDelta, 1.5);
    EXPECT_EQ(ints.ulp, 3u);
}

TEST(DiffIndex, CsvListsTheIndexedElements) {
    TempDir dir;
    const std::vector<float> a = {1.0f, 2.0f, 3.0f, 0.0f, 5.0f};
    const std::vector<float> b = {1.0f, 2.5f, 3.0f, -0.0f};
    test::writeArray(dir / "a.bin", a);
    test::writeArray(dir / "b.bin", b);
    BufferView va, vb;
    ASSERT_TRUE(va.open(dir / "a.bin", DType::f32));
    ASSERT_TRUE(vb.open(dir / "b.bin", DType::f32));
    auto index = DiffIndex::build(va, vb);
    ASSERT_TRUE(index.has_value());
    std::string csv;
    ASSERT_TRUE(writeDiffCsv(va, vb, *index, [&](std::string_view s) {
        csv += s;
        return true;
    }));
    EXPECT_EQ(csv, "index,a,b,abs_delta,rel_delta,ulp,a_bits,b_bits\n"
                   "1,2,2.5,0.5,0.2,2097152,0x40000000,0x40200000\n"
                   "3,0,-0,0,0,1,0x00000000,0x80000000\n");
    // A sink that fails stops the export and is reported.
    EXPECT_FALSE(writeDiffCsv(va, vb, *index, [](std::string_view) { return false; }));
}

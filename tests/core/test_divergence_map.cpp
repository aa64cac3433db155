// The divergence map on files written here: cells against hand-computed expectations (whole
// rows, single elements, a downsampled grid, a strip), against the statistics' own counts for
// every element type, the click target of a cell, and every error as a message.
#include "dumpscope/divergence_map.h"

#include "dumpscope/analyze.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <vector>

using namespace dumpscope;
using dumpscope::test::kAllTypes;
using dumpscope::test::TempDir;
using dumpscope::test::writeArray;
using dumpscope::test::writeBytes;

namespace {

struct FloatPair {
    TempDir dir;
    std::vector<float> a, b;
    explicit FloatPair(std::size_t n) : a(n), b(n) {
        for (std::size_t i = 0; i < n; ++i)
            a[i] = b[i] = 1.0f + float(i % 97) * 0.125f;
    }
    DivergenceMap map(const std::vector<std::uint64_t>& shape, const MapResolution& res = {}) {
        writeArray(dir / "a.bin", a);
        writeArray(dir / "b.bin", b);
        return computeDivergenceMap(dir / "a.bin", dir / "b.bin", DType::f32, shape, res);
    }
};

std::uint64_t sumDiffs(const DivergenceMap& map) {
    std::uint64_t sum = 0;
    for (const MapCell& c : map.cells)
        sum += c.nDiff;
    return sum;
}

} // namespace

TEST(DivergenceMap, WholeRowsThreeAndSeventeenAreExactlyTheirCells) {
    FloatPair p(32 * 8);
    for (std::size_t col = 0; col < 8; ++col) {
        p.b[3 * 8 + col] += 1.0f;
        p.b[17 * 8 + col] -= 0.5f;
    }
    const DivergenceMap map = p.map({32, 8});
    ASSERT_TRUE(map.ok()) << map.error;
    EXPECT_FALSE(map.flat);
    ASSERT_EQ(map.gridRows, 32u);
    ASSERT_EQ(map.gridCols, 8u);
    EXPECT_EQ(map.rowsPerCell, 1u);
    EXPECT_EQ(map.colsPerCell, 1u);
    for (std::uint32_t r = 0; r < 32; ++r)
        for (std::uint32_t c = 0; c < 8; ++c) {
            const MapCell& cell = map.cell(r, c);
            const bool differs = r == 3 || r == 17;
            EXPECT_EQ(cell.nDiff, differs ? 1u : 0u) << r << "," << c;
            EXPECT_EQ(cell.maxAbsDelta, r == 3 ? 1.0 : r == 17 ? 0.5 : 0.0) << r << "," << c;
            EXPECT_EQ(cell.firstDiff.has_value(), differs);
        }
    EXPECT_EQ(map.total.nDiff, 16u);
    EXPECT_EQ(map.total.maxAbsDelta, 1.0);
    EXPECT_EQ(map.total.firstDiff, 24u);

    // Four rows per cell: rows 0-3 and 16-19 hold them, one differing element per cell.
    const DivergenceMap coarse = p.map({32, 8}, {8, 8, 512});
    ASSERT_TRUE(coarse.ok()) << coarse.error;
    ASSERT_EQ(coarse.gridRows, 8u);
    EXPECT_EQ(coarse.rowsPerCell, 4u);
    for (std::uint32_t r = 0; r < 8; ++r)
        for (std::uint32_t c = 0; c < 8; ++c)
            EXPECT_EQ(coarse.cell(r, c).nDiff, r == 0 || r == 4 ? 1u : 0u) << r << "," << c;
    EXPECT_EQ(coarse.elementOfCell(4, 5), 17u * 8 + 5);
}

TEST(DivergenceMap, ScatteredDifferencesSumToTheStatisticsCount) {
    const std::uint64_t rows = 200, cols = 150;
    FloatPair p(rows * cols);
    std::mt19937 rng(7);
    std::set<std::uint64_t> picked;
    while (picked.size() < rows * cols / 100)
        picked.insert(rng() % (rows * cols));
    for (auto i : picked)
        p.b[i] = -p.a[i];
    const DivergenceMap map = p.map({rows, cols}, {64, 64, 512});
    ASSERT_TRUE(map.ok()) << map.error;
    EXPECT_EQ(map.rowsPerCell, 4u); // ceil(200 / 64) = 4 -> 50 cell rows
    EXPECT_EQ(map.gridRows, 50u);
    EXPECT_EQ(map.colsPerCell, 3u); // ceil(150 / 64) = 3 -> 50 cell columns
    EXPECT_EQ(map.gridCols, 50u);
    const BufferResult stats = compareFiles(p.dir / "a.bin", p.dir / "b.bin", DType::f32);
    EXPECT_EQ(stats.stats.nDiff, picked.size());
    EXPECT_EQ(sumDiffs(map), picked.size());
    EXPECT_EQ(map.total.nDiff, picked.size());
    EXPECT_EQ(map.total.maxAbsDelta, stats.stats.maxAbsDelta);
    // Each element lands in the cell of its (row / 4, col / 3), the first one as the cell's target.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::pair<std::uint64_t, std::uint64_t>> want;
    for (auto i : picked) {
        auto& [count, first] = want[{std::uint32_t(i / cols / 4), std::uint32_t(i % cols / 3)}];
        if (count++ == 0) first = i;
    }
    for (std::uint32_t r = 0; r < map.gridRows; ++r)
        for (std::uint32_t c = 0; c < map.gridCols; ++c) {
            auto it = want.find({r, c});
            EXPECT_EQ(map.cell(r, c).nDiff, it == want.end() ? 0 : it->second.first);
            if (it != want.end()) {
                EXPECT_EQ(map.elementOfCell(r, c), it->second.second);
            }
        }
}

TEST(DivergenceMap, MillionElementsDownsampleToAHundredByHundred) {
    const std::uint64_t side = 1000;
    FloatPair p(side * side);
    // Element (r, c) differs when r == c (the diagonal) or r == 500: 1000 + 999 differences.
    for (std::uint64_t r = 0; r < side; ++r)
        p.b[r * side + r] += 2.0f;
    for (std::uint64_t c = 0; c < side; ++c)
        if (c != 500) p.b[500 * side + c] += 3.0f;
    const DivergenceMap map = p.map({side, side}, {100, 100, 512});
    ASSERT_TRUE(map.ok()) << map.error;
    ASSERT_EQ(map.gridRows, 100u);
    ASSERT_EQ(map.gridCols, 100u);
    EXPECT_EQ(map.cells.size(), 10000u);
    EXPECT_EQ(sumDiffs(map), 1999u);
    for (std::uint32_t r = 0; r < 100; ++r)
        for (std::uint32_t c = 0; c < 100; ++c) {
            // Diagonal cells hold 10; cell row 50 holds row 500's 10 per cell, but 9 more in
            // (50, 50), whose (500, 500) is the diagonal's.
            const std::uint64_t expected = (r == c ? 10 : 0) + (r == 50 ? (c == 50 ? 9 : 10) : 0);
            ASSERT_EQ(map.cell(r, c).nDiff, expected) << r << "," << c;
        }
    EXPECT_EQ(map.cell(50, 7).maxAbsDelta, 3.0);
    EXPECT_EQ(map.cell(7, 7).maxAbsDelta, 2.0);
    EXPECT_EQ(map.elementOfCell(7, 7), 70u * side + 70);
    EXPECT_EQ(map.elementOfCell(50, 51), 500u * side + 510);
    EXPECT_EQ(map.elementOfCell(0, 99), 990u); // equal cell: its first element
    const auto range = map.cellRange(99, 99);
    EXPECT_EQ(range.rowFirst, 990u);
    EXPECT_EQ(range.rowEnd, 1000u);
    EXPECT_EQ(map.cellOfElement(500u * side + 999),
              (std::pair<std::uint32_t, std::uint32_t>{50, 99}));
}

TEST(DivergenceMap, FlatBufferIsADensityStrip) {
    FloatPair p(1000);
    for (std::size_t i : {5, 250, 251, 999})
        p.b[i] += 1.0f;
    const DivergenceMap strip = p.map({}, {128, 128, 10});
    ASSERT_TRUE(strip.ok()) << strip.error;
    EXPECT_TRUE(strip.flat);
    EXPECT_EQ(strip.gridRows, 1u);
    ASSERT_EQ(strip.gridCols, 10u);
    EXPECT_EQ(strip.colsPerCell, 100u);
    const std::uint64_t expected[10] = {1, 0, 2, 0, 0, 0, 0, 0, 0, 1};
    for (std::uint32_t bin = 0; bin < 10; ++bin)
        EXPECT_EQ(strip.cell(0, bin).nDiff, expected[bin]) << bin;
    EXPECT_EQ(strip.elementOfCell(0, 2), 250u);
    EXPECT_EQ(strip.elementOfCell(0, 1), 100u);
    EXPECT_EQ(strip.elementOfCell(1, 0), std::nullopt);

    // One dimension is flat too; fewer elements than bins give one bin per element.
    const DivergenceMap oneDim = p.map({1000}, {128, 128, 2048});
    ASSERT_TRUE(oneDim.ok()) << oneDim.error;
    EXPECT_TRUE(oneDim.flat);
    EXPECT_EQ(oneDim.gridCols, 1000u);
    EXPECT_EQ(oneDim.cell(0, 251).nDiff, 1u);

    // 10 elements in 3 bins: 4, 4 and a short last bin of 2.
    FloatPair small(10);
    small.b[9] = 0;
    const DivergenceMap three = small.map({}, {1, 1, 3});
    ASSERT_TRUE(three.ok()) << three.error;
    ASSERT_EQ(three.gridCols, 3u);
    EXPECT_EQ(three.cellRange(0, 2).colFirst, 8u);
    EXPECT_EQ(three.cellRange(0, 2).colEnd, 10u);
    EXPECT_EQ(three.cell(0, 2).nDiff, 1u);
}

TEST(DivergenceMap, NanAndInfMismatchesAreFlaggedNotRanked) {
    FloatPair p(4 * 4);
    p.b[1] = std::numeric_limits<float>::quiet_NaN(); // cell (0, 1): NaN on one side
    p.b[6] = std::numeric_limits<float>::infinity();  // cell (1, 2): Inf vs finite
    const float nan1 = std::bit_cast<float>(0x7fc00001u), nan2 = std::bit_cast<float>(0x7fc00002u);
    p.a[11] = nan1, p.b[11] = nan2;  // cell (2, 3): NaN payloads
    p.a[12] = 0.0f, p.b[12] = -0.0f; // cell (3, 0): signed zero
    const DivergenceMap map = p.map({4, 4});
    ASSERT_TRUE(map.ok()) << map.error;
    EXPECT_EQ(map.cell(0, 1).nDiff, 1u);
    EXPECT_EQ(map.cell(0, 1).nNonFinite, 1u);
    EXPECT_EQ(map.cell(0, 1).maxAbsDelta, 0.0);
    EXPECT_EQ(map.cell(1, 2).nNonFinite, 1u);
    EXPECT_TRUE(std::isinf(map.cell(1, 2).maxAbsDelta));
    EXPECT_EQ(map.cell(2, 3).nDiff, 1u);
    EXPECT_EQ(map.cell(2, 3).nNonFinite, 0u);
    EXPECT_EQ(map.cell(3, 0).nDiff, 1u);
    EXPECT_EQ(map.cell(3, 0).maxAbsDelta, 0.0);
    EXPECT_EQ(map.total.nDiff, 4u);
    const BufferResult stats = compareFiles(p.dir / "a.bin", p.dir / "b.bin", DType::f32);
    EXPECT_EQ(map.total.nNonFinite, stats.stats.nonFiniteMismatches);
}

// Random bytes with single-bit flips (NaNs, Infs and huge integers included), shaped so that
// the grid is exact: every cell row and column must be the statistics' per-row and per-column
// counts, and the whole map their count, NaN/Inf mismatches and max|Δ|.
TEST(DivergenceMap, EveryElementTypeAgreesWithTheStatistics) {
    for (DType t : kAllTypes) {
        const std::size_t es = dtypeSize(t);
        const std::uint64_t rows = 37, cols = 29, n = rows * cols;
        std::mt19937_64 rng(unsigned(t) + 11);
        std::vector<unsigned char> a(n * es), b;
        for (auto& x : a)
            x = static_cast<unsigned char>(rng());
        b = a;
        for (std::uint64_t i = 0; i < n; i += 1 + rng() % 9) {
            const std::size_t bit = rng() % (es * 8);
            b[i * es + bit / 8] ^= static_cast<unsigned char>(1u << (bit % 8));
        }
        TempDir dir;
        writeBytes(dir / "a.bin", a.data(), a.size());
        writeBytes(dir / "b.bin", b.data(), b.size());
        CompareOptions options;
        options.shape = {rows, cols};
        const BufferResult r = compareFiles(dir / "a.bin", dir / "b.bin", t, options);
        const DivergenceMap map =
            computeDivergenceMap(dir / "a.bin", dir / "b.bin", t, {rows, cols});
        ASSERT_TRUE(map.ok()) << dtypeName(t) << ": " << map.error;
        ASSERT_EQ(map.gridRows, rows);
        ASSERT_EQ(map.gridCols, cols);
        ASSERT_EQ(r.stats.rowDiffs.size(), rows);
        for (std::uint32_t row = 0; row < rows; ++row) {
            std::uint64_t sum = 0;
            for (std::uint32_t col = 0; col < cols; ++col)
                sum += map.cell(row, col).nDiff;
            EXPECT_EQ(sum, r.stats.rowDiffs[row]) << dtypeName(t) << " row " << row;
        }
        for (std::uint32_t col = 0; col < cols; ++col) {
            std::uint64_t sum = 0;
            for (std::uint32_t row = 0; row < rows; ++row)
                sum += map.cell(row, col).nDiff;
            EXPECT_EQ(sum, r.stats.colDiffs[col]) << dtypeName(t) << " col " << col;
        }
        EXPECT_EQ(map.total.nDiff, r.stats.nDiff) << dtypeName(t);
        EXPECT_EQ(map.total.nNonFinite, r.stats.nonFiniteMismatches) << dtypeName(t);
        EXPECT_EQ(map.total.maxAbsDelta, r.stats.maxAbsDelta) << dtypeName(t);
        EXPECT_EQ(map.total.firstDiff, r.stats.firstDiff) << dtypeName(t);
    }
}

TEST(DivergenceMap, EmptySingleAndChunkStraddlingLengths) {
    for (std::uint64_t n : {0ull, 1ull, 3ull, 65535ull, 65536ull, 65537ull, 131075ull}) {
        FloatPair p(n);
        if (n) p.b[n - 1] += 1.0f;
        if (n > 65537) p.b[65535] += 1.0f, p.b[65536] += 1.0f;
        const DivergenceMap strip = p.map({});
        ASSERT_TRUE(strip.ok()) << n << ": " << strip.error;
        EXPECT_LE(strip.cells.size(), 512u) << n;
        if (n) {
            EXPECT_EQ(strip.cellRange(0, strip.gridCols - 1).colEnd, n) << n;
            EXPECT_EQ(strip.cell(0, strip.gridCols - 1).firstDiff, n - 1) << n;
        }
        if (n && n <= 512) {
            EXPECT_EQ(strip.cells.size(), n);
        }
        const std::uint64_t expected = n == 0 ? 0 : n > 65537 ? 3 : 1;
        EXPECT_EQ(sumDiffs(strip), expected) << n;
        if (n % 3 == 0 && n) {
            const DivergenceMap grid = p.map({3, n / 3});
            ASSERT_TRUE(grid.ok()) << n << ": " << grid.error;
            EXPECT_EQ(sumDiffs(grid), expected) << n;
            EXPECT_EQ(grid.cellOfElement(n - 1)->first, 2u) << n;
        }
    }
    FloatPair empty(0);
    const DivergenceMap zeroRows = empty.map({0, 8});
    ASSERT_TRUE(zeroRows.ok()) << zeroRows.error;
    EXPECT_TRUE(zeroRows.cells.empty());
    EXPECT_EQ(zeroRows.elementOfCell(0, 0), std::nullopt);
    EXPECT_EQ(zeroRows.cellOfElement(0), std::nullopt);
}

TEST(DivergenceMap, ProblemsComeBackAsMessages) {
    TempDir dir;
    writeArray(dir / "a.bin", std::vector<float>(10, 1.0f));
    writeArray(dir / "b.bin", std::vector<float>(11, 1.0f));
    writeBytes(dir / "ragged.bin", "abcdefg", 7);
    auto map = [&](const char* a, const char* b, std::vector<std::uint64_t> shape = {}) {
        return computeDivergenceMap(dir / a, dir / b, DType::f32, shape);
    };
    DivergenceMap m = map("a.bin", "b.bin");
    EXPECT_FALSE(m.ok());
    EXPECT_NE(m.error.find("10 elements"), std::string::npos) << m.error;
    EXPECT_NE(m.error.find("11 in"), std::string::npos) << m.error;
    EXPECT_TRUE(m.cells.empty());

    m = map("a.bin", "missing.bin");
    EXPECT_NE(m.error.find("missing.bin: cannot open"), std::string::npos) << m.error;
    m = map("ragged.bin", "ragged.bin");
    EXPECT_NE(m.error.find("not a multiple of the element size 4"), std::string::npos) << m.error;
    m = map("a.bin", "a.bin", {3, 4});
    EXPECT_NE(m.error.find("shape [3, 4] does not fit the 10 elements"), std::string::npos)
        << m.error;
    m = map("a.bin", "a.bin", {7});
    EXPECT_FALSE(m.ok());
    // 2^32 × 2^32 overflows 64 bits rather than wrapping to a product that might fit.
    m = map("a.bin", "a.bin", {1ull << 32, 1ull << 32, 10});
    EXPECT_FALSE(m.ok());
    EXPECT_TRUE(map("a.bin", "a.bin", {2, 5}).ok());
    EXPECT_TRUE(map("a.bin", "a.bin", {5, 1, 2}).ok());
}

TEST(DivergenceMap, FileChangedDuringTheScanIsReportedNotMixed) {
    FloatPair p(100);
    p.b[3] = 0;
    writeArray(p.dir / "a.bin", p.a);
    writeArray(p.dir / "b.bin", p.b);
    const DivergenceMap m = computeDivergenceMap(
        p.dir / "a.bin", p.dir / "b.bin", DType::f32, {}, {}, [&](std::uint64_t, std::uint64_t) {
            writeArray(p.dir / "b.bin", std::vector<float>(120, 0.0f));
            return true;
        });
    EXPECT_FALSE(m.ok());
    EXPECT_NE(m.error.find("b.bin: changed while being read"), std::string::npos) << m.error;
    EXPECT_TRUE(m.cells.empty());
}

TEST(DivergenceMap, ProgressCanCancel) {
    FloatPair p(200000);
    writeArray(p.dir / "a.bin", p.a);
    writeArray(p.dir / "b.bin", p.b);
    std::uint64_t calls = 0, last = 0;
    const DivergenceMap m = computeDivergenceMap(p.dir / "a.bin", p.dir / "b.bin", DType::f32, {},
                                                 {}, [&](std::uint64_t done, std::uint64_t total) {
                                                     ++calls;
                                                     last = done;
                                                     EXPECT_EQ(total, 200000u);
                                                     return done < 100000;
                                                 });
    EXPECT_TRUE(m.cancelled);
    EXPECT_FALSE(m.ok());
    EXPECT_EQ(calls, 2u); // 65536, then 131072 stops it
    EXPECT_EQ(last, 131072u);
}

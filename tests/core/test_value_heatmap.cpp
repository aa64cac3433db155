// The value heatmaps on files written here: per-block peaks and |Δ| against hand-computed values
// and against a plain element-by-element reference, the explicit NaN / Inf / ±0 rules, the grid
// shared with the divergence map, a flat buffer as a strip, integer types, and every error.
#include "dumpscope/value_heatmap.h"

#include "dumpscope/divergence_map.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace dumpscope;
using dumpscope::test::TempDir;
using dumpscope::test::writeArray;

namespace {

constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

template <typename T> struct Pair {
    TempDir dir;
    std::vector<T> a, b;
    Pair(std::vector<T> a_, std::vector<T> b_) : a(std::move(a_)), b(std::move(b_)) {}
    ValueHeatmap heat(DType dtype, const std::vector<std::uint64_t>& shape,
                      const MapResolution& res = {}) {
        writeArray(dir / "a.bin", a);
        writeArray(dir / "b.bin", b);
        return computeValueHeatmap(dir / "a.bin", dir / "b.bin", dtype, shape, res);
    }
};

} // namespace

// 8 × 6 at 4 × 3 cells: 2 × 2 elements per cell. Cell (0, 0) holds A's -5 among small
// positives, cell (1, 2) B's two changes (+0.25 and +2), cell (3, 1) A's 4.5 and B's -6.
TEST(ValueHeatmap, PeaksKeepTheSignAndDeltaIsTheBlocksLargest) {
    std::vector<float> a(48);
    for (std::size_t i = 0; i < a.size(); ++i)
        a[i] = 0.5f + float(i % 5) * 0.125f;
    a[1 * 6 + 1] = -5.0f; // row 1, column 1: cell (0, 0)
    a[7 * 6 + 2] = 4.5f;  // row 7, column 2: cell (3, 1)
    std::vector<float> b = a;
    b[2 * 6 + 5] += 0.25f; // row 2, column 5: cell (1, 2)
    b[3 * 6 + 4] += 2.0f;  // row 3, column 4: cell (1, 2)
    b[6 * 6 + 3] = -6.0f;  // row 6, column 3: cell (3, 1)
    Pair<float> p(a, b);
    const ValueHeatmap heat = p.heat(DType::f32, {8, 6}, {4, 3, 512});
    ASSERT_TRUE(heat.ok()) << heat.error;
    ASSERT_EQ(heat.gridRows, 4u);
    ASSERT_EQ(heat.gridCols, 3u);
    EXPECT_EQ(heat.rowsPerCell, 2u);
    EXPECT_EQ(heat.colsPerCell, 2u);

    EXPECT_EQ(heat.cell(0, 0).a.peak, -5.0);
    EXPECT_EQ(heat.cell(0, 0).b.peak, -5.0);
    EXPECT_EQ(heat.cell(0, 0).nDiff, 0u);
    EXPECT_EQ(heat.cell(0, 0).maxAbsDelta, 0.0);
    EXPECT_FALSE(heat.cell(0, 0).firstDiff);

    const HeatCell& changed = heat.cell(1, 2);
    EXPECT_EQ(changed.nDiff, 2u);
    EXPECT_EQ(changed.maxAbsDelta, 2.0);
    EXPECT_EQ(changed.firstDiff, std::optional<std::uint64_t>(2 * 6 + 5));
    EXPECT_EQ(changed.b.peak, double(a[3 * 6 + 4] + 2.0f));
    EXPECT_EQ(heat.elementOfCell(1, 2), std::optional<std::uint64_t>(2 * 6 + 5));
    EXPECT_EQ(heat.elementOfCell(2, 1), std::optional<std::uint64_t>(4 * 6 + 2)); // equal block
    EXPECT_FALSE(heat.elementOfCell(4, 0));

    EXPECT_EQ(heat.cell(3, 1).a.peak, 4.5);
    EXPECT_EQ(heat.cell(3, 1).b.peak, -6.0);
    EXPECT_EQ(heat.cell(3, 1).maxAbsDelta, double(6.0f + a[6 * 6 + 3]));
    EXPECT_EQ(heat.peakLimit, 6.0);
    EXPECT_EQ(heat.deltaLow, 2.0); // cell (1, 2)'s largest: the scale is over cells
    EXPECT_EQ(heat.deltaHigh, double(6.0f + a[6 * 6 + 3]));

    // The same grid as the divergence map of the same shape and resolution, cell for cell.
    const DivergenceMap map =
        computeDivergenceMap(p.dir / "a.bin", p.dir / "b.bin", DType::f32, {8, 6}, {4, 3, 512});
    ASSERT_TRUE(map.ok()) << map.error;
    ASSERT_EQ(map.gridRows, heat.gridRows);
    ASSERT_EQ(map.gridCols, heat.gridCols);
    for (std::uint32_t r = 0; r < heat.gridRows; ++r)
        for (std::uint32_t c = 0; c < heat.gridCols; ++c) {
            EXPECT_EQ(map.cell(r, c).nDiff, heat.cell(r, c).nDiff) << r << "," << c;
            EXPECT_EQ(map.cell(r, c).maxAbsDelta, heat.cell(r, c).maxAbsDelta) << r << "," << c;
            EXPECT_EQ(map.elementOfCell(r, c), heat.elementOfCell(r, c)) << r << "," << c;
        }
}

// One 2 × 2 block per case in a 2 × 10 buffer (5 cells in one row of cells).
TEST(ValueHeatmap, NanInfAndSignedZerosFollowTheirOwnRules) {
    std::vector<float> a(20, 1.0f), b;
    auto at = [](std::size_t row, std::size_t col) { return row * 10 + col; };
    a[at(0, 0)] = kNan; // cell 0: NaN in A only
    // cell 1: the same NaN in both: equal bits
    a[at(1, 3)] = kNan;
    // cell 2: +Inf in A, 1 in B
    a[at(0, 4)] = kInf;
    // cell 3: A all -0, B all +0
    for (std::size_t r = 0; r < 2; ++r)
        for (std::size_t c = 6; c < 8; ++c)
            a[at(r, c)] = -0.0f;
    // cell 4: NaN on both sides with different payloads, and one finite change of 3
    b = a;
    b[at(0, 0)] = 2.0f;
    b[at(0, 4)] = 1.0f;
    for (std::size_t r = 0; r < 2; ++r)
        for (std::size_t c = 6; c < 8; ++c)
            b[at(r, c)] = 0.0f;
    std::uint32_t nanA = 0x7fc00001u, nanB = 0x7fc00002u;
    std::memcpy(&a[at(0, 8)], &nanA, 4);
    std::memcpy(&b[at(0, 8)], &nanB, 4);
    b[at(1, 9)] = 4.0f;
    Pair<float> p(a, b);
    const ValueHeatmap heat = p.heat(DType::f32, {2, 10}, {1, 5, 512});
    ASSERT_TRUE(heat.ok()) << heat.error;
    ASSERT_EQ(heat.gridRows, 1u);
    ASSERT_EQ(heat.gridCols, 5u);

    const HeatCell& oneNan = heat.cell(0, 0);
    EXPECT_TRUE(std::isnan(oneNan.a.peak));
    EXPECT_EQ(oneNan.a.nNan, 1u);
    EXPECT_EQ(oneNan.b.peak, 2.0);
    EXPECT_EQ(oneNan.nNanMismatch, 1u);
    EXPECT_TRUE(std::isnan(oneNan.maxAbsDelta)) << "NaN on one side is a NaN |Δ|";

    const HeatCell& sameNan = heat.cell(0, 1);
    EXPECT_TRUE(std::isnan(sameNan.a.peak));
    EXPECT_TRUE(std::isnan(sameNan.b.peak));
    EXPECT_EQ(sameNan.nDiff, 0u);
    EXPECT_EQ(sameNan.maxAbsDelta, 0.0);

    const HeatCell& inf = heat.cell(0, 2);
    EXPECT_EQ(inf.a.peak, INFINITY);
    EXPECT_EQ(inf.a.nInf, 1u);
    EXPECT_EQ(inf.b.peak, 1.0);
    EXPECT_EQ(inf.maxAbsDelta, INFINITY);
    EXPECT_EQ(inf.nNanMismatch, 0u);

    const HeatCell& zeros = heat.cell(0, 3);
    EXPECT_EQ(zeros.a.peak, 0.0);
    EXPECT_TRUE(std::signbit(zeros.a.peak)) << "a block of -0 peaks at -0";
    EXPECT_FALSE(std::signbit(zeros.b.peak));
    EXPECT_EQ(zeros.nDiff, 4u) << "±0 differ in their bits";
    EXPECT_EQ(zeros.maxAbsDelta, 0.0);
    EXPECT_EQ(heat.elementOfCell(0, 3), std::optional<std::uint64_t>(at(0, 6)));

    const HeatCell& payloads = heat.cell(0, 4);
    EXPECT_EQ(payloads.nDiff, 2u);
    EXPECT_EQ(payloads.nNanMismatch, 0u);
    EXPECT_EQ(payloads.maxAbsDelta, 3.0) << "two NaNs are not a number apart";
    EXPECT_TRUE(std::isnan(payloads.a.peak));

    // The shared scales leave the non-finite out.
    EXPECT_EQ(heat.peakLimit, 2.0); // B's 2 in cell 0; cell 4's 4 is beside a NaN
    EXPECT_EQ(heat.deltaLow, 3.0);
    EXPECT_EQ(heat.deltaHigh, 3.0);
}

// Against a plain reference: every element of a 37 × 23 random pair visited with its (row, col)
// block worked out directly, at a resolution that leaves short last blocks.
TEST(ValueHeatmap, MatchesAnElementByElementReference) {
    std::mt19937 rng(7);
    std::normal_distribution<float> value(0.0f, 3.0f);
    std::vector<float> a(37 * 23), b;
    for (float& x : a)
        x = value(rng);
    b = a;
    for (std::size_t i = 0; i < b.size(); i += 1 + rng() % 9)
        b[i] += value(rng) * 1e-3f;
    Pair<float> p(a, b);
    const ValueHeatmap heat = p.heat(DType::f32, {37, 23}, {5, 4, 512});
    ASSERT_TRUE(heat.ok()) << heat.error;
    ASSERT_EQ(heat.rowsPerCell, 8u);
    ASSERT_EQ(heat.colsPerCell, 6u);
    ASSERT_EQ(heat.gridRows, 5u);
    ASSERT_EQ(heat.gridCols, 4u);
    std::vector<double> peakA(20, 0), peakB(20, 0), delta(20, 0);
    std::vector<std::uint64_t> diffs(20, 0);
    for (std::size_t r = 0; r < 37; ++r)
        for (std::size_t c = 0; c < 23; ++c) {
            const std::size_t cell = (r / 8) * 4 + c / 6, i = r * 23 + c;
            if (std::fabs(a[i]) > std::fabs(peakA[cell])) peakA[cell] = a[i];
            if (std::fabs(b[i]) > std::fabs(peakB[cell])) peakB[cell] = b[i];
            if (a[i] != b[i]) {
                ++diffs[cell];
                delta[cell] = std::max(delta[cell], std::fabs(double(a[i]) - double(b[i])));
            }
        }
    for (std::uint32_t r = 0; r < 5; ++r)
        for (std::uint32_t c = 0; c < 4; ++c) {
            const HeatCell& cell = heat.cell(r, c);
            EXPECT_EQ(cell.a.peak, peakA[r * 4 + c]) << r << "," << c;
            EXPECT_EQ(cell.b.peak, peakB[r * 4 + c]) << r << "," << c;
            EXPECT_EQ(cell.nDiff, diffs[r * 4 + c]) << r << "," << c;
            EXPECT_EQ(cell.maxAbsDelta, delta[r * 4 + c]) << r << "," << c;
        }
}

// Integers: the peak is the value, the sign read from the type (0xF9 is -7 as i8, 249 as u8).
TEST(ValueHeatmap, IntegerPeaksAreReadWithTheTypesSign) {
    Pair<std::uint8_t> p({1, 0xF9, 3, 4}, {1, 0xF9, 3, 9});
    const ValueHeatmap asI8 = p.heat(DType::i8, {2, 2}, {2, 1, 512});
    ASSERT_TRUE(asI8.ok()) << asI8.error;
    EXPECT_EQ(asI8.cell(0, 0).a.peak, -7.0);
    EXPECT_EQ(asI8.cell(1, 0).b.peak, 9.0);
    EXPECT_EQ(asI8.cell(1, 0).maxAbsDelta, 5.0);
    const ValueHeatmap asU8 = p.heat(DType::u8, {2, 2}, {2, 1, 512});
    ASSERT_TRUE(asU8.ok()) << asU8.error;
    EXPECT_EQ(asU8.cell(0, 0).a.peak, 249.0);
    EXPECT_EQ(asU8.peakLimit, 249.0);
}

// A flat or one-dimensional buffer is one row of bins, as the divergence map's strip.
TEST(ValueHeatmap, AFlatBufferIsAOneRowStrip) {
    std::vector<float> a(1000);
    for (std::size_t i = 0; i < a.size(); ++i)
        a[i] = float(i);
    Pair<float> p(a, a);
    for (const std::vector<std::uint64_t>& shape :
         {std::vector<std::uint64_t>{}, std::vector<std::uint64_t>{1000}}) {
        const ValueHeatmap strip = p.heat(DType::f32, shape, {128, 128, 100});
        ASSERT_TRUE(strip.ok()) << strip.error;
        EXPECT_TRUE(strip.flat);
        EXPECT_EQ(strip.gridRows, 1u);
        EXPECT_EQ(strip.gridCols, 100u);
        EXPECT_EQ(strip.cell(0, 99).a.peak, 999.0);
        EXPECT_EQ(strip.deltaHigh, 0.0);
    }
}

TEST(ValueHeatmap, ABadPairIsAnErrorNamingTheFile) {
    TempDir dir;
    writeArray(dir / "a.bin", std::vector<float>(10, 1.0f));
    writeArray(dir / "b.bin", std::vector<float>(11, 1.0f));
    writeArray(dir / "c.bin", std::vector<float>(10, 1.0f));
    ValueHeatmap h = computeValueHeatmap(dir / "a.bin", dir / "b.bin", DType::f32, {});
    EXPECT_FALSE(h.ok());
    EXPECT_TRUE(h.cells.empty());
    EXPECT_NE(h.error.find("11 in"), std::string::npos) << h.error;
    h = computeValueHeatmap(dir / "a.bin", dir / "missing.bin", DType::f32, {});
    EXPECT_NE(h.error.find("missing.bin: cannot open"), std::string::npos) << h.error;
    h = computeValueHeatmap(dir / "a.bin", dir / "b.bin", DType::f64, {});
    EXPECT_NE(h.error.find("b.bin: size 44 bytes is not a multiple of the element size 8"),
              std::string::npos)
        << h.error;
    h = computeValueHeatmap(dir / "a.bin", dir / "c.bin", DType::f32, {3, 4});
    EXPECT_NE(h.error.find("shape [3, 4] does not fit the 10 elements"), std::string::npos)
        << h.error;
    h = computeValueHeatmap(dir / "a.bin", dir / "c.bin", DType::f32, {2, 5}, {},
                            [](std::uint64_t, std::uint64_t) { return false; });
    EXPECT_TRUE(h.cancelled);
    EXPECT_FALSE(h.ok());
}

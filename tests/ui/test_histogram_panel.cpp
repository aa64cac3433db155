// HistogramPanel on a generated pair analysed by the core: the bars' counts are the
// BufferStats histograms, hover text names the count, a click emits the bar's bin, and buffers
// without differences show the empty state.
#include "panels/histogram_panel.h"

#include "dumpscope/analyze.h"
#include "dumpscope/diff_index.h"
#include "test_support.h"

#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QSignalSpy>
#include <QValueAxis>

#include <gtest/gtest.h>

#include <cmath>

using namespace dumpscope;
using dumpscope::test::TempDir;
using dumpscope::test::writeDump;

namespace {

// A diverging f32 buffer (h_q_logits), Δs in decades -5..-2 and 2, a NaN, a ±0 and an infinite
// Δ; and an equal one (h_pi_logits).
struct HistogramPair {
    TempDir dir;
    std::shared_ptr<const Analysis> analysis;
    int diverging = -1, equal = -1;

    HistogramPair() {
        std::vector<float> a(600), b;
        for (std::size_t i = 0; i < a.size(); ++i)
            a[i] = 1.0f + float(i % 10) * 0.01f;
        b = a;
        const float deltas[] = {2e-5f, 3e-4f, 4e-3f, 5e-2f, 500.0f};
        for (std::size_t i = 0; i < a.size(); i += 5)
            b[i] += deltas[(i / 5) % 5];
        b[1] = std::nanf("");
        a[2] = 0.0f, b[2] = -0.0f;
        b[3] = INFINITY;
        writeDump(dir / "a", 0, "h_q_logits", a);
        writeDump(dir / "b", 0, "h_q_logits", b);
        writeDump(dir / "a", 0, "h_pi_logits", a);
        writeDump(dir / "b", 0, "h_pi_logits", a);
        auto result = std::make_shared<Analysis>(analyze(dir / "a", dir / "b"));
        for (std::size_t i = 0; i < result->buffers.size(); ++i) {
            if (result->buffers[i].fileName == "step_0_h_q_logits.bin") diverging = int(i);
            if (result->buffers[i].fileName == "step_0_h_pi_logits.bin") equal = int(i);
        }
        analysis = result;
    }
    const BufferStats& stats() const { return analysis->buffers[std::size_t(diverging)].stats; }
};

} // namespace

TEST(HistogramPanel, DeltaBarsAreTheDecadeHistogram) {
    HistogramPair pair;
    ASSERT_GE(pair.diverging, 0);
    HistogramPanel panel;
    panel.setBuffer(pair.analysis, pair.diverging);
    ASSERT_FALSE(panel.isEmptyState());
    ASSERT_EQ(panel.mode(), HistogramPanel::Mode::delta);
    const DeltaHistogram& h = pair.stats().deltaHistogram;

    // Decades -5..2 in order (the empty ones between included), then ±0, Inf, NaN.
    const int expectedBins[] = {-5,        -4, -3, -2, -1, 0, 1, 2, kDecadeZero, kDecadeInfinite,
                                kDecadeNan};
    ASSERT_EQ(panel.barCount(), int(std::size(expectedBins)));
    quint64 total = 0;
    for (int bar = 0; bar < panel.barCount(); ++bar) {
        const int bin = panel.barBin(bar);
        EXPECT_EQ(bin, expectedBins[bar]);
        const quint64 expected = bin == kDecadeZero       ? h.zero
                                 : bin == kDecadeInfinite ? h.infinite
                                 : bin == kDecadeNan      ? h.nan
                                                          : h.at(bin);
        EXPECT_EQ(panel.barValue(bar), expected) << bin;
        EXPECT_EQ(panel.barSet()->at(bar), double(expected));
        total += panel.barValue(bar);
    }
    EXPECT_EQ(total, pair.stats().nDiff);
    EXPECT_EQ(panel.barValue(4), 0u);  // decade -1 holds nothing
    EXPECT_EQ(panel.barValue(7), 24u); // every 25th element, by +500
    EXPECT_EQ(panel.barLabel(0), QStringLiteral("1e-5"));
    EXPECT_EQ(panel.barLabel(8), QStringLiteral("±0"));
}

TEST(HistogramPanel, UlpBarsAreThePowerOfTwoHistogram) {
    HistogramPair pair;
    HistogramPanel panel;
    panel.setBuffer(pair.analysis, pair.diverging);
    // The combo box switches, as a user would.
    panel.findChild<QComboBox*>()->setCurrentIndex(1);
    ASSERT_EQ(panel.mode(), HistogramPanel::Mode::ulp);
    const UlpHistogram& h = pair.stats().ulpHistogram;
    quint64 total = 0;
    for (int bar = 0; bar < panel.barCount(); ++bar) {
        const int bin = panel.barBin(bar);
        const quint64 expected = bin == kUlpUndefined ? h.undefined : h.counts[std::size_t(bin)];
        EXPECT_EQ(panel.barValue(bar), expected) << bin;
        total += panel.barValue(bar);
    }
    EXPECT_EQ(total, pair.stats().nDiff);
    EXPECT_EQ(panel.barBin(panel.barCount() - 1), kUlpUndefined);
    EXPECT_EQ(panel.barValue(panel.barCount() - 1), 1u); // the NaN
    EXPECT_EQ(panel.barBin(0), 0);                       // ±0 is 1 ULP: bin 2^0
}

TEST(HistogramPanel, HoverShowsTheCountAndClickEmitsTheBin) {
    HistogramPair pair;
    HistogramPanel panel;
    panel.setBuffer(pair.analysis, pair.diverging);
    QSignalSpy decades(&panel, &HistogramPanel::deltaDecadeClicked);
    QSignalSpy ulps(&panel, &HistogramPanel::ulpBinClicked);

    emit panel.barSet()->hovered(true, 7);
    EXPECT_TRUE(panel.hoverText().startsWith(QStringLiteral("24 elements with |Δ| in [1e2, 1e3)")))
        << panel.hoverText().toStdString();
    emit panel.barSet()->hovered(false, 7);
    EXPECT_TRUE(panel.hoverText().isEmpty());

    emit panel.barSet()->clicked(0);
    emit panel.barSet()->clicked(10);
    ASSERT_EQ(decades.count(), 2);
    EXPECT_EQ(decades[0][0].toInt(), -5);
    EXPECT_EQ(decades[1][0].toInt(), kDecadeNan);
    EXPECT_EQ(ulps.count(), 0);

    panel.setMode(HistogramPanel::Mode::ulp);
    emit panel.barSet()->clicked(panel.barCount() - 1);
    ASSERT_EQ(ulps.count(), 1);
    EXPECT_EQ(ulps[0][0].toInt(), kUlpUndefined);
}

TEST(HistogramPanel, EmptyStates) {
    HistogramPair pair;
    HistogramPanel panel;
    EXPECT_TRUE(panel.isEmptyState());
    EXPECT_TRUE(panel.emptyText().contains(QStringLiteral("Select a buffer")));
    panel.setBuffer(pair.analysis, pair.equal);
    EXPECT_TRUE(panel.isEmptyState());
    EXPECT_EQ(panel.emptyText(), QStringLiteral("No differences in this buffer."));
    EXPECT_EQ(panel.barCount(), 0);
    panel.setBuffer(pair.analysis, pair.diverging);
    EXPECT_FALSE(panel.isEmptyState());
    panel.clear();
    EXPECT_TRUE(panel.isEmptyState());
    EXPECT_EQ(panel.barSet(), nullptr);
}

TEST(HistogramPanel, CountAxisStepsAreWholeRoundNumbers) {
    for (quint64 highest :
         {1ull, 2ull, 3ull, 7ull, 10ull, 11ull, 99ull, 1234ull, 1000000ull, 123456789ull}) {
        const auto axis = HistogramPanel::countAxis(highest);
        ASSERT_GE(axis.ticks, 2) << highest;
        EXPECT_LE(axis.ticks, 6) << highest;
        EXPECT_GE(axis.top, highest);
        const quint64 step = axis.top / quint64(axis.ticks - 1);
        EXPECT_EQ(step * quint64(axis.ticks - 1), axis.top) << highest;
        quint64 mantissa = step;
        while (mantissa % 10 == 0)
            mantissa /= 10;
        EXPECT_TRUE(mantissa == 1 || mantissa == 2 || mantissa == 5) << highest << ": " << step;
        EXPECT_LT(axis.top, highest + step) << highest << ": a whole empty interval on top";
    }
}

TEST(HistogramPanel, TheClickedBarStaysHighlightedUntilTheFilterGoes) {
    HistogramPair pair;
    HistogramPanel panel;
    panel.setBuffer(pair.analysis, pair.diverging);
    EXPECT_EQ(panel.selectedBar(), -1);
    emit panel.barSet()->clicked(3);
    EXPECT_EQ(panel.selectedBar(), 3);
    EXPECT_EQ(panel.barSet()->selectedBars(), QList<int>{3});
    // A new snapshot of the same buffer rebuilds the bars and keeps the highlight.
    panel.setBuffer(pair.analysis, pair.diverging);
    EXPECT_EQ(panel.selectedBar(), 3);
    panel.setMode(HistogramPanel::Mode::ulp);
    EXPECT_EQ(panel.selectedBar(), -1) << "the other histogram has no bar of that bin";
    panel.setMode(HistogramPanel::Mode::delta);
    EXPECT_EQ(panel.selectedBar(), 3);
    panel.clearSelectedBar();
    EXPECT_EQ(panel.selectedBar(), -1);
    emit panel.barSet()->clicked(2);
    panel.setBuffer(pair.analysis, pair.equal);
    panel.setBuffer(pair.analysis, pair.diverging);
    EXPECT_EQ(panel.selectedBar(), -1) << "another buffer came in between";
}

TEST(HistogramPanel, CountTicksOfASingleDifferenceDoNotRepeat) {
    TempDir dir;
    writeDump(dir / "a", 0, "h_v_pred", std::vector<float>{1.0f, 2.0f});
    writeDump(dir / "b", 0, "h_v_pred", std::vector<float>{1.0f, 2.5f});
    auto analysis = std::make_shared<const Analysis>(analyze(dir / "a", dir / "b"));
    HistogramPanel panel;
    panel.setBuffer(analysis, 0);
    ASSERT_EQ(panel.barCount(), 1);
    QValueAxis* y = nullptr;
    for (QAbstractAxis* axis : panel.chart()->axes(Qt::Vertical))
        y = qobject_cast<QValueAxis*>(axis);
    ASSERT_NE(y, nullptr);
    EXPECT_EQ(y->max(), 1.0);
    EXPECT_EQ(y->tickCount(), 2); // 0 and 1, not "0 0 1 1 1"
}

// HistogramPanel on a generated pair analysed by the core: the bars' counts are the
// BufferStats histograms, hover text names the count, a click emits the bar's bin, and buffers
// without differences show the empty state.
#include "panels/histogram_panel.h"

#include "dumpscope/analyze.h"
#include "dumpscope/diff_index.h"
#include "test_support.h"

#include <QBarSet>
#include <QComboBox>
#include <QSignalSpy>

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

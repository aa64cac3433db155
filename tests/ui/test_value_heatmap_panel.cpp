// ValueHeatmapPanel on generated pairs analysed by the core: the A, B and |Δ| images hold the
// blocks' values in the scales' colours, a flat buffer says why it has none, and in the triage
// window the marker follows the element table's current element and a click moves the table.
#include "panels/divergence_map_panel.h"
#include "panels/element_panel.h"
#include "panels/value_heatmap_panel.h"
#include "ui_test_util.h"
#include "window/triage_view.h"

#include "dumpscope/analyze.h"
#include "test_support.h"

#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

#include <cmath>

using namespace dumpscope;
using dumpscope::test::TempDir;
using dumpscope::test::writeDump;

namespace {

// One step, batch 16: q_logits [16, 8] with A's value at (r, c) r - 8 + c / 8 (negative above
// row 8), B with row 3 raised by 100 and (5, 2) NaN; v_pred [16] (flat) differing at 5;
// pi_logits equal.
struct HeatPair {
    TempDir dir;
    std::shared_ptr<const Analysis> analysis;
    std::vector<float> q, qb;

    HeatPair() : q(16 * 8) {
        for (std::size_t r = 0; r < 16; ++r)
            for (std::size_t c = 0; c < 8; ++c)
                q[r * 8 + c] = float(r) - 8.0f + float(c) / 8.0f;
        qb = q;
        for (std::size_t c = 0; c < 8; ++c)
            qb[3 * 8 + c] += 100.0f;
        qb[5 * 8 + 2] = std::nanf("");
        std::vector<float> v(16, 0.5f), vb = v;
        vb[5] = 0.75f;
        for (const char* run : {"a", "b"}) {
            const bool b = run[0] == 'b';
            writeDump(dir / run, 0, "g_sampled_actions", std::vector<std::int32_t>(16, 1));
            writeDump(dir / run, 0, "h_q_logits", b ? qb : q);
            writeDump(dir / run, 0, "h_v_pred", b ? vb : v);
            writeDump(dir / run, 0, "h_pi_logits", q);
        }
        analysis = std::make_shared<const Analysis>(analyze(dir / "a", dir / "b"));
    }
    int buffer(const std::string& name) const {
        for (std::size_t i = 0; i < analysis->buffers.size(); ++i)
            if (analysis->buffers[i].name == name) return int(i);
        return -1;
    }
};

class ValueHeatmapPanelTest : public ::testing::Test {
  protected:
    void SetUp() override {
        panel.resize(700, 600);
        panel.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    }
    void showBuffer(const std::string& name) {
        const int index = pair.buffer(name);
        ASSERT_GE(index, 0) << name;
        QSignalSpy ready(&panel, &ValueHeatmapPanel::heatmapReady);
        panel.setBuffer(pair.analysis, index);
        if (ready.isEmpty()) {
            ASSERT_TRUE(ready.wait(10000));
        }
    }
    HeatPair pair;
    ValueHeatmapPanel panel;
};

// How many pixels of `color` a panel's picture has in `area`.
int countColor(QWidget& widget, const QRect& area, const QColor& color) {
    widget.repaint();
    const QImage shot = widget.grab().toImage();
    const qreal dpr = shot.devicePixelRatio();
    int n = 0;
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x)
            n += shot.pixelColor(QPoint(x, y) * dpr) == color;
    return n;
}

} // namespace

TEST_F(ValueHeatmapPanelTest, ImagesHoldEachBlocksValuesOnTheirScales) {
    showBuffer("q_logits");
    const ValueHeatmap* heat = panel.heatmap();
    ASSERT_NE(heat, nullptr) << panel.statusText().toStdString();
    ASSERT_EQ(heat->gridRows, 16u);
    ASSERT_EQ(heat->gridCols, 8u);
    const double limit = heat->peakLimit;
    EXPECT_EQ(limit, double(pair.qb[3 * 8 + 7])); // -5 + 7/8 + 100, B's largest
    for (auto which :
         {ValueHeatmapPanel::SideA, ValueHeatmapPanel::SideB, ValueHeatmapPanel::Delta})
        ASSERT_EQ(panel.image(which).size(), QSize(8, 16));
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 8; ++c) {
            const std::size_t i = std::size_t(r) * 8 + std::size_t(c);
            EXPECT_EQ(panel.image(ValueHeatmapPanel::SideA).pixelColor(c, r),
                      ValueHeatmapPanel::valueColor(pair.q[i], limit))
                << r << "," << c;
            EXPECT_EQ(panel.image(ValueHeatmapPanel::SideB).pixelColor(c, r),
                      ValueHeatmapPanel::valueColor(pair.qb[i], limit))
                << r << "," << c;
            const QColor delta = panel.image(ValueHeatmapPanel::Delta).pixelColor(c, r);
            if (r == 5 && c == 2)
                EXPECT_EQ(delta, DivergenceMapPanel::nonFiniteColor());
            else if (r == 3)
                EXPECT_EQ(delta, DivergenceMapPanel::scaleColor(1.0)) << c; // one |Δ| only: top
            else
                EXPECT_EQ(delta, DivergenceMapPanel::equalColor()) << r << "," << c;
        }
    // The scale itself: blue below 0, red above, NaN its own colour, both sides on one scale.
    const QColor low = ValueHeatmapPanel::valueColor(-limit, limit);
    const QColor high = ValueHeatmapPanel::valueColor(limit, limit);
    EXPECT_GT(low.blue(), low.red());
    EXPECT_GT(high.red(), high.blue());
    EXPECT_EQ(panel.image(ValueHeatmapPanel::SideB).pixelColor(2, 5),
              ValueHeatmapPanel::nanColor());
    EXPECT_EQ(panel.image(ValueHeatmapPanel::SideB).pixelColor(7, 3), high);
    EXPECT_NE(ValueHeatmapPanel::infColor(), ValueHeatmapPanel::nanColor());

    // Painted where cellAt finds them, the same block in all three images; hover tells values.
    for (auto which :
         {ValueHeatmapPanel::SideA, ValueHeatmapPanel::SideB, ValueHeatmapPanel::Delta}) {
        const QRect cell = panel.cellRect(which, 3, 7);
        ASSERT_FALSE(cell.isEmpty());
        EXPECT_EQ(panel.cellAt(cell.center()), (std::pair<quint32, quint32>{3, 7}));
        EXPECT_GT(countColor(panel, cell, panel.image(which).pixelColor(7, 3)), 0) << which;
    }
    EXPECT_TRUE(panel.imageRect(ValueHeatmapPanel::SideA)
                    .intersected(panel.imageRect(ValueHeatmapPanel::SideB))
                    .isEmpty());
    const QString text = panel.cellText(3, 7);
    EXPECT_TRUE(text.contains(QStringLiteral("B: largest |value| 95.9"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("1 differ, max|Δ| 100"))) << text.toStdString();
    EXPECT_TRUE(panel.cellText(5, 2).contains(QStringLiteral("1 NaN"))) << "NaN named";
}

TEST_F(ValueHeatmapPanelTest, AnEqualBufferStillShowsItsValues) {
    showBuffer("pi_logits");
    const ValueHeatmap* heat = panel.heatmap();
    ASSERT_NE(heat, nullptr) << panel.statusText().toStdString();
    EXPECT_EQ(panel.image(ValueHeatmapPanel::SideA), panel.image(ValueHeatmapPanel::SideB));
    EXPECT_EQ(panel.image(ValueHeatmapPanel::Delta).pixelColor(4, 4),
              DivergenceMapPanel::equalColor());
    EXPECT_EQ(panel.image(ValueHeatmapPanel::SideA).pixelColor(0, 0),
              ValueHeatmapPanel::valueColor(-8.0, heat->peakLimit));
}

TEST_F(ValueHeatmapPanelTest, AFlatBufferSaysWhyItHasNone) {
    showBuffer("q_logits");
    ASSERT_NE(panel.heatmap(), nullptr);
    showBuffer("v_pred");
    EXPECT_EQ(panel.heatmap(), nullptr);
    EXPECT_TRUE(panel.imageRect(ValueHeatmapPanel::SideA).isEmpty());
    EXPECT_TRUE(panel.statusText().contains(QStringLiteral("v_pred is flat (16 elements")))
        << panel.statusText().toStdString();
    EXPECT_TRUE(panel.statusText().contains(QStringLiteral("divergence map shows it as a strip")));
    panel.clear();
    EXPECT_TRUE(panel.statusText().startsWith(QStringLiteral("Select a buffer")));
}

// In the window: the Heatmaps tab beside the divergence map; a click on a block moves the element
// table there and outlines it on both pictures; the table's current row moves the outline.
TEST(ValueHeatmapInTriage, MarkerFollowsTheCurrentElementAndAClickNavigates) {
    const HeatPair pair;
    TriageView triage;
    triage.resize(1500, 1000);
    triage.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&triage));
    triage.setSnapshot(dumpscope::uitest::finishedSnapshot(*pair.analysis));
    ASSERT_TRUE(triage.selectCell(0, QStringLiteral("H"), QStringLiteral("q_logits")));
    ValueHeatmapPanel* heatPanel = triage.valueHeatmapPanel();
    auto* tabs = triage.findChild<QTabWidget*>(QStringLiteral("bufferDetailTabs"));
    ASSERT_NE(tabs, nullptr);
    EXPECT_EQ(tabs->indexOf(heatPanel), tabs->indexOf(triage.divergenceMapPanel()) + 1);
    QSignalSpy ready(heatPanel, &ValueHeatmapPanel::heatmapReady);
    tabs->setCurrentWidget(heatPanel);
    if (!heatPanel->heatmap()) {
        ASSERT_TRUE(ready.wait(10000)) << heatPanel->statusText().toStdString();
    }
    ASSERT_NE(heatPanel->heatmap(), nullptr) << heatPanel->statusText().toStdString();

    ElementPanel* elements = triage.elementPanel();
    // A click on the NaN block, in the |Δ| image: the table goes to (5, 2), all marked.
    QTest::mouseClick(heatPanel, Qt::LeftButton, Qt::NoModifier,
                      heatPanel->cellRect(ValueHeatmapPanel::Delta, 5, 2).center());
    EXPECT_EQ(elements->currentElement(), std::optional<quint64>(5 * 8 + 2));
    EXPECT_EQ(heatPanel->markedElement(), std::optional<quint64>(5 * 8 + 2));
    EXPECT_EQ(triage.divergenceMapPanel()->markedElement(), std::optional<quint64>(5 * 8 + 2));
    const QColor highlight = heatPanel->palette().color(QPalette::Highlight);
    for (auto which :
         {ValueHeatmapPanel::SideA, ValueHeatmapPanel::SideB, ValueHeatmapPanel::Delta})
        EXPECT_GT(countColor(*heatPanel, heatPanel->cellRect(which, 5, 2).adjusted(-3, -3, 3, 3),
                             highlight),
                  8)
            << "no outline on image " << which;
    EXPECT_EQ(
        countColor(*heatPanel, heatPanel->cellRect(ValueHeatmapPanel::SideA, 12, 6), highlight), 0);

    // The table's current row moves on (a key in the table): the outline follows it.
    QTableView* view = elements->view();
    view->setFocus();
    QTest::keyClick(view, Qt::Key_Up);
    QTest::qWait(20);
    const auto now = elements->currentElement();
    ASSERT_TRUE(now.has_value());
    EXPECT_NE(*now, quint64(5 * 8 + 2));
    EXPECT_EQ(heatPanel->markedElement(), now);
    EXPECT_EQ(triage.divergenceMapPanel()->markedElement(), now);

    // An equal block goes to its first element.
    QTest::mouseClick(heatPanel, Qt::LeftButton, Qt::NoModifier,
                      heatPanel->cellRect(ValueHeatmapPanel::SideA, 12, 6).center());
    EXPECT_EQ(elements->currentElement(), std::optional<quint64>(12 * 8 + 6));
    EXPECT_EQ(heatPanel->markedElement(), std::optional<quint64>(12 * 8 + 6));
}

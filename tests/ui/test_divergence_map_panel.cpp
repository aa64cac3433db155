// DivergenceMapPanel on generated pairs analysed by the core: the image's differing cells are
// where the differences were written, hover names a cell, a click in the triage window moves
// the element table to the block's first difference, and buffers without a map say why.
#include "panels/divergence_map_panel.h"
#include "panels/element_panel.h"
#include "panels/histogram_panel.h"
#include "ui_test_util.h"
#include "window/triage_view.h"

#include "dumpscope/analyze.h"
#include "test_support.h"

#include <QBarSet>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

#include <gtest/gtest.h>

#include <cmath>

using namespace dumpscope;
using dumpscope::test::TempDir;
using dumpscope::test::writeDump;

namespace {

// One step, batch = `batch` (the length of g_sampled_actions): q_logits [batch, cols] with
// `change` applied to B, v_pred [batch] (flat) differing at element 5, pi_logits equal, and
// dueling_q_composed one element longer in B.
struct MapPair {
    TempDir dir;
    std::shared_ptr<const Analysis> analysis;

    template <typename Change> MapPair(std::size_t batch, std::size_t cols, Change change) {
        std::vector<float> q(batch * cols), qb, v(batch, 0.5f), vb;
        for (std::size_t i = 0; i < q.size(); ++i)
            q[i] = 1.0f + float(i % 13) * 0.25f;
        qb = q;
        change(qb);
        vb = v;
        vb[5] = 0.75f;
        for (const char* run : {"a", "b"}) {
            const bool b = run[0] == 'b';
            writeDump(dir / run, 0, "g_sampled_actions", std::vector<std::int32_t>(batch, 1));
            writeDump(dir / run, 0, "h_q_logits", b ? qb : q);
            writeDump(dir / run, 0, "h_v_pred", b ? vb : v);
            writeDump(dir / run, 0, "h_pi_logits", q);
            writeDump(dir / run, 0, "h_dueling_q_composed", std::vector<float>(b ? 11 : 10, 1.0f));
        }
        analysis = std::make_shared<const Analysis>(analyze(dir / "a", dir / "b"));
    }
    int buffer(const std::string& name) const {
        for (std::size_t i = 0; i < analysis->buffers.size(); ++i)
            if (analysis->buffers[i].name == name) return int(i);
        return -1;
    }
};

// Rows 3 and 17 of a 32 × 8 q_logits differ entirely (by 1e-3 and by 100), and (20, 2) is NaN.
MapPair rowsPair() {
    return MapPair(32, 8, [](std::vector<float>& b) {
        for (std::size_t c = 0; c < 8; ++c) {
            b[3 * 8 + c] += 1e-3f;
            b[17 * 8 + c] += 100.0f;
        }
        b[20 * 8 + 2] = std::nanf("");
    });
}

class DivergenceMapPanelTest : public ::testing::Test {
  protected:
    void SetUp() override {
        panel.resize(700, 600);
        panel.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    }
    // Shows a buffer and waits for its map (or its message).
    void showBuffer(const MapPair& pair, const std::string& name) {
        const int index = pair.buffer(name);
        ASSERT_GE(index, 0) << name;
        QSignalSpy ready(&panel, &DivergenceMapPanel::mapReady);
        panel.setBuffer(pair.analysis, index);
        if (ready.isEmpty()) {
            ASSERT_TRUE(ready.wait(10000));
        }
    }
    DivergenceMapPanel panel;
};

} // namespace

TEST_F(DivergenceMapPanelTest, ImageMarksExactlyTheDifferingRows) {
    const MapPair pair = rowsPair();
    showBuffer(pair, "q_logits");
    const DivergenceMap* map = panel.map();
    ASSERT_NE(map, nullptr) << panel.statusText().toStdString();
    ASSERT_FALSE(map->flat);
    ASSERT_EQ(map->gridRows, 32u);
    ASSERT_EQ(map->gridCols, 8u);
    const QImage& image = panel.image();
    ASSERT_EQ(image.size(), QSize(8, 32));
    const QColor row3 = image.pixelColor(0, 3), row17 = image.pixelColor(0, 17);
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 8; ++c) {
            const QColor color = image.pixelColor(c, r);
            if (r == 20 && c == 2)
                EXPECT_EQ(color, DivergenceMapPanel::nonFiniteColor());
            else if (r == 3)
                EXPECT_EQ(color, row3) << c;
            else if (r == 17)
                EXPECT_EQ(color, row17) << c;
            else
                EXPECT_EQ(color, DivergenceMapPanel::equalColor()) << r << "," << c;
        }
    // Both ends of the scale, neither neutral nor the NaN colour.
    EXPECT_EQ(row3, DivergenceMapPanel::scaleColor(0.0));
    EXPECT_EQ(row17, DivergenceMapPanel::scaleColor(1.0));
    EXPECT_TRUE(panel.statusText().contains(QStringLiteral("32 rows × 8 columns")))
        << panel.statusText().toStdString();

    // The painted cells are where cellAt finds them; hover describes the block.
    const QRect cell = panel.cellRect(17, 4);
    ASSERT_FALSE(cell.isEmpty());
    EXPECT_EQ(panel.cellAt(cell.center()), (std::pair<quint32, quint32>{17, 4}));
    EXPECT_EQ(panel.cellAt(cell.topLeft()), (std::pair<quint32, quint32>{17, 4}));
    EXPECT_EQ(panel.cellAt(cell.bottomRight()), (std::pair<quint32, quint32>{17, 4}));
    QTest::mouseMove(&panel, cell.center());
    EXPECT_TRUE(panel.hoverText().startsWith(QStringLiteral("row 17, column 4: 1 element")))
        << panel.hoverText().toStdString();
    EXPECT_TRUE(panel.hoverText().contains(QStringLiteral("1 differ, max|Δ| 100")))
        << panel.hoverText().toStdString();
    QTest::mouseMove(&panel, panel.cellRect(20, 2).center());
    EXPECT_TRUE(panel.hoverText().contains(QStringLiteral("1 NaN/Inf on one side only")))
        << panel.hoverText().toStdString();

    // What is painted is the image.
    const QImage shot = panel.grab().toImage();
    const qreal dpr = shot.devicePixelRatio();
    EXPECT_EQ(shot.pixelColor((cell.center() * dpr)), row17);
    EXPECT_EQ(shot.pixelColor((panel.cellRect(5, 5).center() * dpr)),
              DivergenceMapPanel::equalColor());
}

TEST_F(DivergenceMapPanelTest, FlatBufferIsAStrip) {
    const MapPair pair = rowsPair();
    showBuffer(pair, "v_pred");
    const DivergenceMap* map = panel.map();
    ASSERT_NE(map, nullptr) << panel.statusText().toStdString();
    EXPECT_TRUE(map->flat);
    ASSERT_EQ(panel.image().size(), QSize(32, 1));
    for (int i = 0; i < 32; ++i)
        EXPECT_EQ(panel.image().pixelColor(i, 0) == DivergenceMapPanel::equalColor(), i != 5) << i;
    EXPECT_TRUE(panel.cellText(0, 5).startsWith(QStringLiteral("element 5: 1 element")));
}

TEST_F(DivergenceMapPanelTest, BuffersWithoutAMapSayWhy) {
    const MapPair pair = rowsPair();
    showBuffer(pair, "pi_logits");
    EXPECT_EQ(panel.map(), nullptr);
    EXPECT_EQ(panel.statusText(), QStringLiteral("No differences in this buffer."));
    EXPECT_TRUE(panel.mapRect().isEmpty());
    showBuffer(pair, "dueling_q_composed");
    EXPECT_EQ(panel.map(), nullptr);
    EXPECT_TRUE(panel.statusText().contains(QStringLiteral("10 vs 11 elements")))
        << panel.statusText().toStdString();
    panel.clear();
    EXPECT_TRUE(panel.statusText().startsWith(QStringLiteral("Select a buffer")));
}

TEST_F(DivergenceMapPanelTest, HiddenPanelComputesWhenShown) {
    const MapPair pair = rowsPair();
    panel.hide();
    QSignalSpy ready(&panel, &DivergenceMapPanel::mapReady);
    panel.setBuffer(pair.analysis, pair.buffer("q_logits"));
    EXPECT_FALSE(panel.isComputing());
    EXPECT_EQ(panel.map(), nullptr);
    panel.show();
    EXPECT_TRUE(panel.isComputing());
    ASSERT_TRUE(ready.wait(10000));
    ASSERT_NE(panel.map(), nullptr);
    EXPECT_EQ(panel.map()->total.nDiff, 17u);
}

// In the triage window: q_logits is 300 × 40, so 3 rows share a cell (at most 128 cell rows);
// the only differences are (151, 7) and (152, 7). Clicking cell (50, 7) — rows 150-152 — moves
// the element table to element 151 × 40 + 7, the block's first difference.
TEST(DivergenceMapInTriage, ClickMovesTheElementTableToTheBlocksFirstDifference) {
    const MapPair pair(300, 40, [](std::vector<float>& b) {
        b[151 * 40 + 7] = -1.0f;
        b[152 * 40 + 7] = -2.0f;
    });
    TriageView triage;
    triage.resize(1500, 1000);
    triage.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&triage));
    triage.setSnapshot(dumpscope::uitest::finishedSnapshot(*pair.analysis));
    ASSERT_TRUE(triage.selectCell(0, QStringLiteral("H"), QStringLiteral("q_logits")));
    DivergenceMapPanel* mapPanel = triage.divergenceMapPanel();
    auto* tabs = triage.findChild<QTabWidget*>(QStringLiteral("bufferDetailTabs"));
    ASSERT_NE(tabs, nullptr);
    QSignalSpy ready(mapPanel, &DivergenceMapPanel::mapReady);
    tabs->setCurrentWidget(mapPanel);
    if (!mapPanel->map()) {
        ASSERT_TRUE(ready.wait(10000)) << mapPanel->statusText().toStdString();
    }
    const DivergenceMap* map = mapPanel->map();
    ASSERT_NE(map, nullptr) << mapPanel->statusText().toStdString();
    ASSERT_EQ(map->rowsPerCell, 3u);
    ASSERT_EQ(map->colsPerCell, 1u);
    EXPECT_EQ(map->cell(50, 7).nDiff, 2u);

    const QRect cell = mapPanel->cellRect(50, 7);
    ASSERT_FALSE(cell.isEmpty());
    EXPECT_TRUE(mapPanel->hoverText().isEmpty());
    QTest::mouseClick(mapPanel, Qt::LeftButton, Qt::NoModifier, cell.center());
    EXPECT_EQ(triage.elementPanel()->currentElement(), std::optional<quint64>(151 * 40 + 7));
    EXPECT_EQ(mapPanel->markedElement(), std::optional<quint64>(151 * 40 + 7));
    // An equal block goes to its first element.
    QTest::mouseClick(mapPanel, Qt::LeftButton, Qt::NoModifier, mapPanel->cellRect(10, 3).center());
    EXPECT_EQ(triage.elementPanel()->currentElement(), std::optional<quint64>(30 * 40 + 3));

    // With a histogram bar's filter that leaves the clicked block's element out (the bar of
    // both differences, |Δ| 2.5 and 3.75, and an equal block clicked), the click clears the
    // filter, goes there and says so.
    ElementPanel* elements = triage.elementPanel();
    HistogramPanel* histogram = triage.histogramPanel();
    ASSERT_EQ(histogram->barCount(), 1);
    ASSERT_EQ(histogram->barBin(0), deltaDecade(2.5));
    emit histogram->barSet()->clicked(0);
    ASSERT_EQ(histogram->selectedBar(), 0);
    if (elements->rangeFilterText().isEmpty()) {
        QSignalSpy applied(elements, &ElementPanel::rangeFilterApplied);
        ASSERT_TRUE(applied.wait(10000));
    }
    ASSERT_FALSE(elements->rangeFilterText().isEmpty());
    QTest::mouseClick(mapPanel, Qt::LeftButton, Qt::NoModifier, mapPanel->cellRect(10, 3).center());
    EXPECT_EQ(elements->currentElement(), std::optional<quint64>(30 * 40 + 3));
    EXPECT_TRUE(elements->rangeFilterText().isEmpty()) << "the filter hid the clicked block";
    EXPECT_EQ(histogram->selectedBar(), -1) << "the bar stayed highlighted without its filter";
    EXPECT_TRUE(elements->statusText().contains(QStringLiteral("the filter is cleared")))
        << elements->statusText().toStdString();

    // The table's "show in the divergence map" outlines that element's block on the map's tab.
    tabs->setCurrentIndex(0);
    emit elements->elementShown(152 * 40 + 7);
    EXPECT_EQ(tabs->currentWidget(), mapPanel);
    EXPECT_EQ(mapPanel->markedElement(), std::optional<quint64>(152 * 40 + 7));
    mapPanel->repaint();
    const QImage shot = mapPanel->grab().toImage();
    const QRect marked = mapPanel->cellRect(50, 7).adjusted(-3, -3, 3, 3);
    const QColor highlight = mapPanel->palette().color(QPalette::Highlight);
    int outlined = 0;
    for (int y = marked.top(); y <= marked.bottom(); ++y)
        for (int x = marked.left(); x <= marked.right(); ++x)
            outlined += shot.pixelColor(x, y) == highlight;
    EXPECT_GT(outlined, 8) << "no outline around the shown element's block";
}

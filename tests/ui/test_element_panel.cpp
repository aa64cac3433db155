// ElementPanel and its model on real files: a generated run pair analysed by the core, the
// table's rows and values checked against the core's statistics, in both modes, under
// QAbstractItemModelTester; navigation, go to and the histogram-bar range filter.
#include "element_panel_fixture.h"
#include "panels/histogram_panel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QBarSet>
#include <QCheckBox>
#include <QClipboard>
#include <QFile>
#include <QSignalSpy>
#include <QTableView>

using namespace element_panel_test;

TEST_F(ElementPanelTest, RowsAndValuesMatchTheCoreStatisticsInBothModes) {
    GeneratedPair pair(5000);
    ASSERT_GE(pair.buffer, 0);
    const BufferResult& r = pair.result();
    ASSERT_EQ(r.status, Status::diverge);
    QAbstractItemModelTester tester(panel.model(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    panel.setBuffer(pair.analysis, pair.buffer);
    ASSERT_TRUE(panel.isIndexReady()); // small buffer: indexed at once
    ElementTableModel* model = panel.model();
    EXPECT_GT(model->rowCount(), 5);
    EXPECT_LT(model->rowCount(), 100); // a window, not every row

    // All elements: one row per element, differing rows flagged exactly where the bits differ.
    EXPECT_EQ(model->logicalRowCount(), 5000u);
    quint64 flagged = 0;
    forEachRow(panel, [&](quint64 row, int windowRow) {
        const QModelIndex index = model->index(windowRow, ElementTableModel::IndexColumn);
        ASSERT_EQ(index.data(ElementTableModel::ElementIndexRole).toULongLong(), row);
        ASSERT_EQ(index.data().toString(), QString::number(row));
        const bool differs = index.data(ElementTableModel::DiffersRole).toBool();
        ASSERT_EQ(differs, std::memcmp(&pair.a[row], &pair.b[row], 4) != 0) << row;
        ASSERT_EQ(index.data(Qt::BackgroundRole).isValid(), differs);
        flagged += differs;
    });
    EXPECT_EQ(flagged, r.stats.nDiff);

    // Only differing: nDiff rows, the first ones exactly the core's firstDiffs.
    panel.onlyDifferingBox()->setChecked(true);
    EXPECT_EQ(model->logicalRowCount(), r.stats.nDiff);
    EXPECT_EQ(model->firstRow(), 0u);
    const std::size_t shown = std::min<std::size_t>(r.stats.firstDiffs.size(), model->rowCount());
    ASSERT_GT(shown, 3u);
    for (std::size_t k = 0; k < shown; ++k) {
        const ElementDiff& d = r.stats.firstDiffs[k];
        const int row = int(k);
        EXPECT_EQ(model->index(row, ElementTableModel::IndexColumn).data().toString(),
                  QString::number(d.index));
        EXPECT_EQ(model->index(row, ElementTableModel::AColumn).data().toString(),
                  text(formatValue(r.dtype, d.bitsA)));
        EXPECT_EQ(model->index(row, ElementTableModel::BColumn).data().toString(),
                  text(formatValue(r.dtype, d.bitsB)));
        EXPECT_EQ(model->index(row, ElementTableModel::ABitsColumn).data().toString(),
                  text(formatBits(r.dtype, d.bitsA)));
        EXPECT_EQ(model->index(row, ElementTableModel::BBitsColumn).data().toString(),
                  text(formatBits(r.dtype, d.bitsB)));
        // Six digits on screen, the exact double in the tooltip.
        const QModelIndex deltaCell = model->index(row, ElementTableModel::DeltaColumn);
        const double delta = deltaCell.data(Qt::ToolTipRole).toString().toDouble();
        EXPECT_EQ(deltaCell.data().toString(), QString::number(d.absDelta, 'g', 6));
        if (std::isnan(d.absDelta))
            EXPECT_TRUE(std::isnan(delta));
        else
            EXPECT_EQ(delta, d.absDelta) << d.index;
    }
    // Every row of the differing mode differs, and the rows run in index order.
    quint64 previous = 0, rows = 0;
    forEachRow(panel, [&](quint64, int windowRow) {
        const QModelIndex index = model->index(windowRow, 0);
        const quint64 element = index.data(ElementTableModel::ElementIndexRole).toULongLong();
        ASSERT_TRUE(index.data(ElementTableModel::DiffersRole).toBool());
        ASSERT_TRUE(rows == 0 || element > previous);
        previous = element;
        ++rows;
    });
    EXPECT_EQ(rows, r.stats.nDiff);
    EXPECT_EQ(previous, *r.stats.lastDiff);
    EXPECT_NE(panel.statusText().indexOf(QString::number(r.stats.nDiff)), -1);

    panel.onlyDifferingBox()->setChecked(false);
    EXPECT_EQ(model->logicalRowCount(), 5000u);
    panel.clear();
    EXPECT_EQ(model->rowCount(), 0);
}

TEST_F(ElementPanelTest, NextPreviousAndGoToFollowTheDifferences) {
    GeneratedPair pair(3000);
    const BufferResult& r = pair.result();
    panel.setBuffer(pair.analysis, pair.buffer);
    ASSERT_TRUE(panel.isIndexReady());

    panel.nextDifference();
    ASSERT_EQ(panel.currentElement(), r.stats.firstDiff);
    for (std::size_t k = 1; k < r.stats.firstDiffs.size(); ++k) {
        panel.nextDifference();
        ASSERT_EQ(panel.currentElement(), r.stats.firstDiffs[k].index);
        // The cursor sits on that element's row in the window.
        const QModelIndex current = panel.view()->currentIndex();
        ASSERT_TRUE(current.isValid());
        EXPECT_EQ(current.data(ElementTableModel::ElementIndexRole).toULongLong(),
                  r.stats.firstDiffs[k].index);
    }
    panel.previousDifference();
    EXPECT_EQ(panel.currentElement(), r.stats.firstDiffs[r.stats.firstDiffs.size() - 2].index);

    // N and Shift+N reach the same slots through the keyboard.
    panel.view()->setFocus();
    const auto before = *panel.currentElement();
    QTest::keyClick(panel.view(), Qt::Key_N);
    EXPECT_EQ(panel.currentElement(), before + 7);
    QTest::keyClick(panel.view(), Qt::Key_N, Qt::ShiftModifier);
    EXPECT_EQ(panel.currentElement(), before);

    // Far away: the window moves there and the cursor follows.
    panel.goToIndex(2500);
    EXPECT_EQ(panel.currentElement(), 2500u);
    EXPECT_LE(panel.model()->firstRow(), 2500u);
    EXPECT_GT(panel.model()->firstRow() + quint64(panel.model()->rowCount()), 2500u);
    panel.nextDifference();
    EXPECT_EQ(panel.currentElement(), 2502u); // 3 + 7 * 357
    panel.goToIndex(1'000'000);               // past the end: the last element
    EXPECT_EQ(panel.currentElement(), 2999u);
    panel.nextDifference(); // none after: stays
    EXPECT_EQ(panel.currentElement(), 2999u);

    // Only differing: going to an equal element lands on the next differing one.
    panel.onlyDifferingBox()->setChecked(true);
    panel.goToIndex(100);
    EXPECT_EQ(panel.currentElement(), 101u);
    // Keyboard moves leave the window: Down from the last row scrolls.
    const quint64 firstBefore = panel.model()->firstRow();
    for (int i = 0; i < panel.model()->windowRows() + 2; ++i)
        QTest::keyClick(panel.view(), Qt::Key_Down);
    EXPECT_GT(panel.model()->firstRow(), firstBefore);
    EXPECT_EQ(*panel.currentElement(), 101u + 7u * quint64(panel.model()->windowRows() + 2));
}

TEST_F(ElementPanelTest, HistogramBarFiltersTheTableToExactlyItsElements) {
    GeneratedPair pair(4000);
    const BufferResult& r = pair.result();
    HistogramPanel histogram;
    QObject::connect(&histogram, &HistogramPanel::deltaDecadeClicked, &panel,
                     &ElementPanel::filterToDeltaDecade);
    QObject::connect(&histogram, &HistogramPanel::ulpBinClicked, &panel,
                     &ElementPanel::filterToUlpBin);
    panel.setBuffer(pair.analysis, pair.buffer);
    histogram.setBuffer(pair.analysis, pair.buffer);
    ASSERT_GE(histogram.barCount(), 8);

    for (HistogramPanel::Mode mode : {HistogramPanel::Mode::delta, HistogramPanel::Mode::ulp}) {
        histogram.setMode(mode);
        for (int bar = 0; bar < histogram.barCount(); ++bar) {
            SCOPED_TRACE(histogram.barLabel(bar).toStdString());
            emit histogram.barSet()->clicked(bar);
            ASSERT_TRUE(panel.hasRangeFilter());
            ASSERT_EQ(panel.model()->logicalRowCount(), histogram.barValue(bar));
            EXPECT_FALSE(panel.rangeFilterText().isEmpty());
            EXPECT_FALSE(panel.onlyDifferingBox()->isEnabled());
            const bool ulp = mode == HistogramPanel::Mode::ulp;
            const DiffFilter filter = ulp ? DiffFilter::ulpBin(histogram.barBin(bar))
                                          : DiffFilter::deltaDecade(histogram.barBin(bar));
            forEachRow(panel, [&](quint64, int windowRow) {
                const quint64 i = panel.model()
                                      ->index(windowRow, 0)
                                      .data(ElementTableModel::ElementIndexRole)
                                      .toULongLong();
                std::uint32_t x, y;
                std::memcpy(&x, &pair.a[i], 4);
                std::memcpy(&y, &pair.b[i], 4);
                ASSERT_NE(x, y);
                ASSERT_TRUE(filter.matches(DType::f32, x, y)) << i;
                if (!ulp && filter.bin <= DeltaHistogram::kMaxDecade) {
                    // Independently of the shared helper: the generated Δs sit mid-decade.
                    const double delta = std::fabs(double(pair.a[i]) - double(pair.b[i]));
                    ASSERT_EQ(int(std::floor(std::log10(delta))), filter.bin) << i;
                }
            });
            // Next difference walks inside the filter (empty bars between others list nothing).
            if (histogram.barValue(bar) == 0) continue;
            panel.goToIndex(0);
            panel.nextDifference();
            ASSERT_TRUE(panel.currentElement().has_value());
            EXPECT_TRUE(panel.model()->rowIndex()->contains(*panel.currentElement()));
            EXPECT_EQ(panel.model()->rowIndex()->rank(*panel.currentElement()),
                      std::min<quint64>(1, histogram.barValue(bar) - 1));
        }
    }
    panel.clearRangeFilter();
    EXPECT_FALSE(panel.hasRangeFilter());
    EXPECT_TRUE(panel.rangeFilterText().isEmpty());
    EXPECT_EQ(panel.model()->logicalRowCount(), 4000u);
    EXPECT_EQ(panel.model()->rowIndex(), nullptr);
    EXPECT_TRUE(panel.onlyDifferingBox()->isEnabled());
    EXPECT_GT(r.stats.nDiff, 0u);
}

// Sorting the element table by a column on a generated pair analysed by the core: a header click
// lists the differing elements by |Δ|, largest first (NaN on top), again reverses, Index goes
// back; the kept rows are bounded; big buffers sort in a worker, which a new buffer cancels.
// The model runs under a fatal QAbstractItemModelTester throughout.
#include "element_panel_fixture.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QHeaderView>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>

#include <cstring>

using namespace element_panel_test;

namespace {

// |Δ| of element i as the test computes it from the floats written, NaN as +infinity's successor.
double deltaKey(const GeneratedPair& p, std::size_t i) {
    const double d = std::fabs(double(p.a[i]) - double(p.b[i]));
    return std::isnan(d) ? INFINITY : d;
}

std::size_t differing(const GeneratedPair& p) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < p.a.size(); ++i)
        n += std::memcmp(&p.a[i], &p.b[i], 4) != 0;
    return n;
}

void clickHeader(ElementPanel& panel, int column) {
    QHeaderView* header = panel.view()->horizontalHeader();
    const QPoint at(header->sectionViewportPosition(column) + header->sectionSize(column) / 2,
                    header->height() / 2);
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, at);
}

std::vector<quint64> listedElements(ElementPanel& panel) {
    std::vector<quint64> elements;
    forEachRow(panel, [&](quint64, int r) { elements.push_back(*panel.model()->elementAt(r)); });
    return elements;
}

} // namespace

TEST_F(ElementPanelTest, AHeaderClickSortsTheDifferencesLargestDeltaFirst) {
    GeneratedPair pair(5000);
    QAbstractItemModelTester tester(panel.model(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    panel.setBuffer(pair.analysis, pair.buffer);
    ASSERT_TRUE(panel.isIndexReady());
    QHeaderView* header = panel.view()->horizontalHeader();
    EXPECT_EQ(header->sortIndicatorSection(), int(ElementTableModel::IndexColumn));

    clickHeader(panel, ElementTableModel::DeltaColumn);
    ASSERT_TRUE(panel.isOrdered());
    EXPECT_EQ(header->sortIndicatorSection(), int(ElementTableModel::DeltaColumn));
    EXPECT_EQ(header->sortIndicatorOrder(), Qt::DescendingOrder);
    // The first row shows the NaN element, with the cursor on it.
    EXPECT_EQ(panel.model()->index(0, ElementTableModel::BColumn).data().toString(), "nan");
    EXPECT_EQ(panel.currentElement(), 10u);
    const std::size_t nDiff = differing(pair);
    ASSERT_EQ(pair.result().stats.nDiff, nDiff);
    std::vector<quint64> rows = listedElements(panel);
    ASSERT_EQ(rows.size(), nDiff);
    EXPECT_EQ(rows.front(), 10u) << "the NaN difference is on top";
    // Then the largest finite |Δ| (3e+1), and never a larger one below a smaller one.
    double largest = 0;
    for (std::size_t i = 0; i < pair.a.size(); ++i)
        if (i != 10) largest = std::max(largest, deltaKey(pair, i));
    EXPECT_EQ(deltaKey(pair, rows[1]), largest);
    for (std::size_t k = 1; k < rows.size(); ++k)
        ASSERT_GE(deltaKey(pair, rows[k - 1]), deltaKey(pair, rows[k])) << k;
    EXPECT_TRUE(panel.orderText().contains(QStringLiteral("all %1").arg(nDiff)))
        << panel.orderText().toStdString();
    EXPECT_FALSE(panel.onlyDifferingBox()->isEnabled());

    // Again: smallest first. The ±0 pair (|Δ| 0, bits differing) leads, NaN is last.
    clickHeader(panel, ElementTableModel::DeltaColumn);
    EXPECT_EQ(header->sortIndicatorOrder(), Qt::AscendingOrder);
    rows = listedElements(panel);
    ASSERT_EQ(rows.size(), nDiff);
    EXPECT_EQ(rows.front(), 11u);
    EXPECT_EQ(rows.back(), 10u);

    // N walks the order; the bits columns do not sort; Index is index order again.
    panel.goToIndex(rows[5]);
    panel.nextDifference();
    EXPECT_EQ(panel.currentElement(), rows[6]);
    clickHeader(panel, ElementTableModel::ABitsColumn);
    EXPECT_TRUE(panel.isOrdered());
    EXPECT_EQ(header->sortIndicatorSection(), int(ElementTableModel::DeltaColumn));
    clickHeader(panel, ElementTableModel::IndexColumn);
    EXPECT_FALSE(panel.isOrdered());
    EXPECT_EQ(header->sortIndicatorSection(), int(ElementTableModel::IndexColumn));
    EXPECT_EQ(panel.model()->logicalRowCount(), 5000u);
    EXPECT_EQ(panel.currentElement(), rows[6]) << "the cursor stays on its element";
}

TEST_F(ElementPanelTest, ASortKeepsItsLimitAndAJumpElsewhereReturnsToIndexOrder) {
    GeneratedPair pair(5000);
    QAbstractItemModelTester tester(panel.model(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    panel.setOrderLimit(10);
    panel.setBuffer(pair.analysis, pair.buffer);
    panel.sortByColumn(ElementTableModel::AColumn, Qt::DescendingOrder);
    ASSERT_TRUE(panel.isOrdered());
    const std::vector<quint64> rows = listedElements(panel);
    ASSERT_EQ(rows.size(), 10u);
    EXPECT_TRUE(panel.orderText().contains(
        QStringLiteral("top 10 of %1").arg(QLocale().toString(qulonglong(differing(pair))))))
        << panel.orderText().toStdString();
    // A is in [1, 2): the ten largest A among the differing elements, found by brute force.
    std::vector<std::pair<float, quint64>> byA;
    for (std::size_t i = 0; i < pair.a.size(); ++i)
        if (std::memcmp(&pair.a[i], &pair.b[i], 4) != 0) byA.push_back({-pair.a[i], i});
    std::sort(byA.begin(), byA.end());
    for (std::size_t k = 0; k < 10; ++k)
        EXPECT_EQ(rows[k], byA[k].second) << k;

    // An element outside the ten shown: the table goes back to index order to show it.
    const quint64 outside = byA[20].second;
    panel.goToIndex(outside);
    EXPECT_FALSE(panel.isOrdered());
    EXPECT_EQ(panel.currentElement(), outside);
}

TEST_F(ElementPanelTest, BigBuffersSortInAWorkerThatANewBufferCancels) {
    GeneratedPair pair(300'000);
    QAbstractItemModelTester tester(panel.model(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    panel.setSyncIndexLimit(1000);
    QSignalSpy ordered(&panel, &ElementPanel::orderReady);
    panel.setBuffer(pair.analysis, pair.buffer);
    // Asked for before the differences are indexed: it waits for them, then sorts.
    panel.sortByColumn(ElementTableModel::DeltaColumn, Qt::DescendingOrder);
    EXPECT_TRUE(panel.isOrderPending());
    EXPECT_EQ(panel.model()->logicalRowCount(), 300'000u) << "the table stays usable meanwhile";
    ASSERT_TRUE(ordered.wait(30000));
    ASSERT_TRUE(panel.isOrdered());
    EXPECT_EQ(panel.model()->logicalRowCount(), pair.result().stats.nDiff);
    EXPECT_EQ(panel.model()->elementAt(0), 10u);
    const double second = deltaKey(pair, *panel.model()->elementAt(1));
    for (std::size_t i = 0; i < pair.a.size(); ++i)
        if (i != 10) {
            ASSERT_LE(deltaKey(pair, i), second) << i;
        }

    // A sort in flight when another buffer is chosen is dropped: the new buffer lists by index.
    panel.sortByColumn(ElementTableModel::UlpColumn, Qt::DescendingOrder);
    ASSERT_TRUE(panel.isOrderPending());
    GeneratedPair other(200'000);
    ordered.clear();
    panel.setBuffer(other.analysis, other.buffer);
    EXPECT_FALSE(panel.isOrdered());
    EXPECT_FALSE(panel.isOrderPending());
    QTest::qWait(300); // a late result of the stopped sort would land here
    EXPECT_TRUE(ordered.isEmpty());
    EXPECT_FALSE(panel.model()->rowOrder());
    EXPECT_EQ(panel.view()->horizontalHeader()->sortIndicatorSection(),
              int(ElementTableModel::IndexColumn));
}

TEST_F(ElementPanelTest, ASortWithAHistogramFilterOrdersOnlyTheBarsElements) {
    GeneratedPair pair(5000);
    panel.setBuffer(pair.analysis, pair.buffer);
    panel.sortByColumn(ElementTableModel::DeltaColumn, Qt::AscendingOrder);
    ASSERT_TRUE(panel.isOrdered());
    panel.filterToDeltaDecade(0); // |Δ| in [1, 10): the 3e+0 differences
    ASSERT_TRUE(panel.isOrdered());
    const std::vector<quint64> rows = listedElements(panel);
    EXPECT_EQ(rows.size(), pair.result().stats.deltaHistogram.at(0));
    for (std::size_t k = 0; k < rows.size(); ++k) {
        ASSERT_GE(deltaKey(pair, rows[k]), 1.0);
        ASSERT_LT(deltaKey(pair, rows[k]), 10.0);
        if (k > 0) {
            ASSERT_LE(deltaKey(pair, rows[k - 1]), deltaKey(pair, rows[k]));
        }
    }
    EXPECT_TRUE(panel.orderText().contains(QStringLiteral("histogram bar")));
}

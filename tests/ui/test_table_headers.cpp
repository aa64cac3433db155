// The matrix's column headers (the groups' short names, ids kept findable, narrow columns
// eliding words but never the id) and the buffer list's frozen name column (in view when the
// list scrolls sideways, selection, sorting, vertical scrolling and keys in step with the list),
// on pairs written to a temp dir and analysed by the core.
#include "models/buffer_list_model.h"
#include "models/matrix_model.h"
#include "panels/buffer_panel.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "widgets/frozen_column_view.h"
#include "widgets/matrix_view.h"

#include "dumpscope/analyze.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTest>

#include <gtest/gtest.h>

#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

using namespace dumpscope;
using dumpscope::test::TempDir;

TEST(MatrixHeaders, ShowTheGroupsShortNamesAndKeepTheirIds) {
    EXPECT_EQ(MatrixModel::groupShortName("H", "H (head fwd outputs)"), "H head fwd outputs");
    EXPECT_EQ(MatrixModel::groupShortName("attn", "attention output"), "attn attention output");
    EXPECT_EQ(MatrixModel::groupShortName("q", "q (queries)"), "q queries");
    EXPECT_EQ(MatrixModel::groupShortName("other", "other"), "other");

    TempDir dir;
    uitest::writeMixedPair(dir.path());
    MatrixModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSnapshot(uitest::finishedSnapshot(analyze(dir / "a", dir / "b")));
    ASSERT_EQ(model.columnCount(), 6);
    QStringList ids;
    for (int c = 0; c < model.columnCount(); ++c) {
        const QString id = model.headerData(c, Qt::Horizontal, MatrixModel::GroupRole).toString();
        const QString shown = model.headerData(c, Qt::Horizontal).toString();
        ids << id;
        EXPECT_TRUE(shown == id || shown.startsWith(id + QLatin1Char(' '))) << shown.toStdString();
        // Every cell of the column names the same group as its header.
        EXPECT_EQ(model.index(0, c).data(MatrixModel::GroupRole).toString(), id);
    }
    EXPECT_EQ(ids, (QStringList{"G", "H", "I", "J", "K", "other"}));
    EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString(), "H head fwd outputs");
    EXPECT_EQ(model.headerData(1, Qt::Horizontal, Qt::ToolTipRole).toString(),
              "H (head fwd outputs)");
    EXPECT_EQ(model.headerData(5, Qt::Horizontal).toString(), "other");
}

TEST(MatrixHeaders, NarrowColumnsElideTheWordsNeverTheId) {
    TempDir dir;
    uitest::writeMixedPair(dir.path());
    MatrixModel model;
    model.setSnapshot(uitest::finishedSnapshot(analyze(dir / "a", dir / "b")));
    MatrixView view;
    view.setModel(&model);
    view.resize(260, 200); // six groups in 260 px: every header's words are cut
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    QHeaderView* header = view.horizontalHeader();
    const int margin = 2 * view.style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    int elided = 0;
    for (int c = 0; c < model.columnCount(); ++c) {
        const QString id = model.headerData(c, Qt::Horizontal, MatrixModel::GroupRole).toString();
        // What the header draws: the style alone would centre the text and clip both ends.
        const QString shown = view.headerText(c);
        EXPECT_LE(header->fontMetrics().horizontalAdvance(shown), header->sectionSize(c) - margin);
        EXPECT_TRUE(shown.startsWith(id)) << shown.toStdString();
        elided += shown != model.headerData(c, Qt::Horizontal).toString();
    }
    EXPECT_GT(elided, 0) << "the test must narrow the columns below their words";
    // With the width back, the words show whole.
    view.resize(1400, 200);
    QCoreApplication::processEvents();
    const QString h = model.headerData(1, Qt::Horizontal).toString();
    EXPECT_GE(header->sectionSize(1) - margin, header->fontMetrics().horizontalAdvance(h));
}

namespace {

struct ManyBuffers {
    TempDir dir;
    SnapshotPtr snapshot;
    std::vector<std::size_t> all;
    ManyBuffers() {
        uitest::writeLargePair(dir.path(), 2, 16);
        Analysis analysis = analyze(dir / "a", dir / "b");
        all.resize(analysis.buffers.size());
        std::iota(all.begin(), all.end(), std::size_t{0});
        snapshot = uitest::finishedSnapshot(std::move(analysis));
    }
};

QPoint sectionCentre(QHeaderView* header, int section) {
    return {header->sectionViewportPosition(section) + header->sectionSize(section) / 2,
            header->height() / 2};
}

} // namespace

TEST(FrozenNameColumn, StaysInViewAndInStepWhenTheListScrollsSideways) {
    ManyBuffers pair;
    BufferPanel panel;
    QAbstractItemModelTester tester(panel.proxy(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    panel.resize(600, 260);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    panel.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&panel));
    panel.setCell(pair.snapshot, QStringLiteral("every buffer"), pair.all);
    QSortFilterProxyModel* proxy = panel.proxy();
    ASSERT_GT(proxy->rowCount(), 12);
    FrozenColumnView* view = panel.view();
    QTableView* frozen = view->frozenView();
    ASSERT_TRUE(frozen->isVisible());
    EXPECT_EQ(frozen->model(), view->model());
    EXPECT_EQ(frozen->selectionModel(), view->selectionModel());

    // Scrolled fully right, the list's own name cell is out of sight, the frozen one is not.
    view->setCurrentIndex(proxy->index(3, BufferListModel::StatusColumn));
    QScrollBar* sideways = view->horizontalScrollBar();
    ASSERT_GT(sideways->maximum(), 0) << "the list must be wider than the pane";
    sideways->setValue(sideways->maximum());
    QCoreApplication::processEvents();
    const QModelIndex name = proxy->index(3, BufferListModel::NameColumn);
    const int frozenWidth = frozen->width();
    EXPECT_LT(view->visualRect(name).left(), 0);
    const QRect shown = frozen->visualRect(name);
    EXPECT_TRUE(frozen->viewport()->rect().contains(shown));
    EXPECT_GE(shown.width(), frozen->fontMetrics().horizontalAdvance(name.data().toString()));
    EXPECT_LE(frozenWidth, view->viewport()->width() / 2 + 1);
    // It lies over the list's left edge, below nothing: the header row and the rows both.
    EXPECT_EQ(frozen->geometry().left(), view->frameWidth());
    EXPECT_EQ(frozen->geometry().top(), view->frameWidth());
    EXPECT_TRUE(frozen->selectionModel()->isRowSelected(3, {}));

    // A click on the frozen name selects that row in the list and gives it the keyboard;
    // Down moves on, and the list stays scrolled sideways.
    QTest::mouseClick(frozen->viewport(), Qt::LeftButton, {},
                      frozen->visualRect(proxy->index(5, 0)).center());
    EXPECT_EQ(view->currentIndex().row(), 5);
    EXPECT_TRUE(view->hasFocus());
    QTest::keyClick(view, Qt::Key_Down);
    EXPECT_EQ(view->currentIndex().row(), 6);
    EXPECT_EQ(panel.selectedBuffer(),
              panel.model()->bufferIndex(proxy->mapToSource(proxy->index(6, 0)).row()));
    // The list did not jump back to its first column to show the name: it is already in view.
    EXPECT_GT(sideways->value(), sideways->maximum() / 2);
    // Down to the last row: both views scroll together.
    QTest::keyClick(view, Qt::Key_End, Qt::ControlModifier);
    QCoreApplication::processEvents();
    EXPECT_EQ(view->currentIndex().row(), proxy->rowCount() - 1);
    EXPECT_GT(view->verticalScrollBar()->value(), 0);
    EXPECT_EQ(frozen->verticalScrollBar()->value(), view->verticalScrollBar()->value());
    EXPECT_TRUE(frozen->viewport()->rect().contains(
        frozen->visualRect(proxy->index(proxy->rowCount() - 1, 0))));

    // A click on the frozen header sorts the list by name, and again reverses it.
    QHeaderView* frozenHeader = frozen->horizontalHeader();
    QTest::mouseClick(frozenHeader->viewport(), Qt::LeftButton, {},
                      sectionCentre(frozenHeader, BufferListModel::NameColumn));
    EXPECT_EQ(view->horizontalHeader()->sortIndicatorSection(), int(BufferListModel::NameColumn));
    EXPECT_EQ(view->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
    auto names = [&] {
        QStringList list;
        for (int r = 0; r < proxy->rowCount(); ++r)
            list << proxy->index(r, BufferListModel::NameColumn).data().toString();
        return list;
    };
    QStringList sorted = names();
    std::sort(sorted.begin(), sorted.end(), [](const QString& x, const QString& y) {
        return QString::compare(x, y, Qt::CaseInsensitive) < 0;
    });
    EXPECT_EQ(names(), sorted);
    QTest::mouseClick(frozenHeader->viewport(), Qt::LeftButton, {},
                      sectionCentre(frozenHeader, BufferListModel::NameColumn));
    EXPECT_EQ(view->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
    EXPECT_EQ(frozenHeader->sortIndicatorOrder(), Qt::DescendingOrder);
    std::reverse(sorted.begin(), sorted.end());
    EXPECT_EQ(names(), sorted);
    // A sort by another column moves the frozen header's indicator off the name.
    view->sortByColumn(BufferListModel::DifferingColumn, Qt::DescendingOrder);
    EXPECT_EQ(frozenHeader->sortIndicatorSection(), int(BufferListModel::DifferingColumn));
}

// A long cell's columns fit the rows on screen and some around them, not every row: a name far
// down the list does not widen the column (its tooltip and the elision show it whole), one on
// screen does.
TEST(BufferListColumns, FitTheRowsOnScreenNotAFarOneOfALongCell) {
    TempDir dir;
    const std::string longName = "n0400_" + std::string(60, 'w');
    const std::string nearName = "n0001_" + std::string(30, 'v');
    for (int i = 0; i < 700; ++i) {
        char name[8];
        std::snprintf(name, sizeof name, "n%04d", i);
        const std::string rest = i == 400 ? longName : i == 1 ? nearName : std::string(name);
        for (const char* side : {"a", "b"})
            test::writeDump(dir / side, 0, rest, std::vector<float>{1.0f});
    }
    Analysis analysis = analyze(dir / "a", dir / "b");
    std::vector<std::size_t> all(analysis.buffers.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    ASSERT_EQ(all.size(), 700u);
    BufferPanel panel;
    panel.resize(1600, 400);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    panel.setCell(uitest::finishedSnapshot(std::move(analysis)), QStringLiteral("all"), all);
    QSortFilterProxyModel* proxy = panel.proxy();
    int nearRow = -1, farRow = -1;
    for (int r = 0; r < proxy->rowCount(); ++r) {
        const QString name = proxy->index(r, BufferListModel::NameColumn).data().toString();
        if (name == QString::fromStdString(nearName)) nearRow = r;
        if (name == QString::fromStdString(longName)) farRow = r;
    }
    ASSERT_GE(nearRow, 0);
    ASSERT_GT(farRow, 300) << "the long name must lie far below the rows on screen";
    const QFontMetrics metrics = panel.view()->fontMetrics();
    const int width = panel.view()->columnWidth(BufferListModel::NameColumn);
    EXPECT_GE(width, metrics.horizontalAdvance(QString::fromStdString(nearName)));
    EXPECT_LT(width, metrics.horizontalAdvance(QString::fromStdString(longName)));
}

// A pair with a directory per rank in the window: the rank selector shows one rank's matrix,
// buffers and verdict, and the step × rank overview shows where each rank diverges.
#include "models/matrix_model.h"
#include "models/rank_overview_model.h"
#include "panels/buffer_panel.h"
#include "panels/rank_panel.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "widgets/matrix_view.h"
#include "window/main_window.h"
#include "window/triage_view.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QHeaderView>
#include <QTableView>

#include <gtest/gtest.h>

using namespace dumpscope;
using dumpscope::test::TempDir;

namespace {

QString q(const std::filesystem::path& p) {
    return QString::fromStdString(p.string());
}

} // namespace

TEST(RankPanel, TheOverviewShowsWhereEachRankDivergesAndTheSelectorFiltersTheMatrix) {
    TempDir dir, settingsDir;
    // Two steps on ranks 0, 1 and 2; run B differs at step 2 on ranks 1 and 2 only.
    test::writeRankedPair(dir.path(), 3, 2,
                          [](int rank, int step) { return step == 2 && rank != 0; });
    MainWindow window{{nullptr, q(settingsDir / "settings.ini")}};
    window.show();
    window.openPair({q(dir / "a"), q(dir / "b")});
    ASSERT_TRUE(uitest::waitForFinished(window));
    TriageView* triage = window.triageView();
    RankPanel* ranks = triage->rankPanel();
    EXPECT_TRUE(ranks->isVisible());
    QComboBox* selector = ranks->selector();
    ASSERT_EQ(selector->count(), 4); // all ranks, then ranks 0, 1, 2
    EXPECT_EQ(selector->itemText(0), QStringLiteral("All ranks"));
    EXPECT_EQ(selector->itemText(2), QStringLiteral("Rank 1"));

    QAbstractItemModel* overview = ranks->overview()->model();
    QAbstractItemModelTester tester(overview,
                                    QAbstractItemModelTester::FailureReportingMode::Warning);
    ASSERT_EQ(overview->rowCount(), 2);    // steps 1 and 2
    ASSERT_EQ(overview->columnCount(), 3); // ranks 0, 1, 2
    EXPECT_EQ(overview->headerData(1, Qt::Horizontal).toString(), QStringLiteral("rank 1"));
    EXPECT_TRUE(overview->headerData(1, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("Rank 1: ")));
    for (int rank = 0; rank < 3; ++rank) {
        EXPECT_FALSE(overview->index(0, rank).data().isValid()) << rank; // step 1: equal
        EXPECT_EQ(overview->index(1, rank).data().toInt(), rank == 0 ? 0 : 1) << rank;
    }
    // Each column shows its whole label and count, with widths made from the labels and counts
    // rather than measured cell by cell.
    QTableView* table = ranks->overview();
    for (int column = 0; column < 3; ++column) {
        EXPECT_GE(table->horizontalHeader()->sectionSize(column),
                  table->horizontalHeader()->sectionSizeHint(column))
            << column;
        EXPECT_GE(table->columnWidth(column),
                  static_cast<QAbstractItemView*>(table)->sizeHintForColumn(column))
            << column;
    }
    EXPECT_EQ(table->horizontalHeader()->sectionResizeMode(0), QHeaderView::Fixed);
    EXPECT_TRUE(overview->index(1, 2)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("step 2, rank 2: diverge, 1 divergent buffer")));

    // All ranks: the H cell of step 2 holds the three ranks' buffers; the root buffer shown is
    // the first rank's copy that diverges, not rank 0's equal one.
    ASSERT_TRUE(triage->selectCell(2, QStringLiteral("H"), QStringLiteral("q_logits")));
    const int shown = triage->bufferPanel()->selectedBuffer();
    ASSERT_GE(shown, 0);
    EXPECT_EQ(triage->snapshot()->analysis->buffers[std::size_t(shown)].rank, 1u);
    QAbstractItemModel* list = triage->bufferPanel()->view()->model();
    ASSERT_EQ(list->rowCount(), 3);
    QStringList names;
    for (int row = 0; row < 3; ++row)
        names << list->index(row, 0).data().toString();
    names.sort();
    EXPECT_EQ(names,
              (QStringList{QStringLiteral("q_logits (rank 0)"), QStringLiteral("q_logits (rank 1)"),
                           QStringLiteral("q_logits (rank 2)")}));
    EXPECT_EQ(triage->snapshot()->analysis->buffers.size(), 6u);

    // Rank 0 alone: equal everywhere, the verdict says so, the cell keeps its place.
    selector->setCurrentIndex(1);
    emit selector->activated(1);
    EXPECT_EQ(ranks->rank(), std::optional<std::uint64_t>(0));
    EXPECT_EQ(triage->snapshot()->analysis->buffers.size(), 2u);
    EXPECT_FALSE(triage->snapshot()->analysis->verdict.firstDivergentStep);
    EXPECT_EQ(triage->bufferPanel()->view()->model()->rowCount(), 1);
    const QModelIndex current = triage->matrixView()->currentIndex();
    EXPECT_EQ(current.data(MatrixModel::StepRole).toULongLong(), 2u);

    // A click on the overview's step 2, rank 2: that rank, that step.
    const QModelIndex cell = overview->index(1, 2);
    emit ranks->overview()->clicked(cell);
    EXPECT_EQ(ranks->rank(), std::optional<std::uint64_t>(2));
    EXPECT_EQ(selector->currentText(), QStringLiteral("Rank 2"));
    EXPECT_EQ(triage->snapshot()->analysis->verdict.firstDivergentStep, 2u);
    EXPECT_EQ(triage->snapshot()->analysis->verdict.firstDivergentRank, 2u);
    EXPECT_EQ(triage->matrixView()->currentIndex().data(MatrixModel::StepRole).toULongLong(), 2u);
}

TEST(RankPanel, APairWithoutRanksHidesIt) {
    TempDir dir, settingsDir;
    test::writeDump(dir / "a", 1, "h_q_logits", std::vector<float>{1});
    test::writeDump(dir / "b", 1, "h_q_logits", std::vector<float>{2});
    MainWindow window{{nullptr, q(settingsDir / "settings.ini")}};
    window.show();
    window.openPair({q(dir / "a"), q(dir / "b")});
    ASSERT_TRUE(uitest::waitForFinished(window));
    EXPECT_FALSE(window.triageView()->rankPanel()->isVisible());
    EXPECT_EQ(window.triageView()->rankPanel()->overview()->model()->rowCount(), 0);
}

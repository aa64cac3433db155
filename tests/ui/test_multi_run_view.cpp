// A base against several candidates in the window: one matrix per pair with the core's cells,
// the summary model (under QAbstractItemModelTester) ranked as the core ranks, and a matrix cell
// opening its pair in the triage view.
#include "models/matrix_model.h"
#include "models/multi_summary_model.h"
#include "multi_run_fixture.h"
#include "ui_test_util.h"
#include "widgets/matrix_colors.h"
#include "widgets/matrix_view.h"
#include "window/main_window.h"
#include "window/multi_run_view.h"
#include "window/triage_view.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QSignalSpy>
#include <QStackedWidget>

#include <gtest/gtest.h>

using dumpscope::test::Candidates;
using dumpscope::test::TempDir;
using dumpscope::test::threeCandidates;

namespace {

QString qs(const std::filesystem::path& p) {
    return QString::fromStdString(p.string());
}

QStringList runs(const Candidates& c) {
    QStringList out;
    for (const auto& r : c.runs())
        out << qs(r);
    return out;
}

bool waitFor(MultiRunView& view) {
    QSignalSpy spy(&view, &MultiRunView::finished);
    // The timeout only guards against a hang; nothing is asserted about how long it took.
    return view.isFinished() || spy.wait(120000);
}

QColor background(const QModelIndex& index) {
    return index.data(Qt::BackgroundRole).value<QBrush>().color();
}

} // namespace

TEST(MultiRunView, OneMatrixPerCandidateWithTheCellsColours) {
    const Candidates c = threeCandidates();
    MultiRunView view;
    view.open(qs(c.base()), runs(c));
    ASSERT_TRUE(waitFor(view));
    ASSERT_EQ(view.candidateCount(), 3);
    // Where each candidate diverges: (step, group), or none.
    const std::vector<std::optional<std::pair<quint64, QString>>> diverging = {
        std::nullopt, std::pair<quint64, QString>{2, "H"}, std::pair<quint64, QString>{1, "G"}};
    for (int k = 0; k < 3; ++k) {
        MatrixModel* model = view.matrixModel(k);
        ASSERT_NE(model, nullptr);
        EXPECT_EQ(view.matrixView(k)->model(), model);
        ASSERT_EQ(model->rowCount(), 4) << k;    // steps 0..3
        ASSERT_EQ(model->columnCount(), 5) << k; // G..K
        for (int r = 0; r < 4; ++r) {
            for (int col = 0; col < 5; ++col) {
                const QModelIndex i = model->index(r, col);
                const bool diverges =
                    diverging[k] &&
                    i.data(MatrixModel::StepRole).toULongLong() == diverging[k]->first &&
                    i.data(MatrixModel::GroupRole).toString() == diverging[k]->second;
                const QColor expected =
                    diverges
                        ? matrix_colors::diverge(i.data(MatrixModel::MaxAbsDeltaRole).toDouble())
                        : matrix_colors::equal();
                EXPECT_EQ(background(i), expected)
                    << "candidate " << k + 1 << " row " << r << " col " << col;
                const QString count =
                    QStringLiteral("/%1").arg(i.data(MatrixModel::BufferCountRole).toULongLong());
                EXPECT_EQ(i.data(Qt::DisplayRole).toString(),
                          (diverges ? QStringLiteral("1") : QStringLiteral("0")) + count)
                    << "candidate " << k + 1 << " row " << r << " col " << col;
            }
        }
    }
}

TEST(MultiRunView, SummaryRanksByFirstDivergentStepWithTheNoiseFloorReading) {
    const Candidates c = threeCandidates();
    MultiRunView view;
    QAbstractItemModelTester tester(view.summaryModel(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    view.open(qs(c.base()), runs(c));
    ASSERT_TRUE(waitFor(view));
    const MultiSummaryModel& model = *view.summaryModel();
    ASSERT_TRUE(model.allFinished());
    ASSERT_EQ(model.rowCount(), 3);
    // Candidate 3 (step 1), candidate 2 (step 2), candidate 1 (identical).
    const int order[] = {2, 1, 0};
    for (int r = 0; r < 3; ++r)
        EXPECT_EQ(model.index(r, 0).data(MultiSummaryModel::CandidateRole).toInt(), order[r]);
    EXPECT_EQ(model.index(0, MultiSummaryModel::StepColumn)
                  .data(MultiSummaryModel::FirstDivergentStepRole),
              1u);
    EXPECT_EQ(model.index(1, MultiSummaryModel::StepColumn)
                  .data(MultiSummaryModel::FirstDivergentStepRole),
              2u);
    EXPECT_FALSE(model.index(2, MultiSummaryModel::StepColumn)
                     .data(MultiSummaryModel::FirstDivergentStepRole)
                     .isValid());
    EXPECT_EQ(model.index(0, MultiSummaryModel::RankColumn).data().toString(), QStringLiteral("1"));
    EXPECT_EQ(model.index(0, MultiSummaryModel::CandidateColumn).data().toString(),
              QStringLiteral("3: ") + qs(c.runs()[2]));
    EXPECT_EQ(model.index(0, 4).data().toString(), QStringLiteral("G: sampled_h_t")); // root cause
    EXPECT_EQ(background(model.index(2, MultiSummaryModel::StepColumn)), matrix_colors::equal());
    EXPECT_EQ(model.index(1, MultiSummaryModel::FloorColumn)
                  .data(MultiSummaryModel::FloorReadingRole)
                  .toString(),
              QStringLiteral("floor_clean"));
    EXPECT_EQ(model.index(2, MultiSummaryModel::FloorColumn).data().toString(),
              QStringLiteral("the noise floor"));
    for (int col = 0; col < model.columnCount(); ++col)
        EXPECT_FALSE(model.headerData(col, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty())
            << col;
}

TEST(MultiRunView, ActivatingACellOpensThatPairInTheTriageView) {
    const Candidates c = threeCandidates();
    TempDir settings;
    MainWindow window({nullptr, qs(settings / "settings.ini")});
    window.show();
    window.openCandidates(qs(c.base()), runs(c));
    ASSERT_TRUE(dumpscope::uitest::waitForFinished(window));
    MultiRunView& multi = *window.multiRunView();
    ASSERT_TRUE(multi.isFinished());
    const QModelIndex cell = multi.matrixModel(1)->indexOf(2, "H");
    ASSERT_TRUE(cell.isValid());
    emit multi.matrixView(1)->activated(cell);

    ASSERT_TRUE(window.currentPair());
    EXPECT_EQ(window.currentPair()->runA, qs(c.base()));
    EXPECT_EQ(window.currentPair()->runB, qs(c.runs()[1]));
    EXPECT_EQ(window.snapshot(), multi.snapshot(1)); // no second analysis
    EXPECT_TRUE(window.triageView()->isVisible());
    const QModelIndex current = window.triageView()->matrixView()->currentIndex();
    EXPECT_EQ(current.data(MatrixModel::StepRole).toULongLong(), 2u);
    EXPECT_EQ(current.data(MatrixModel::GroupRole).toString(), QStringLiteral("H"));
}

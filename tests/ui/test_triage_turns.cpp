// TriageView::Pace::inTurns: a finished analysis reaches the panels in three turns of the event
// loop (matrix and verdict, then the cell's buffer list, then the buffer's details), with other
// events running in between; `shown` is called once, after the last turn.
#include "models/matrix_model.h"
#include "panels/buffer_panel.h"
#include "panels/element_panel.h"
#include "panels/histogram_panel.h"
#include "panels/verdict_panel.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "widgets/matrix_view.h"
#include "window/triage_view.h"

#include "dumpscope/analyze.h"

#include <QLabel>
#include <QTableView>
#include <QTest>
#include <QTimer>

#include <gtest/gtest.h>

using namespace dumpscope;
using dumpscope::test::TempDir;

namespace {

struct Fixture {
    TempDir dir;
    Analysis analysis;
    TriageView view;
    Fixture() {
        uitest::writeMixedPair(dir.path());
        analysis = analyze(dir / "a", dir / "b");
        view.resize(1400, 900);
        view.show();
    }
    QString headline() const {
        return view.verdictPanel()->findChild<QLabel*>(QStringLiteral("verdictHeadline"))->text();
    }
};

} // namespace

TEST(TriageTurns, AFinishedAnalysisReachesThePanelsInThreeTurns) {
    Fixture f;
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&f.view));
    // A 1 ms tick, like the GUI bench's stall meter: it must get to run between the turns.
    int ticks = 0;
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    QObject::connect(&tick, &QTimer::timeout, [&] { ++ticks; });
    tick.start(1);

    // Each turn's changes are painted before the next turn runs.
    uitest::PaintCounter headlinePaints(
        f.view.verdictPanel()->findChild<QLabel*>(QStringLiteral("verdictHeadline")));
    uitest::PaintCounter bufferListPaints(f.view.bufferPanel()->view()->viewport());

    // What the panels show when the cell's turn selects its buffer, and when `shown` is called.
    int ticksAtCellTurn = -1, elementBufferAtCellTurn = -2, ticksAtShown = -1, shownCalls = 0;
    int headlinePaintsAtCellTurn = -1, bufferListPaintsAtCellTurn = -1,
        bufferListPaintsAtShown = -1;
    QObject::connect(f.view.bufferPanel(), &BufferPanel::bufferSelected, &f.view, [&](int buffer) {
        if (buffer < 0 || ticksAtCellTurn >= 0) return;
        ticksAtCellTurn = ticks;
        elementBufferAtCellTurn = f.view.elementPanel()->bufferIndex();
        headlinePaintsAtCellTurn = headlinePaints.count;
        bufferListPaintsAtCellTurn = bufferListPaints.count;
    });
    headlinePaints.count = 0;
    f.view.setSnapshot(uitest::finishedSnapshot(f.analysis), TriageView::Pace::inTurns, [&] {
        ++shownCalls;
        ticksAtShown = ticks;
        bufferListPaintsAtShown = bufferListPaints.count;
    });

    // First turn, inside the call: the matrix and the verdict, nothing selected yet.
    EXPECT_EQ(f.view.matrixModel()->rowCount(), 3);
    EXPECT_FALSE(f.headline().isEmpty());
    EXPECT_FALSE(f.view.matrixView()->currentIndex().isValid());
    EXPECT_EQ(f.view.elementPanel()->bufferIndex(), -1);
    EXPECT_EQ(shownCalls, 0);

    // The timeout only guards against a hang.
    ASSERT_TRUE(QTest::qWaitFor([&] { return shownCalls > 0; }, 10000));
    // The cell's turn came after a tick and before the details were shown; the details'
    // turn after another tick.
    EXPECT_GT(ticksAtCellTurn, 0);
    EXPECT_EQ(elementBufferAtCellTurn, -1);
    EXPECT_GT(ticksAtShown, ticksAtCellTurn);
    EXPECT_GT(headlinePaintsAtCellTurn, 0) << "the verdict painted before the cell's turn";
    EXPECT_GT(bufferListPaintsAtShown, bufferListPaintsAtCellTurn)
        << "the buffer list painted before the details' turn";
    // Where Pace::now would have landed: the root cause's cell and buffer, with its details.
    EXPECT_EQ(f.view.matrixView()->currentIndex(), f.view.matrixModel()->indexOf(1, "H"));
    const int selected = f.view.bufferPanel()->selectedBuffer();
    ASSERT_GE(selected, 0);
    EXPECT_EQ(f.view.elementPanel()->bufferIndex(), selected);
    EXPECT_FALSE(f.view.histogramPanel()->isEmptyState());

    QTest::qWait(20);
    EXPECT_EQ(shownCalls, 1);
}

TEST(TriageTurns, PendingTurnsCompleteBeforeALaterSnapshotOrAClear) {
    Fixture f;
    int shownCalls = 0;
    const auto shown = [&] { ++shownCalls; };

    f.view.setSnapshot(uitest::finishedSnapshot(f.analysis), TriageView::Pace::inTurns, shown);
    EXPECT_EQ(shownCalls, 0);
    // A watched run's next analysis: its planned snapshot completes the turns first.
    f.view.setSnapshot(uitest::plannedSnapshot(f.analysis));
    EXPECT_EQ(shownCalls, 1);

    f.view.setSnapshot(uitest::finishedSnapshot(f.analysis), TriageView::Pace::inTurns, shown);
    EXPECT_EQ(shownCalls, 1);
    f.view.clear();
    EXPECT_EQ(shownCalls, 2);
    EXPECT_EQ(f.view.elementPanel()->bufferIndex(), -1) << "cleared after the turns completed";

    QTest::qWait(20);
    EXPECT_EQ(shownCalls, 2) << "no turn is left to run after a clear";
    EXPECT_EQ(f.view.matrixModel()->rowCount(), 0);
}

// A cell the user picks between the turns is kept, as it would be in one turn.
TEST(TriageTurns, ACellPickedBetweenTheTurnsIsKept) {
    Fixture f;
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&f.view));
    bool shown = false;
    f.view.setSnapshot(uitest::finishedSnapshot(f.analysis), TriageView::Pace::inTurns,
                       [&] { shown = true; });
    MatrixView* matrix = f.view.matrixView();
    const QModelIndex picked = f.view.matrixModel()->indexOf(2, "H");
    ASSERT_TRUE(picked.isValid());
    const QRect cell = matrix->visualRect(picked);
    QTest::mouseClick(matrix->viewport(), Qt::LeftButton, {}, cell.center());
    ASSERT_TRUE(QTest::qWaitFor([&] { return shown; }, 10000));
    EXPECT_EQ(matrix->currentIndex(), picked);
    const int selected = f.view.bufferPanel()->selectedBuffer();
    ASSERT_GE(selected, 0);
    EXPECT_EQ(f.view.elementPanel()->bufferIndex(), selected);
}

// The whole window on real dumps: open a pair (the demo, or one written here), wait for the
// worker, and check what every panel of the frame shows against dumpscope::analyze run directly.
#include "models/buffer_list_model.h"
#include "models/matrix_model.h"
#include "panels/buffer_panel.h"
#include "panels/verdict_panel.h"
#include "state/settings.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "widgets/matrix_view.h"
#include "window/main_window.h"
#include "window/start_page.h"
#include "window/triage_view.h"
#include "workers/analysis_worker.h"

#include "dumpscope/analyze.h"

#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>

#include <gtest/gtest.h>

#include <chrono>
#include <utility>

using namespace dumpscope;
using dumpscope::test::TempDir;

namespace {

struct Window {
    TempDir settingsDir;
    MainWindow window{{nullptr, QString::fromStdString((settingsDir / "settings.ini").string())}};
    Window() { window.show(); }
    TriageView& triage() { return *window.triageView(); }
    MatrixModel& matrix() { return *triage().matrixModel(); }
};

QString selectedBufferName(TriageView& triage) {
    const int index = triage.bufferPanel()->selectedBuffer();
    if (index < 0) return {};
    return QString::fromStdString(triage.snapshot()->analysis->buffers[index].name);
}

QTreeWidgetItem* leafOfCase(QTreeWidget* tree, std::string_view name) {
    for (QTreeWidgetItemIterator it(tree); *it; ++it)
        if ((*it)->data(0, VerdictPanel::CaseRole).toString().toStdString() == name) return *it;
    return nullptr;
}

} // namespace

TEST(MainWindow, DemoShowsTheCoresMatrixBuffersAndVerdict) {
    Window w;
    ASSERT_TRUE(w.window.openDemo());
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    const auto pair = w.window.currentPair();
    ASSERT_TRUE(pair);
    const Analysis direct = analyze(pair->runA.toStdString(), pair->runB.toStdString());

    // Matrix: the same cells as the core's, first divergent step 1 marked, H outlined there.
    MatrixModel& m = w.matrix();
    ASSERT_EQ(m.rowCount(), static_cast<int>(direct.matrix.size()));
    ASSERT_EQ(m.rowCount(), 4);
    for (int r = 0; r < m.rowCount(); ++r)
        for (int c = 0; c < m.columnCount(); ++c) {
            const GroupCell& cell = direct.matrix[r].cells[c];
            EXPECT_EQ(m.index(r, c).data(MatrixModel::StatusRole).toInt(),
                      static_cast<int>(cell.status));
            EXPECT_EQ(m.index(r, c).data().toString(),
                      QStringLiteral("%1/%2").arg(cell.nDivergent).arg(cell.buffers.size()));
        }
    ASSERT_EQ(direct.verdict.firstDivergentStep, std::optional<std::uint64_t>(1));
    EXPECT_EQ(m.firstDivergentRow(), 1);
    const QModelIndex h1 = m.indexOf(1, "H");
    EXPECT_TRUE(h1.data(MatrixModel::RootCauseRole).toBool());
    EXPECT_FALSE(m.indexOf(1, "J").data(MatrixModel::RootCauseRole).toBool());
    EXPECT_EQ(m.indexOf(1, "G").data(MatrixModel::StatusRole).toInt(),
              static_cast<int>(Status::equal));

    // The window opens on the root cause: its cell and buffer are selected.
    EXPECT_EQ(w.triage().matrixView()->currentIndex(), h1);
    EXPECT_EQ(selectedBufferName(w.triage()), QStringLiteral("q_logits"));
    BufferListModel* list = w.triage().bufferPanel()->model();
    const GroupCell& cell = direct.matrix[1].cells[h1.column()];
    ASSERT_EQ(list->rowCount(), static_cast<int>(cell.buffers.size()));
    for (int r = 0; r < list->rowCount(); ++r) {
        const BufferResult& b = direct.buffers[cell.buffers[r]];
        EXPECT_EQ(list->index(r, BufferListModel::NameColumn).data().toString().toStdString(),
                  b.name);
        EXPECT_EQ(list->index(r, BufferListModel::DifferingColumn).data().toString(),
                  QString::number(b.stats.nDiff));
        EXPECT_EQ(list->index(r, BufferListModel::MaxUlpColumn).data().toString(),
                  QString::number(b.stats.maxUlp));
    }

    // Verdict: the reference's text, and the path through the tree to the core's case only.
    VerdictPanel* verdict = w.triage().verdictPanel();
    EXPECT_EQ(verdict->interpretation().toStdString(), direct.verdict.text);
    EXPECT_EQ(direct.verdict.decisionCase, DecisionCase::h_without_g);
    QTreeWidget* tree = verdict->decisionTree();
    for (DecisionCase c : {DecisionCase::all_equal, DecisionCase::g_only, DecisionCase::h_without_g,
                           DecisionCase::i, DecisionCase::j, DecisionCase::unexpected}) {
        QTreeWidgetItem* leaf = leafOfCase(tree, decisionCaseName(c));
        ASSERT_NE(leaf, nullptr) << decisionCaseName(c);
        EXPECT_EQ(leaf->data(0, VerdictPanel::OnPathRole).toBool(),
                  c == direct.verdict.decisionCase)
            << decisionCaseName(c);
    }
    EXPECT_TRUE(tree->topLevelItem(0)->data(0, VerdictPanel::OnPathRole).toBool());
    EXPECT_TRUE(tree->topLevelItem(0)->font(0).bold());
    auto* culprits = verdict->findChild<QTableView*>(QStringLiteral("culpritTable"));
    ASSERT_NE(culprits, nullptr);
    ASSERT_EQ(culprits->model()->rowCount(), static_cast<int>(direct.verdict.culprits.size()));
    EXPECT_TRUE(culprits->model()->index(1, 1).data().toString().startsWith(
        QStringLiteral("DIVERGE in q_logits")));
    EXPECT_EQ(culprits->model()->index(0, 1).data().toString(), QStringLiteral("EQUAL"));
}

TEST(MainWindow, RootCauseLinkSelectsItsCellAndBuffer) {
    Window w;
    ASSERT_TRUE(w.window.openDemo());
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    MatrixView* view = w.triage().matrixView();
    view->setCurrentIndex(w.matrix().indexOf(3, "K"));
    ASSERT_EQ(w.triage().bufferPanel()->model()->rowCount(), 3);

    auto* label = w.triage().verdictPanel()->findChild<QLabel*>(QStringLiteral("rootCause"));
    ASSERT_NE(label, nullptr);
    ASSERT_TRUE(label->text().contains(QStringLiteral("q_logits")));
    // Sorted by name descending, the cell's first row is not q_logits: the buffer link must
    // pick its buffer by name, not land on whatever row comes first.
    w.triage().bufferPanel()->view()->sortByColumn(BufferListModel::NameColumn,
                                                   Qt::DescendingOrder);
    // Links are numbered in reading order: the group, then its buffers.
    emit label->linkActivated(QStringLiteral("rc:1"));
    EXPECT_EQ(view->currentIndex(), w.matrix().indexOf(1, "H"));
    EXPECT_EQ(selectedBufferName(w.triage()), QStringLiteral("q_logits"));

    view->setCurrentIndex(w.matrix().indexOf(3, "K"));
    emit label->linkActivated(QStringLiteral("rc:0"));
    EXPECT_EQ(view->currentIndex(), w.matrix().indexOf(1, "H"));
    EXPECT_EQ(selectedBufferName(w.triage()), QStringLiteral("v_pred")) << "first row as sorted";
}

// Without a root cause the panel says why there is none: all equal, only unclassified files
// diverging (exit 1: not identical, but no schema group to blame), or nothing compared.
TEST(VerdictPanelRootCause, SaysWhyThereIsNone) {
    TempDir dir;
    for (const char* run : {"a", "b"})
        test::writeDump(dir / run, 0, "h_q_logits", std::vector<float>{1, 2, 3, 4});
    test::writeDump(dir / "a", 0, "zz_notes", std::vector<std::uint8_t>{1, 2, 3});
    test::writeDump(dir / "b", 0, "zz_notes", std::vector<std::uint8_t>{1, 2, 3});
    VerdictPanel panel;
    auto* label = panel.findChild<QLabel*>(QStringLiteral("rootCause"));
    ASSERT_NE(label, nullptr);
    panel.setSnapshot(uitest::finishedSnapshot(analyze(dir / "a", dir / "b")));
    EXPECT_EQ(label->text(), QStringLiteral("none: no divergence"));

    test::writeDump(dir / "b", 0, "zz_notes", std::vector<std::uint8_t>{1, 9, 3});
    const Analysis other = analyze(dir / "a", dir / "b");
    ASSERT_EQ(other.verdict.exitCode, 1);
    ASSERT_FALSE(other.verdict.firstDivergentStep);
    panel.setSnapshot(uitest::finishedSnapshot(other));
    EXPECT_EQ(label->text(), QStringLiteral("none: only unclassified files diverge"));

    std::filesystem::create_directories(dir / "empty");
    panel.setSnapshot(uitest::finishedSnapshot(analyze(dir / "a", dir / "empty")));
    EXPECT_EQ(label->text(), QStringLiteral("none: nothing was compared"));
}

TEST(MainWindow, KeyboardMovesThroughTheMatrix) {
    Window w;
    ASSERT_TRUE(w.window.openDemo());
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    MatrixView* view = w.triage().matrixView();
    view->setFocus();
    const QModelIndex start = w.matrix().indexOf(1, "H");
    view->setCurrentIndex(start);
    QTest::keyClick(view, Qt::Key_Down);
    EXPECT_EQ(view->currentIndex(), w.matrix().indexOf(2, "H"));
    QTest::keyClick(view, Qt::Key_Right);
    EXPECT_EQ(view->currentIndex(), w.matrix().indexOf(2, "I"));
    // The buffer list follows the current cell.
    const auto& cell =
        w.triage().snapshot()->analysis->matrix[2].cells[view->currentIndex().column()];
    EXPECT_EQ(w.triage().bufferPanel()->model()->rowCount(), static_cast<int>(cell.buffers.size()));
    // Enter drills down into the buffer list.
    w.window.activateWindow();
    view->setFocus();
    QTest::keyClick(view, Qt::Key_Return);
    EXPECT_TRUE(w.triage().bufferPanel()->view()->hasFocus());
}

TEST(MainWindow, CancelMidAnalysisThenReopenLeavesNoStaleCells) {
    TempDir big, small;
    uitest::writeLargePair(big.path(), 40, 4096);
    uitest::writeMixedPair(small.path());
    Window w;
    // Every share shown, however fast: the test cancels once the first cells arrived.
    w.window.analysisWorker()->setShareSpacing(std::chrono::milliseconds(0));
    QSignalSpy cancelled(&w.window, &MainWindow::analysisCancelled);
    QSignalSpy finished(&w.window, &MainWindow::analysisFinished);

    w.window.openPair({QString::fromStdString((big / "a").string()),
                       QString::fromStdString((big / "b").string())});
    ASSERT_TRUE(w.window.isAnalysing());
    // Cancelled as the first cells fill in, while that share is being shown: the worker may have
    // compared the whole pair meanwhile (it is small), and its finish, posted already, is to be
    // dropped. Cancelling after a wait for the share instead let that finish land first.
    bool cancelledNow = false;
    const auto onShare = QObject::connect(w.triage().matrixModel(),
                                          &QAbstractItemModel::dataChanged, &w.window, [&] {
                                              if (std::exchange(cancelledNow, true)) return;
                                              w.window.cancelAnalysis();
                                          });
    ASSERT_TRUE(QTest::qWaitFor([&] { return cancelledNow; }, 60000));
    QObject::disconnect(onShare);
    EXPECT_EQ(cancelled.count(), 1);
    EXPECT_FALSE(w.window.isAnalysing());
    EXPECT_FALSE(w.triage().snapshot()->finished);

    // Reopen another pair at once: the cancelled thread may still be unwinding.
    w.window.openPair({QString::fromStdString((small / "a").string()),
                       QString::fromStdString((small / "b").string())});
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    const Analysis direct = analyze(small / "a", small / "b");
    ASSERT_EQ(w.matrix().rowCount(), 3);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < w.matrix().columnCount(); ++c)
            EXPECT_EQ(w.matrix().index(r, c).data(MatrixModel::StatusRole).toInt(),
                      static_cast<int>(direct.matrix[r].cells[c].status));
    EXPECT_EQ(finished.count(), 1) << "the cancelled analysis must never report finished";

    // Nothing the cancelled job still posts may land: cancel and reopen the big one, then
    // finish the small one again and check the matrix is the small pair's.
    w.window.openPair({QString::fromStdString((big / "a").string()),
                       QString::fromStdString((big / "b").string())});
    w.window.openPair({QString::fromStdString((small / "a").string()),
                       QString::fromStdString((small / "b").string())});
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    EXPECT_EQ(w.matrix().rowCount(), 3);
    EXPECT_EQ(w.triage().snapshot()->analysis->runA.filename(), "a");
    EXPECT_EQ(w.triage().snapshot()->total, direct.buffers.size());
}

TEST(MainWindow, StartPageDemoButtonOpensTheDemo) {
    Window w;
    EXPECT_FALSE(w.window.currentPair());
    auto* demo = w.window.startPage()->findChild<QPushButton*>(QStringLiteral("demoButton"));
    ASSERT_NE(demo, nullptr);
    QTest::mouseClick(demo, Qt::LeftButton);
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    EXPECT_TRUE(w.window.currentPair());
    EXPECT_EQ(w.matrix().rowCount(), 4);
    w.window.closePair();
    EXPECT_FALSE(w.window.currentPair());
    EXPECT_EQ(w.matrix().rowCount(), 0);
}

TEST(MainWindow, StartPageComparesTypedFoldersAndReopensRecentPairs) {
    TempDir runs;
    uitest::writeMixedPair(runs.path());
    Window w;
    auto* page = w.window.startPage();
    auto* runA = page->findChild<QLineEdit*>(QStringLiteral("runA"));
    auto* runB = page->findChild<QLineEdit*>(QStringLiteral("runB"));
    auto* compare = page->findChild<QPushButton*>(QStringLiteral("compareButton"));
    ASSERT_TRUE(runA && runB && compare);
    EXPECT_FALSE(compare->isEnabled()) << "nothing to compare yet";
    runA->setText(QString::fromStdString((runs / "a").string()));
    runB->setText(QString::fromStdString((runs / "b").string()));
    ASSERT_TRUE(compare->isEnabled());
    QTest::mouseClick(compare, Qt::LeftButton);
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    EXPECT_EQ(w.matrix().rowCount(), 3);

    // Closing goes back to the start page, whose recent list reopens the pair.
    w.window.closePair();
    auto* recent = page->findChild<QListWidget*>(QStringLiteral("recentPairs"));
    ASSERT_NE(recent, nullptr);
    ASSERT_EQ(recent->count(), 1);
    emit recent->itemActivated(recent->item(0));
    ASSERT_TRUE(w.window.currentPair());
    EXPECT_EQ(w.window.currentPair()->runB, runB->text());
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    EXPECT_EQ(w.matrix().rowCount(), 3);
}

// Watching a live pair and reloading it: the window's matrix grows as step files land, only new
// or changed files are read (the pair's ResultCache counts every file it opens), the selection
// stays where the user put it, and pausing stops the growth until the watch resumes.
#include "run_fixture.h"

#include "models/matrix_model.h"
#include "panels/buffer_panel.h"
#include "ui_test_util.h"
#include "widgets/matrix_view.h"
#include "window/main_window.h"
#include "window/triage_view.h"
#include "workers/analysis_worker.h"
#include "workers/run_watcher.h"

#include "dumpscope/result_cache.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>

#include <gtest/gtest.h>

#include <functional>

using namespace dumpscope;
using dumpscope::test::TempDir;

namespace {

constexpr std::uint64_t kBuffersPerStep = 31; // the default schema's, as writeRunPair writes them

struct Window {
    TempDir settingsDir;
    MainWindow window{{nullptr, QString::fromStdString((settingsDir / "settings.ini").string())}};
    Window() {
        window.show();
        window.runWatcher()->setDebounceMs(100);
    }
    MatrixModel& matrix() { return *window.triageView()->matrixModel(); }
    ResultCache::Stats cacheStats(const TempDir& dir) {
        return window.analysisWorker()
            ->cacheFor(QString::fromStdString((dir / "a").string()),
                       QString::fromStdString((dir / "b").string()))
            ->stats();
    }
    // Returns once the analysis has finished and the watcher's first listing, the baseline new
    // files are told from, is in: whichever comes first (the baseline is the plan's listing, taken
    // on by the watcher while the pair is compared).
    bool open(const TempDir& dir) {
        QSignalSpy listed(window.runWatcher(), &RunWatcher::listed);
        QSignalSpy finished(&window, &MainWindow::analysisFinished);
        window.openPair({QString::fromStdString((dir / "a").string()),
                         QString::fromStdString((dir / "b").string())});
        return (finished.count() > 0 || finished.wait(120000)) &&
               (listed.count() > 0 || listed.wait(60000));
    }
};

// Runs the event loop until `done` holds; the limit only guards against a hang.
bool waitUntil(const std::function<bool()>& done) {
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > 60000) return false;
        QTest::qWait(20);
    }
    return true;
}

bool finishedWithRows(Window& w, int rows) {
    const SnapshotPtr s = w.window.snapshot();
    return s && s->finished && !w.window.isAnalysing() && w.matrix().rowCount() == rows;
}

int columnOf(MatrixModel& matrix, const std::string& group) {
    return matrix.indexOf(0, group).column();
}

QString selectedBufferName(TriageView& triage) {
    const int index = triage.bufferPanel()->selectedBuffer();
    return index < 0 ? QString()
                     : QString::fromStdString(triage.snapshot()->analysis->buffers[index].name);
}

} // namespace

TEST(RunWatcher, NewStepsGrowTheMatrixReadingOnlyTheNewFiles) {
    TempDir dir;
    test::writeRunPair(dir, {0, 1});
    Window w;
    ASSERT_TRUE(w.open(dir));
    ASSERT_EQ(w.matrix().rowCount(), 2);
    const auto first = w.cacheStats(dir);
    EXPECT_EQ(first.filesRead, 2 * 2 * kBuffersPerStep);
    auto* button = w.window.findChild<QToolButton*>(QStringLiteral("watchButton"));
    ASSERT_TRUE(button);
    EXPECT_TRUE(button->isVisible());
    EXPECT_EQ(button->text(), QStringLiteral("● Watching"));

    // The user clicks step 1's H cell, then a buffer in it.
    MatrixView* view = w.window.triageView()->matrixView();
    const QModelIndex cell = w.matrix().index(1, columnOf(w.matrix(), "H"));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(cell).center());
    ASSERT_TRUE(view->userNavigated());
    ASSERT_TRUE(w.window.triageView()->bufferPanel()->selectBuffer(QStringLiteral("pi_logits")));

    // Step 2 lands in both runs while the pair is open. It is written with the watch paused so
    // the watcher never acts on half a step, whatever the machine's load: no timing in the test.
    w.window.watchAction()->setChecked(false);
    test::writeRunPair(dir, {2});
    w.window.watchAction()->setChecked(true);
    ASSERT_TRUE(waitUntil([&] { return finishedWithRows(w, 3); }));
    const auto grown = w.cacheStats(dir);
    EXPECT_EQ(grown.filesRead - first.filesRead, 2 * kBuffersPerStep); // the new step's files only
    EXPECT_EQ(grown.hits - first.hits, 2 * kBuffersPerStep); // steps 0 and 1 from the cache
    EXPECT_EQ(w.window.snapshot()->analysis->steps, (std::vector<std::uint64_t>{0, 1, 2}));
    // The selection is where the user left it.
    EXPECT_EQ(view->currentIndex().data(MatrixModel::StepRole).toULongLong(), 1u);
    EXPECT_EQ(view->currentIndex().column(), columnOf(w.matrix(), "H"));
    EXPECT_EQ(selectedBufferName(*w.window.triageView()), QStringLiteral("pi_logits"));

    // A file of the newest step rewritten in place (no directory event; its own file is watched)
    // is read again, and only that pair.
    test::perturb(dir, 2, "h_q_logits");
    ASSERT_TRUE(waitUntil([&] {
        const SnapshotPtr s = w.window.snapshot();
        return finishedWithRows(w, 3) && s->analysis->verdict.firstDivergentStep == 2u;
    }));
    const auto changed = w.cacheStats(dir);
    EXPECT_EQ(changed.filesRead - grown.filesRead, 2u);
    EXPECT_EQ(changed.hits - grown.hits, 3 * kBuffersPerStep - 1);
}

TEST(RunWatcher, PauseStopsGrowthUntilResumed) {
    TempDir dir;
    test::writeRunPair(dir, {0});
    Window w;
    ASSERT_TRUE(w.open(dir));
    const quint64 sequence = w.window.analysisWorker()->sequence();

    w.window.watchAction()->setChecked(false);
    EXPECT_TRUE(w.window.runWatcher()->isPaused());
    test::writeRunPair(dir, {1});
    // The watcher saw the new files (that is what it notes while paused) and started nothing.
    ASSERT_TRUE(waitUntil([&] { return w.window.runWatcher()->hasPendingChange(); }));
    QApplication::processEvents();
    EXPECT_EQ(w.matrix().rowCount(), 1);
    EXPECT_FALSE(w.window.isAnalysing());
    EXPECT_EQ(w.window.analysisWorker()->sequence(), sequence);
    auto* button = w.window.findChild<QToolButton*>(QStringLiteral("watchButton"));
    EXPECT_EQ(button->text(), QStringLiteral("Paused: new files waiting"));

    // Resuming acts on what arrived meanwhile.
    button->click();
    EXPECT_TRUE(w.window.watchAction()->isChecked());
    ASSERT_TRUE(waitUntil([&] { return finishedWithRows(w, 2); }));
    EXPECT_FALSE(w.window.runWatcher()->hasPendingChange());
}

TEST(RunWatcher, ReloadAndReopeningReadNothingUnchanged) {
    TempDir dir, other;
    test::writeRunPair(dir, {0, 1});
    test::writeRunPair(other, {0});
    Window w;
    ASSERT_TRUE(w.open(dir));
    const auto first = w.cacheStats(dir);

    w.window.reload(); // F5
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    auto again = w.cacheStats(dir);
    EXPECT_EQ(again.filesRead, first.filesRead);
    EXPECT_EQ(again.hits - first.hits, 2 * kBuffersPerStep);

    ASSERT_TRUE(w.open(other));
    ASSERT_TRUE(w.open(dir));
    again = w.cacheStats(dir);
    EXPECT_EQ(again.filesRead, first.filesRead);
    EXPECT_EQ(again.hits - first.hits, 4 * kBuffersPerStep);
    EXPECT_EQ(w.matrix().rowCount(), 2);
}

TEST(RunWatcher, ClosingThePairStopsWatching) {
    TempDir dir;
    test::writeRunPair(dir, {0});
    Window w;
    ASSERT_TRUE(w.open(dir));
    EXPECT_TRUE(w.window.runWatcher()->isWatching());
    w.window.closePair();
    EXPECT_FALSE(w.window.runWatcher()->isWatching());
    EXPECT_FALSE(w.window.findChild<QToolButton*>(QStringLiteral("watchButton"))->isVisible());
}

// A step of thousands of files: the watcher watches a bounded number of them (inotify's watches
// are shared by every program of the user), and a new step still grows the matrix.
TEST(RunWatcher, AStepOfThousandsOfFilesWatchesABoundedNumber) {
    TempDir dir;
    for (const char* run : {"a", "b"})
        for (int i = 0; i < 700; ++i)
            dumpscope::test::writeDump(dir / run, 0, "x" + std::to_string(i),
                                       std::vector<float>{1});
    RunWatcher watcher;
    watcher.setDebounceMs(50);
    QSignalSpy changed(&watcher, &RunWatcher::runsChanged);
    QSignalSpy listed(&watcher, &RunWatcher::listed);
    watcher.watch(QString::fromStdString((dir / "a").string()),
                  QString::fromStdString((dir / "b").string()));
    ASSERT_TRUE(listed.wait(60000));
    EXPECT_EQ(watcher.watchedFileCount(), RunWatcher::kMaxWatchedFiles);
    dumpscope::test::writeDump(dir / "a", 1, "x0", std::vector<float>{1});
    dumpscope::test::writeDump(dir / "b", 1, "x0", std::vector<float>{1});
    ASSERT_TRUE(waitUntil([&] { return changed.count() > 0; }));
    EXPECT_EQ(watcher.watchedFileCount(), 2) << "the newest step's files: step 1 in both runs";
}

TEST(RunWatcher, ANewStepInsideRankFoldersIsSeenAsItLands) {
    TempDir dir;
    test::writeRankedPair(dir.path(), 2, 1, [](int, int) { return false; });
    Window w;
    ASSERT_TRUE(w.open(dir));
    ASSERT_EQ(w.matrix().rowCount(), 1);
    // Step 2 lands in rank0/ and rank1/ of both runs, the runs' own folders untouched: only a
    // watch on the rank folders sees it.
    for (const char* run : {"a", "b"})
        for (int rank = 0; rank < 2; ++rank)
            test::writeDump(
                dir / run / ("rank" + std::to_string(rank)), 2, "h_q_logits",
                std::vector<float>{1, std::string(run) == "b" && rank == 1 ? 3.f : 2.f});
    ASSERT_TRUE(waitUntil([&] { return finishedWithRows(w, 2); }));
    EXPECT_EQ(w.window.snapshot()->analysis->verdict.firstDivergentRank, 1u);
}

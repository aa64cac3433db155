// RunWatcher on its own, emitting by the core's rule for "a step is complete"
// (dumpscope/step_completion.h): a later step in both runs completes a step at once, a changed
// step once it has kept still for the interval, and a step in one run only is emitted once the
// whole listing has kept still.
#include "test_support.h"
#include "workers/run_watcher.h"

#include "dumpscope/analyze.h"
#include "dumpscope/step_completion.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>

using dumpscope::test::TempDir;

namespace {

bool waitUntil(const std::function<bool()>& done) {
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > 60000) return false;
        QTest::qWait(10);
    }
    return true;
}

// Starts watching the pair in `dir` and returns once the first listing, the baseline, is in.
bool watchAndList(RunWatcher& watcher, const TempDir& dir) {
    QSignalSpy listed(&watcher, &RunWatcher::listed);
    watcher.watch(QString::fromStdString((dir / "a").string()),
                  QString::fromStdString((dir / "b").string()));
    return listed.wait(60000);
}

void writeStep(const TempDir& dir, const char* run, std::uint64_t step, int files) {
    for (int i = 0; i < files; ++i)
        dumpscope::test::writeDump(dir / run, step, "x" + std::to_string(i), std::vector<float>{1});
}

} // namespace

TEST(RunWatcherRule, ALaterStepInBothRunsCompletesAStepAtOnce) {
    TempDir dir;
    std::filesystem::create_directories(dir / "a");
    std::filesystem::create_directories(dir / "b");
    RunWatcher watcher;
    watcher.setDebounceMs(1000);
    QSignalSpy changed(&watcher, &RunWatcher::runsChanged);
    ASSERT_TRUE(watchAndList(watcher, dir));

    // Step 0 lands; the first listing after the quiet interval watches its files (one per run)
    // and finds it too new to be complete.
    writeStep(dir, "a", 0, 1);
    writeStep(dir, "b", 0, 1);
    ASSERT_TRUE(waitUntil([&] { return watcher.watchedFileCount() == 2; }));
    EXPECT_EQ(changed.count(), 0);

    // Step 1 lands before step 0 could have kept still for the interval: the next listing
    // (the one that watches step 1's two files per run) finds step 0 complete and emits, while
    // step 1 itself is not complete yet.
    writeStep(dir, "a", 1, 2);
    writeStep(dir, "b", 1, 2);
    ASSERT_TRUE(waitUntil([&] { return watcher.watchedFileCount() == 4; }));
    EXPECT_EQ(changed.count(), 1);

    // That emission covered step 1's files as they were: step 1 completing as they are is no
    // change. A file of step 1 that grows is, once step 1 has kept still again.
    dumpscope::test::writeDump(dir / "a", 1, "x0", std::vector<float>{1, 2});
    ASSERT_TRUE(waitUntil([&] { return changed.count() == 2; }));
    QTest::qWait(2500);
    EXPECT_EQ(changed.count(), 2) << "nothing changed since: nothing more to emit";
}

TEST(RunWatcherRule, AStepInOneRunOnlyIsEmittedOnceTheListingKeptStill) {
    TempDir dir;
    writeStep(dir, "a", 0, 1);
    writeStep(dir, "b", 0, 1);
    RunWatcher watcher;
    watcher.setDebounceMs(100);
    QSignalSpy changed(&watcher, &RunWatcher::runsChanged);
    ASSERT_TRUE(watchAndList(watcher, dir));
    writeStep(dir, "a", 1, 1);
    ASSERT_TRUE(waitUntil([&] { return changed.count() == 1; }));
    QTest::qWait(400);
    EXPECT_EQ(changed.count(), 1);
}

TEST(RunWatcherRule, TheDebounceIsTheSettleInterval) {
    RunWatcher watcher;
    EXPECT_EQ(watcher.debounceMs(), 600);
    watcher.setDebounceMs(250);
    EXPECT_EQ(watcher.debounceMs(), 250);
}

// The listing runs on a thread of its own: watch() returns before it is applied, and the window's
// thread keeps handling events while a large run is listed.
TEST(RunWatcherRule, TheListingIsAppliedAfterWatchReturns) {
    TempDir dir;
    writeStep(dir, "a", 0, 3);
    writeStep(dir, "b", 0, 3);
    RunWatcher watcher;
    QSignalSpy listed(&watcher, &RunWatcher::listed);
    watcher.watch(QString::fromStdString((dir / "a").string()),
                  QString::fromStdString((dir / "b").string()));
    EXPECT_TRUE(watcher.isListing());
    EXPECT_EQ(listed.count(), 0);
    EXPECT_EQ(watcher.watchedFileCount(), 0) << "nothing listed yet when watch() returns";
    ASSERT_TRUE(listed.wait(60000));
    EXPECT_FALSE(watcher.isListing());
    EXPECT_EQ(watcher.watchedFileCount(), 6) << "step 0's files in both runs";

    // A listing of a pair no longer watched is dropped, not applied to the next one.
    TempDir other;
    writeStep(other, "a", 4, 1);
    writeStep(other, "b", 4, 1);
    watcher.watch(QString::fromStdString((dir / "a").string()),
                  QString::fromStdString((dir / "b").string()));
    watcher.watch(QString::fromStdString((other / "a").string()),
                  QString::fromStdString((other / "b").string()));
    ASSERT_TRUE(listed.wait(60000));
    QTest::qWait(200);
    EXPECT_EQ(listed.count(), 2) << "the first pair's second listing was dropped";
    EXPECT_EQ(watcher.watchedFileCount(), 2);
}

// The window's watch takes the plan's listing as its baseline: a step that lands after the plan
// listed the runs is new to the watch, even when it landed before the watch would have listed the
// runs itself (its own listing would have taken that step as already there, never to compare it).
TEST(RunWatcherRule, AStepLandingAfterThePlansListingIsNewToAWatchOnThatListing) {
    TempDir dir;
    writeStep(dir, "a", 0, 2);
    writeStep(dir, "b", 0, 2);
    const QString a = QString::fromStdString((dir / "a").string());
    const QString b = QString::fromStdString((dir / "b").string());
    RunWatcher watcher;
    watcher.setDebounceMs(100);
    QSignalSpy listed(&watcher, &RunWatcher::listed);
    QSignalSpy changed(&watcher, &RunWatcher::runsChanged);
    watcher.watchPlanned(a, b);
    EXPECT_TRUE(watcher.isListing()) << "waiting for the plan's listing";
    dumpscope::AnalyzeOptions options;
    options.keepListing = true;
    const dumpscope::Analysis planned = dumpscope::plan(dir / "a", dir / "b", options);
    ASSERT_TRUE(planned.listing);
    writeStep(dir, "a", 1, 3);
    writeStep(dir, "b", 1, 3);
    QTest::qWait(150); // the directory events, then a quiet interval, while the plan is awaited
    EXPECT_EQ(listed.count(), 0) << "no listing of its own while the plan's is awaited";
    watcher.takeBaseline(planned.listing, planned.listedAt);
    ASSERT_TRUE(listed.wait(60000));
    EXPECT_EQ(watcher.watchedFileCount(), 4) << "step 0's files, the newest in the plan's listing";
    ASSERT_TRUE(waitUntil([&] { return changed.count() > 0; })) << "step 1 is new to the watch";
    EXPECT_EQ(watcher.watchedFileCount(), 6) << "step 1's files by now";

    // Without a plan (it failed or was cancelled), the watcher lists the runs itself, once.
    watcher.watchPlanned(a, b);
    const int before = static_cast<int>(listed.count());
    watcher.listBaseline();
    ASSERT_TRUE(listed.wait(60000));
    watcher.listBaseline();
    watcher.takeBaseline(planned.listing, planned.listedAt); // too late: ignored
    QTest::qWait(200);
    EXPECT_EQ(listed.count(), before + 1);
}

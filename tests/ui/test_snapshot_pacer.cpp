// How often the analysis worker publishes a progress snapshot. A snapshot costs in the run's
// size, so their number must not grow with the run's buffers: counted here, at 1,000 and at
// 100,000 buffers, on the pacer's own clock, and on a real analysis of many small files.
#include "test_support.h"
#include "workers/analysis_worker.h"
#include "workers/snapshot_pacer.h"

#include <QSignalSpy>

#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

using namespace std::chrono_literals;
using Clock = SnapshotPacer::Clock;

namespace {

// Snapshots taken while `total` buffers are compared at `perBuffer` each, every snapshot costing
// `cost`, each taken as soon as the pacer says it is due.
std::size_t snapshotsOver(std::size_t total, Clock::duration perBuffer, Clock::duration cost) {
    Clock::time_point now{};
    SnapshotPacer pacer(total, now);
    std::size_t taken = 0;
    for (std::size_t i = 0; i < total; ++i) {
        now += perBuffer;
        pacer.compared();
        if (!pacer.due(now)) continue;
        pacer.taken(now, now + cost);
        now += cost;
        ++taken;
    }
    return taken;
}

} // namespace

TEST(SnapshotPacer, SnapshotsDoNotGrowWithTheRunsBuffers) {
    // A second of comparing, in 1,000 buffers or in 100,000: the same few snapshots, a share
    // of the run each.
    const std::size_t small = snapshotsOver(1000, 1ms, 0ns);
    const std::size_t large = snapshotsOver(100000, 10us, 0ns);
    EXPECT_LE(small, SnapshotPacer::kSharesPerRun);
    EXPECT_EQ(large, small);
    EXPECT_GE(large, 1u);
    // Every snapshot costing a twentieth of the whole comparison: twenty of them would double
    // the analysis; past its shares, the pacer keeps them to a tenth of its time.
    const auto perBuffer = 20us;
    const std::size_t buffers = 100000; // two seconds of comparing
    const auto cost = perBuffer * buffers / 20;
    const std::size_t paced = snapshotsOver(buffers, perBuffer, cost);
    EXPECT_LE(static_cast<double>(paced) * std::chrono::duration<double>(cost).count(),
              0.1 * std::chrono::duration<double>(perBuffer * buffers).count() +
                  SnapshotPacer::kSharesPerRun * std::chrono::duration<double>(cost).count());
}

TEST(SnapshotPacer, FewBigBuffersShowEachAsItFinishes) {
    // Eight buffers or fewer: each is a share of the run, so each is shown as soon as compared,
    // once it took longer than the spacing between shares.
    EXPECT_EQ(snapshotsOver(5, SnapshotPacer::kShareSpacing, 0ns), 5u);
    // A run compared within that spacing shows no frame of progress, only its final snapshot:
    // no one sees frames that close, and each one costs the GUI thread the comparison needs.
    EXPECT_EQ(snapshotsOver(100000, 0ns, 0ns), 0u);
    // A slow run still shows progress every interval between its shares.
    Clock::time_point now{};
    SnapshotPacer pacer(1000000, now);
    pacer.compared();
    EXPECT_FALSE(pacer.due(now + SnapshotPacer::kMinInterval - 1ms));
    EXPECT_TRUE(pacer.due(now + SnapshotPacer::kMinInterval));
    // Nothing compared since the last one: nothing to show.
    pacer.taken(now, now + 1s);
    EXPECT_FALSE(pacer.due(now + 1h));
    // After a snapshot that cost a second, the next waits ten.
    pacer.compared();
    EXPECT_FALSE(pacer.due(now + 1s + 9s));
    EXPECT_TRUE(pacer.due(now + 1s + SnapshotPacer::kCostFactor * 1s));
}

// The worker on a real pair of 3,000 one-step files: its progress snapshots are a handful, not
// one per buffer the GUI thread could take (it takes every one at once here).
TEST(SnapshotPacer, WorkerPublishesAFewSnapshotsOfAManyFilePair) {
    dumpscope::test::TempDir dir;
    std::filesystem::create_directories(dir / "a");
    std::filesystem::create_directories(dir / "b");
    const int n = 3000;
    for (int i = 0; i < n; ++i) {
        const std::string file = "step_0_x" + std::to_string(i) + ".bin";
        dumpscope::test::writeArray(dir / "a" / file, std::vector<float>{1, 2, 3, 4});
        dumpscope::test::writeArray(dir / "b" / file,
                                    std::vector<float>{1, 2, 3, i % 10 == 9 ? 4.5f : 4.0f});
    }
    AnalysisRequest request;
    request.runA = QString::fromStdString((dir / "a").string());
    request.runB = QString::fromStdString((dir / "b").string());
    AnalysisWorker worker;
    QSignalSpy progressed(&worker, &AnalysisWorker::progressed);
    QSignalSpy finished(&worker, &AnalysisWorker::finished);
    const auto start = Clock::now();
    worker.start(request);
    ASSERT_TRUE(finished.wait(120000));
    const auto elapsed = Clock::now() - start;
    // The shares, plus one per interval the analysis lasted (a slow machine's), at most.
    const auto intervals = static_cast<int>(elapsed / SnapshotPacer::kMinInterval);
    EXPECT_LE(progressed.count(), static_cast<int>(SnapshotPacer::kSharesPerRun) + intervals + 1);
    EXPECT_LT(progressed.count(), n / 20);
    const auto final = finished.at(0).at(1).value<SnapshotPtr>();
    EXPECT_EQ(final->analysis->buffers.size(), static_cast<std::size_t>(n));
}

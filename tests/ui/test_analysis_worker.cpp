// The analysis worker on its own: snapshots fill in as buffers finish, and nothing of a
// superseded or cancelled analysis reaches a receiver.
#include "test_hooks.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "workers/analysis_worker.h"

#include <QSignalSpy>

#include <gtest/gtest.h>

#include <chrono>

#include <algorithm>

using dumpscope::test::TempDir;

namespace {

QString q(const std::filesystem::path& p) {
    return QString::fromStdString(p.string());
}

// The pair DIR/a, DIR/b with the default schema and settings.
AnalysisRequest pairIn(const TempDir& dir) {
    AnalysisRequest request;
    request.runA = q(dir / "a");
    request.runB = q(dir / "b");
    return request;
}

std::size_t comparedBuffers(const SnapshotPtr& s) {
    const auto& buffers = s->analysis->buffers;
    return static_cast<std::size_t>(
        std::count_if(buffers.begin(), buffers.end(), [](const auto& b) { return !b.pending; }));
}

} // namespace

TEST(AnalysisWorker, SnapshotsFillInAsBuffersFinish) {
    TempDir dir;
    dumpscope::uitest::writeLargePair(dir.path(), 6, 2048);
    const std::uint64_t plansBefore = dumpscope::detail::plansMade();
    AnalysisWorker worker;
    worker.setShareSpacing(std::chrono::milliseconds(0)); // every share shown, however fast
    QSignalSpy planned(&worker, &AnalysisWorker::planned);
    QSignalSpy progressed(&worker, &AnalysisWorker::progressed);
    QSignalSpy finished(&worker, &AnalysisWorker::finished);
    const quint64 seq = worker.start(pairIn(dir));
    ASSERT_TRUE(finished.wait(120000));
    // The pair is scanned and planned once: the skeleton shown and the comparison share it.
    EXPECT_EQ(dumpscope::detail::plansMade() - plansBefore, 1u);

    ASSERT_EQ(planned.count(), 1);
    const auto skeleton = planned.at(0).at(1).value<SnapshotPtr>();
    EXPECT_EQ(planned.at(0).at(0).toULongLong(), seq);
    EXPECT_EQ(skeleton->total, 6u * 31u);
    EXPECT_EQ(comparedBuffers(skeleton), 0u);
    EXPECT_EQ(skeleton->planSerial, skeleton->serial);

    // Each progress snapshot holds exactly the buffers compared so far, never fewer later.
    std::size_t last = 0;
    for (const auto& args : progressed) {
        EXPECT_EQ(args.at(0).toULongLong(), seq);
        const auto s = args.at(1).value<SnapshotPtr>();
        EXPECT_FALSE(s->finished);
        EXPECT_EQ(comparedBuffers(s), s->nDone);
        EXPECT_GE(s->nDone, last);
        EXPECT_EQ(s->planSerial, skeleton->serial);
        last = s->nDone;
    }
    const auto final = finished.at(0).at(1).value<SnapshotPtr>();
    EXPECT_TRUE(final->finished);
    EXPECT_EQ(final->planSerial, skeleton->serial);
    EXPECT_EQ(comparedBuffers(final), final->total);
    EXPECT_EQ(final->analysis->verdict.firstDivergentStep, std::optional<std::uint64_t>(1));
    EXPECT_FALSE(worker.isRunning());
    // The skeleton published first still shows nothing compared: the comparison wrote its own
    // copy of the plan.
    EXPECT_EQ(comparedBuffers(skeleton), 0u);
}

TEST(AnalysisWorker, SupersededAndCancelledAnalysesAreDropped) {
    TempDir big, small;
    dumpscope::uitest::writeLargePair(big.path(), 30, 4096);
    dumpscope::uitest::writeMixedPair(small.path());
    AnalysisWorker worker;
    worker.setShareSpacing(std::chrono::milliseconds(0)); // every share shown, however fast
    QList<quint64> seen;
    for (auto signal :
         {&AnalysisWorker::planned, &AnalysisWorker::progressed, &AnalysisWorker::finished})
        QObject::connect(&worker, signal, [&seen](quint64 s, SnapshotPtr) { seen << s; });
    QSignalSpy cancelled(&worker, &AnalysisWorker::cancelled);
    QSignalSpy finished(&worker, &AnalysisWorker::finished);

    // Superseded before the event loop ever ran: the first analysis must stay invisible.
    const quint64 first = worker.start(pairIn(big));
    const quint64 second = worker.start(pairIn(small));
    ASSERT_TRUE(finished.wait(120000));
    EXPECT_FALSE(seen.contains(first));
    EXPECT_EQ(finished.at(0).at(0).toULongLong(), second);
    EXPECT_EQ(cancelled.count(), 0) << "superseding is not cancelling";

    // Cancelled once its first cells arrived: a cancelled signal, then nothing more of it.
    QSignalSpy progressed(&worker, &AnalysisWorker::progressed);
    const quint64 third = worker.start(pairIn(big));
    ASSERT_TRUE(progressed.wait(120000));
    worker.cancel();
    ASSERT_EQ(cancelled.count(), 1);
    EXPECT_EQ(cancelled.at(0).at(0).toULongLong(), third);
    EXPECT_FALSE(worker.isRunning());
    const qsizetype seenAtCancel = seen.size();
    const quint64 fourth = worker.start(pairIn(small));
    ASSERT_TRUE(finished.wait(120000));
    EXPECT_EQ(finished.last().at(0).toULongLong(), fourth);
    for (qsizetype i = seenAtCancel; i < seen.size(); ++i)
        EXPECT_EQ(seen[i], fourth);
}

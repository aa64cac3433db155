// Snapshots of a long analysis: each one shares what did not change with the one before, and
// the models signal the cells and rows that changed, not all of them. Work is counted (cells,
// rows, chunks), never timed: a snapshot's work must follow what changed, not the run's length.
#include "models/buffer_list_model.h"
#include "models/matrix_model.h"
#include "models/rank_overview_model.h"
#include "panels/rank_panel.h"
#include "test_support.h"
#include "workers/analysis_worker.h"

#include "dumpscope/analyze.h"
#include "dumpscope/rank_view.h"
#include "dumpscope/schema.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTableView>

#include <gtest/gtest.h>

#include <chrono>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

using dumpscope::test::TempDir;

namespace {

// `steps` steps of `perStep` four-float buffers in one group of their own schema; B differs
// in every 7th file.
AnalysisRequest writeManyPair(const TempDir& dir, int steps, int perStep) {
    std::string buffers;
    for (int k = 0; k < perStep; ++k)
        buffers += std::string(k ? "," : "") + R"({"name": "x)" + std::to_string(k) +
                   R"(", "file": "t_x)" + std::to_string(k) + R"(", "dtype": "f32"})";
    const std::string json =
        R"({"name": "many", "version": 1, "groups": [{"id": "T", "label": "T", "buffers": [)" +
        buffers + "]}]}";
    AnalysisRequest request;
    request.schema =
        std::make_shared<const dumpscope::Schema>(dumpscope::parseSchema(json, "many"));
    std::filesystem::create_directories(dir / "a");
    std::filesystem::create_directories(dir / "b");
    int n = 0;
    for (int s = 0; s < steps; ++s)
        for (int k = 0; k < perStep; ++k, ++n) {
            const std::string file =
                "step_" + std::to_string(s) + "_t_x" + std::to_string(k) + ".bin";
            dumpscope::test::writeArray(dir / "a" / file, std::vector<float>{1, 2, 3, 4});
            dumpscope::test::writeArray(dir / "b" / file,
                                        std::vector<float>{1, 2, 3, n % 7 == 6 ? 4.5f : 4.0f});
        }
    request.runA = QString::fromStdString((dir / "a").string());
    request.runB = QString::fromStdString((dir / "b").string());
    return request;
}

// Buffers compared in `now` that were not in `before`, found the slow way.
std::vector<std::size_t> newlyCompared(const AnalysisSnapshot& before,
                                       const AnalysisSnapshot& now) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < now.analysis->buffers.size(); ++i)
        if (now.isDone(i) && !before.isDone(i)) out.push_back(i);
    return out;
}

// Cells a dataChanged spy signalled since it was last cleared.
int signalledCells(QSignalSpy& spy) {
    int cells = 0;
    for (const auto& args : spy) {
        const auto from = args.at(0).value<QModelIndex>(), to = args.at(1).value<QModelIndex>();
        cells += (to.row() - from.row() + 1) * (to.column() - from.column() + 1);
    }
    spy.clear();
    return cells;
}

// Runs the worker on `request` and hands every snapshot, in order, to `take`.
template <typename Take> void runWorker(const AnalysisRequest& request, Take take) {
    AnalysisWorker worker;
    worker.setShareSpacing(std::chrono::milliseconds(0)); // every share shown, however fast
    QSignalSpy finished(&worker, &AnalysisWorker::finished);
    QObject::connect(&worker, &AnalysisWorker::planned, [&](quint64, SnapshotPtr s) { take(s); });
    QObject::connect(&worker, &AnalysisWorker::progressed,
                     [&](quint64, SnapshotPtr s) { take(s); });
    QObject::connect(&worker, &AnalysisWorker::finished, [&](quint64, SnapshotPtr s) { take(s); });
    worker.start(request);
    ASSERT_TRUE(finished.wait(120000));
}

} // namespace

TEST(SnapshotChanges, MatrixSignalsOnlyTheCellsThatChanged) {
    TempDir dir;
    const int steps = 600;
    const AnalysisRequest request = writeManyPair(dir, steps, 1);
    MatrixModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    SnapshotPtr previous;
    int progressSnapshots = 0;
    runWorker(request, [&](const SnapshotPtr& s) {
        model.setSnapshot(s);
        const int cells = signalledCells(changed);
        if (previous && !s->finished) {
            ++progressSnapshots;
            const auto compared = newlyCompared(*previous, *s);
            ASSERT_TRUE(s->changesSince(previous.get()));
            EXPECT_EQ(s->changes->buffers, compared);
            // One buffer per cell here: a snapshot signals at most the cells of its new buffers,
            // whatever the number of steps (all of them were signalled on every snapshot before).
            EXPECT_LE(cells, static_cast<int>(compared.size()));
            // It shares every chunk of buffers it did not write with the snapshot before.
            std::set<std::size_t> written;
            for (std::size_t i : compared)
                written.insert(i / dumpscope::ChunkedVector<int>::kChunk);
            std::size_t copied = 0;
            for (std::size_t i = 0; i < s->analysis->buffers.size();
                 i += dumpscope::ChunkedVector<int>::kChunk)
                copied += !s->analysis->buffers.sharesChunkWith(previous->analysis->buffers, i);
            EXPECT_LE(copied, written.size());
        }
        // Whatever was signalled, the model reads what a full summary of the snapshot says.
        dumpscope::Analysis truth = *s->analysis;
        dumpscope::summarize(truth);
        ASSERT_EQ(model.rowCount(), static_cast<int>(truth.matrix.size()));
        for (int r = 0; r < model.rowCount(); ++r) {
            const auto& cell = truth.matrix[static_cast<std::size_t>(r)].cells.at(0);
            const QModelIndex at = model.index(r, 0);
            ASSERT_EQ(at.data(MatrixModel::StatusRole).toInt(), static_cast<int>(cell.status)) << r;
            ASSERT_EQ(at.data(MatrixModel::PendingRole).toBool(), cell.nPending > 0) << r;
            ASSERT_EQ(at.data(MatrixModel::DivergentCountRole).toULongLong(), cell.nDivergent) << r;
        }
        previous = s;
    });
    EXPECT_GE(progressSnapshots, 1);
    EXPECT_TRUE(previous && previous->finished);
}

TEST(SnapshotChanges, BufferListSignalsOnlyTheRowsThatChanged) {
    TempDir dir;
    const AnalysisRequest request = writeManyPair(dir, 1, 400);
    BufferListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    SnapshotPtr previous;
    int progressSnapshots = 0;
    runWorker(request, [&](const SnapshotPtr& s) {
        model.setBuffers(s, s->analysis->matrix.at(0).cells.at(0).buffers);
        const int rows = signalledCells(changed) / BufferListModel::ColumnCount;
        if (previous && !s->finished) {
            ++progressSnapshots;
            EXPECT_LE(rows, static_cast<int>(newlyCompared(*previous, *s).size()));
        }
        for (int r = 0; r < model.rowCount(); ++r) {
            const int b = model.bufferIndex(r);
            const int status =
                s->isDone(static_cast<std::size_t>(b))
                    ? static_cast<int>(s->analysis->buffers[static_cast<std::size_t>(b)].status)
                    : -1;
            ASSERT_EQ(model.index(r, 0).data(BufferListModel::StatusRole).toInt(), status) << r;
        }
        previous = s;
    });
    EXPECT_GE(progressSnapshots, 1);
    EXPECT_EQ(model.rowCount(), 400);
}

// The list of unclassified files is made once, by the plan: every progress snapshot shares it
// with the one before instead of copying a string per file (100,000 files made each snapshot
// cost as much as the run).
TEST(SnapshotChanges, ProgressSnapshotsShareTheListOfUnclassifiedFiles) {
    TempDir dir;
    AnalysisRequest request = writeManyPair(dir, 1, 3000);
    request.schema = std::make_shared<const dumpscope::Schema>(dumpscope::parseSchema(
        R"({"name": "other", "version": 1, "groups": [{"id": "U", "label": "U", "buffers": [
              {"name": "u", "file": "u_u", "dtype": "f32"}]}]})",
        "other"));
    SnapshotPtr previous;
    int shared = 0;
    runWorker(request, [&](const SnapshotPtr& s) {
        const auto& files = s->analysis->unclassified;
        ASSERT_EQ(files.size(), 3000u);
        if (previous && !s->finished) {
            for (std::size_t i = 0; i < files.size(); i += dumpscope::ChunkedVector<int>::kChunk)
                EXPECT_TRUE(files.sharesChunkWith(previous->analysis->unclassified, i)) << i;
            ++shared;
        }
        previous = s;
    });
    EXPECT_GE(shared, 1);
}

// A run of many ranks: each snapshot brings the worker's steps × ranks overview, the one its
// results make, and the rank panel shows it as it is, changing the cells alone, instead of
// walking every buffer on the GUI thread at each snapshot.
TEST(SnapshotChanges, TheRankOverviewComesWithEachSnapshotAndTheCellsAloneChange) {
    TempDir dir;
    dumpscope::test::writeRankedPair(dir.path(), 6, 80,
                                     [](int rank, int step) { return step > 40 + rank; });
    AnalysisRequest request;
    request.runA = QString::fromStdString((dir / "a").string());
    request.runB = QString::fromStdString((dir / "b").string());
    RankPanel panel;
    auto* model = qobject_cast<RankOverviewModel*>(panel.overview()->model());
    ASSERT_TRUE(model);
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy resets(model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(model, &QAbstractItemModel::dataChanged);
    int snapshots = 0;
    bool sawPending = false;
    runWorker(request, [&](const SnapshotPtr& s) {
        ++snapshots;
        ASSERT_TRUE(s->rankOverview);
        const dumpscope::RankOverview made = dumpscope::rankOverview(*s->analysis);
        EXPECT_EQ(s->rankOverview->steps, made.steps);
        EXPECT_EQ(s->rankOverview->ranks, made.ranks);
        EXPECT_EQ(s->rankOverview->cells, made.cells);
        for (const auto& cell : made.cells)
            sawPending |= cell.nPending > 0;
        panel.setSnapshot(s.get());
        EXPECT_EQ(&model->overview(), s->rankOverview.get());
    });
    EXPECT_GE(snapshots, 3); // planned, at least one share, final
    EXPECT_TRUE(sawPending);
    EXPECT_EQ(resets.size(), 1); // the planned snapshot's steps and ranks
    EXPECT_EQ(changed.size(), snapshots - 1);
    EXPECT_EQ(model->rowCount(), 80);
    EXPECT_EQ(model->columnCount(), 6);
    EXPECT_EQ(model->index(79, 5).data().toInt(), 1);
    EXPECT_FALSE(model->index(39, 0).data().isValid()); // step 40: equal on rank 0
}

// The noise floor in the window: a pair opened with reruns (the worker analyses them first and
// reads the pair over their floor), File > Open with a Noise Floor…'s dialog, and the several-run
// summary's beyond-the-floor cells, on runs with real reduction-order noise.
#include "dialogs/open_floor_dialog.h"
#include "models/matrix_model.h"
#include "models/multi_summary_model.h"
#include "noise_runs.h"
#include "state/analysis_settings.h"
#include "ui_test_util.h"
#include "window/main_window.h"
#include "window/multi_run_view.h"
#include "window/triage_view.h"
#include "workers/analysis_worker.h"

#include "dumpscope/noise_floor.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include <chrono>

using dumpscope::Status;
using dumpscope::test::NoiseRunSpec;
using dumpscope::test::TempDir;

namespace {

QString q(const std::filesystem::path& p) {
    return QString::fromStdString(p.string());
}

struct Runs {
    TempDir dir;
    Runs() { dumpscope::test::writeNoiseRun(dir / "base", {}); }
    QString base() const { return q(dir / "base"); }
    QString add(const std::string& name, const NoiseRunSpec& spec) {
        dumpscope::test::writeNoiseRun(dir / name, spec);
        return q(dir / name);
    }
};

NoiseRunSpec staleFrom2(std::uint32_t seed, const std::string& buffer) {
    NoiseRunSpec spec{seed};
    spec.staleFrom = 2;
    spec.staleBuffer = buffer;
    return spec;
}

const dumpscope::BufferResult& bufferAt(const dumpscope::Analysis& an, std::uint64_t step,
                                        const std::string& name) {
    for (const auto& b : an.buffers)
        if (b.step == step && b.name == name) return b;
    throw std::runtime_error("no buffer " + name);
}

} // namespace

TEST(NoiseFloorWindow, WorkerReadsThePairOverTheRerunsFloor) {
    Runs r;
    AnalysisRequest request;
    request.runA = r.base();
    request.runB = r.add("cand", staleFrom2(3, "q_logits"));
    request.floorRuns = {r.add("r1", {1}), r.add("r2", {2})};
    AnalysisWorker worker;
    worker.setShareSpacing(std::chrono::milliseconds(0)); // every share shown, however fast
    QSignalSpy finished(&worker, &AnalysisWorker::finished);
    QSignalSpy progressed(&worker, &AnalysisWorker::progressed);
    worker.start(request);
    ASSERT_TRUE(finished.wait(120000));
    const auto snapshot = finished.front().at(1).value<SnapshotPtr>();
    const auto& an = *snapshot->analysis;
    ASSERT_TRUE(an.noiseFloor);
    EXPECT_EQ(an.noiseFloor->reruns.size(), 2u);
    EXPECT_EQ(bufferAt(an, 1, "grad_ln_a_gain_per_row").status, Status::within_floor);
    EXPECT_EQ(an.verdict.firstDivergentStep, 2u);
    EXPECT_EQ(an.verdict.rootCause.buffers, std::vector<std::string>{"q_logits"});
    // No snapshot along the way shows the known noise as a divergence.
    for (const auto& args : progressed) {
        const auto& s = *args.at(1).value<SnapshotPtr>()->analysis;
        for (const auto& b : s.buffers)
            if (!b.pending && b.name == "grad_ln_a_gain_per_row") {
                EXPECT_NE(b.status, Status::diverge) << b.step;
            }
    }
}

TEST(NoiseFloorWindow, AMissingRerunFailsNamingIt) {
    Runs r;
    AnalysisRequest request;
    request.runA = r.base();
    request.runB = r.add("cand", {4});
    request.floorRuns = {q(r.dir / "no_such_rerun")};
    AnalysisWorker worker;
    worker.setShareSpacing(std::chrono::milliseconds(0)); // every share shown, however fast
    QSignalSpy failed(&worker, &AnalysisWorker::failed);
    worker.start(request);
    ASSERT_TRUE(failed.wait(120000));
    const QString message = failed.front().at(1).toString();
    EXPECT_TRUE(message.contains(QStringLiteral("noise floor rerun"))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("no_such_rerun"))) << message.toStdString();
}

TEST(NoiseFloorWindow, WindowShowsTheNoiseLikeToleratedCellsAndReloadKeepsTheFloor) {
    Runs r;
    const QString cand = r.add("cand", staleFrom2(5, "q_logits"));
    const QString rerun = r.add("r1", {6});
    TempDir settingsDir;
    MainWindow window{{nullptr, q(settingsDir / "settings.ini")}};
    window.openPairWithFloor({r.base(), cand}, {rerun});
    ASSERT_TRUE(dumpscope::uitest::waitForFinished(window));
    EXPECT_EQ(window.floorRuns(), QStringList{rerun});
    EXPECT_TRUE(window.windowTitle().contains(QStringLiteral("noise floor")))
        << window.windowTitle().toStdString();
    const QString status = toleranceSummary(*window.snapshot()->analysis);
    EXPECT_TRUE(status.contains(QStringLiteral("over the noise floor of 1 rerun(s): 3 buffer(s)")))
        << status.toStdString();
    MatrixModel* matrix = window.triageView()->matrixModel();
    QAbstractItemModelTester tester(matrix, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const QModelIndex noise = matrix->indexOf(1, "I");
    ASSERT_TRUE(noise.isValid());
    EXPECT_EQ(noise.data(MatrixModel::StatusRole).toInt(), static_cast<int>(Status::within_floor));
    EXPECT_EQ(noise.data(Qt::DisplayRole).toString().left(1), QStringLiteral("≈"));
    EXPECT_EQ(noise.data(MatrixModel::DivergentCountRole).toULongLong(), 0u);
    const QModelIndex bug = matrix->indexOf(2, "H");
    EXPECT_TRUE(bug.data(MatrixModel::RootCauseRole).toBool());

    window.reload();
    ASSERT_TRUE(dumpscope::uitest::waitForFinished(window));
    EXPECT_EQ(window.floorRuns(), QStringList{rerun});
    EXPECT_EQ(window.snapshot()->analysis->verdict.firstDivergentStep, 2u);
    // Any other pair is read bitwise again.
    window.openPair({r.base(), cand});
    ASSERT_TRUE(dumpscope::uitest::waitForFinished(window));
    EXPECT_TRUE(window.floorRuns().isEmpty());
    EXPECT_EQ(window.snapshot()->analysis->verdict.firstDivergentStep, 1u);
}

TEST(NoiseFloorWindow, DialogNeedsABaseACandidateAndARerun) {
    OpenFloorDialog dialog(QString{});
    EXPECT_FALSE(dialog.canOpen());
    dialog.setBase(QStringLiteral("/runs/base"));
    dialog.setCandidate(QStringLiteral("/runs/changed"));
    EXPECT_FALSE(dialog.canOpen());
    dialog.addRerun(QStringLiteral("/runs/rerun1"));
    dialog.addRerun(QStringLiteral("/runs/rerun2"));
    EXPECT_TRUE(dialog.canOpen());
    EXPECT_EQ(dialog.base(), QStringLiteral("/runs/base"));
    EXPECT_EQ(dialog.candidate(), QStringLiteral("/runs/changed"));
    EXPECT_EQ(dialog.reruns(),
              (QStringList{QStringLiteral("/runs/rerun1"), QStringLiteral("/runs/rerun2")}));
    dialog.setCandidate(QString{});
    EXPECT_FALSE(dialog.canOpen());
}

TEST(NoiseFloorWindow, SummaryShowsEachCandidatesBeyondFloorCells) {
    Runs r;
    const QString rerun = r.add("rerun", {7});
    const QString stale = r.add("stale", staleFrom2(8, "grad_ln_a_gain_per_row"));
    const QString noisy = r.add("noisy", {9});
    MultiRunView view;
    QAbstractItemModelTester tester(view.summaryModel(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy finished(&view, &MultiRunView::finished);
    view.open(r.base(), {rerun, stale, noisy});
    ASSERT_TRUE(view.isFinished() || finished.wait(120000));
    MultiSummaryModel* model = view.summaryModel();
    ASSERT_EQ(model->columnCount(), MultiSummaryModel::ColumnCount);
    const auto cell = [&](int candidate, int column) {
        return model->index(model->rowOf(candidate), column);
    };
    EXPECT_EQ(cell(1, MultiSummaryModel::FloorColumn).data().toString(),
              QStringLiteral("beyond_floor"));
    const QString beyond = cell(1, MultiSummaryModel::BeyondFloorColumn).data().toString();
    EXPECT_TRUE(beyond.contains(QStringLiteral("2 I/grad_ln_a_gain_per_row")))
        << beyond.toStdString();
    EXPECT_TRUE(beyond.contains(QStringLiteral("× the floor"))) << beyond.toStdString();
    const QStringList cells = cell(1, 0).data(MultiSummaryModel::BeyondFloorRole).toStringList();
    ASSERT_FALSE(cells.isEmpty());
    EXPECT_EQ(cells.front(), QStringLiteral("2 I/grad_ln_a_gain_per_row"));
    EXPECT_TRUE(cell(1, MultiSummaryModel::BeyondFloorColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("kind numeric (the floor's: rounding)")));
    // Noise only: within the floor, nothing beyond it.
    EXPECT_EQ(cell(2, MultiSummaryModel::FloorColumn).data().toString(),
              QStringLiteral("within_floor"));
    EXPECT_EQ(cell(2, MultiSummaryModel::BeyondFloorColumn).data().toString(), QStringLiteral("—"));
    EXPECT_TRUE(cell(2, 0).data(MultiSummaryModel::BeyondFloorRole).toStringList().isEmpty());
}

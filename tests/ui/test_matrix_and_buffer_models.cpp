// The matrix and buffer-list models on a real analysis of dumps written to a temp dir: every
// model and proxy under QAbstractItemModelTester, and each cell and row checked against the
// core's own numbers.
#include "models/buffer_list_model.h"
#include "models/matrix_model.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "widgets/matrix_colors.h"

#include "dumpscope/analyze.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QSortFilterProxyModel>

#include <gtest/gtest.h>

using namespace dumpscope;
using dumpscope::test::TempDir;

namespace {

struct MixedPair {
    TempDir dir;
    Analysis analysis;
    MixedPair() {
        uitest::writeMixedPair(dir.path());
        analysis = analyze(dir / "a", dir / "b");
    }
};

int columnOf(const Analysis& an, const std::string& group) {
    const auto& cells = an.matrix.front().cells;
    for (std::size_t c = 0; c < cells.size(); ++c)
        if (cells[c].group == group) return static_cast<int>(c);
    return -1;
}

QColor background(const QModelIndex& index) {
    return index.data(Qt::BackgroundRole).value<QBrush>().color();
}

} // namespace

TEST(MatrixModel, CellsMatchTheCoreMatrix) {
    MixedPair pair;
    MatrixModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSnapshot(uitest::finishedSnapshot(pair.analysis));

    const Analysis& an = pair.analysis;
    ASSERT_EQ(model.rowCount(), 3);
    // G..K and "other" for the unclassified step_0_zz_notes.bin.
    ASSERT_EQ(model.columnCount(), 6);
    EXPECT_EQ(model.headerData(5, Qt::Horizontal).toString(), QStringLiteral("other"));
    for (int r = 0; r < model.rowCount(); ++r) {
        for (int c = 0; c < model.columnCount(); ++c) {
            const GroupCell& cell = an.matrix[r].cells[c];
            const QModelIndex i = model.index(r, c);
            const QString text =
                cell.buffers.empty()
                    ? QStringLiteral("–")
                    : QStringLiteral("%1/%2").arg(cell.nDivergent).arg(cell.buffers.size());
            EXPECT_EQ(i.data().toString(), text) << r << "," << c;
            EXPECT_EQ(i.data(MatrixModel::StatusRole).toInt(), static_cast<int>(cell.status));
            EXPECT_FALSE(i.data(MatrixModel::PendingRole).toBool());
            EXPECT_EQ(i.data(MatrixModel::StepRole).toULongLong(), an.matrix[r].step);
        }
    }

    const int g = columnOf(an, "G"), h = columnOf(an, "H"), i = columnOf(an, "I"),
              k = columnOf(an, "K");
    // Equal green, diverge red, one-sided hatched, error orange, missing grey.
    EXPECT_EQ(background(model.index(0, g)), matrix_colors::equal());
    EXPECT_EQ(model.index(1, h).data().toString(), QStringLiteral("1/1"));
    const QColor small = background(model.index(1, h)), large = background(model.index(2, h));
    EXPECT_GT(small.red(), small.green());
    EXPECT_GT(large.red(), large.green());
    EXPECT_LT(large.lightness(), small.lightness()) << "a larger |Δ| must be a darker red";
    EXPECT_EQ(model.index(1, i).data(Qt::BackgroundRole).value<QBrush>().style(), Qt::BDiagPattern);
    EXPECT_EQ(model.index(1, i).data(MatrixModel::StatusRole).toInt(),
              static_cast<int>(Status::only_in_a));
    EXPECT_EQ(background(model.index(2, k)), matrix_colors::error());
    EXPECT_EQ(background(model.index(0, i)), matrix_colors::missing());
    EXPECT_TRUE(model.index(1, h).data(Qt::ToolTipRole).toString().contains("largest |Δ|"));

    // Step 1 is the first divergent step; H there is the root cause, nothing else is.
    EXPECT_EQ(model.firstDivergentRow(), 1);
    EXPECT_TRUE(model.headerData(1, Qt::Vertical).toString().startsWith(QStringLiteral("▶")));
    EXPECT_FALSE(model.headerData(2, Qt::Vertical).toString().startsWith(QStringLiteral("▶")));
    for (int r = 0; r < model.rowCount(); ++r)
        for (int c = 0; c < model.columnCount(); ++c)
            EXPECT_EQ(model.index(r, c).data(MatrixModel::RootCauseRole).toBool(), r == 1 && c == h)
                << r << "," << c;
    EXPECT_EQ(model.indexOf(2, "K"), model.index(2, k));
    EXPECT_EQ(model.indexOf(2, "no such group"), QModelIndex());
    EXPECT_EQ(model.indexOf(99, "K"), QModelIndex());
    for (int c = 0; c < model.columnCount(); ++c) {
        EXPECT_EQ(model.groupId(c), an.matrix[0].cells[std::size_t(c)].group);
        EXPECT_EQ(model.headerData(c, Qt::Horizontal, MatrixModel::GroupRole).toString(),
                  QString::fromStdString(an.matrix[0].cells[std::size_t(c)].group));
    }
    EXPECT_EQ(model.groupId(model.columnCount()), "");
    model.clear();
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(MatrixModel, ToleratedDifferencesReadApartFromDivergences) {
    MixedPair pair;
    AnalyzeOptions options;
    options.tolerance.atol = 1e-3; // covers step 1's few-ULP change, not step 2's |Δ| of 10
    const Analysis tolerant = analyze(pair.dir / "a", pair.dir / "b", options);
    MatrixModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSnapshot(uitest::finishedSnapshot(tolerant));
    const int h = columnOf(tolerant, "H");
    const QModelIndex step1 = model.index(1, h), step2 = model.index(2, h);
    ASSERT_EQ(step1.data(MatrixModel::StatusRole).toInt(),
              static_cast<int>(Status::within_tolerance));
    EXPECT_EQ(step1.data().toString(), QStringLiteral("≈1/1"));
    EXPECT_EQ(background(step1), matrix_colors::withinTolerance());
    EXPECT_EQ(step2.data(MatrixModel::StatusRole).toInt(), static_cast<int>(Status::diverge));
    EXPECT_EQ(step2.data().toString(), QStringLiteral("1/1"));
}

TEST(MatrixModel, PlannedCellsArePendingUntilCompared) {
    MixedPair pair;
    MatrixModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSnapshot(uitest::plannedSnapshot(plan(pair.dir / "a", pair.dir / "b")));
    const int h = columnOf(pair.analysis, "H");
    const QModelIndex cell = model.index(1, h);
    EXPECT_TRUE(cell.data(MatrixModel::PendingRole).toBool());
    EXPECT_EQ(background(cell), matrix_colors::pending());
    EXPECT_TRUE(cell.data().toString().endsWith(QStringLiteral("…")));
    EXPECT_EQ(model.firstDivergentRow(), -1) << "no verdict before the analysis finished";
    EXPECT_FALSE(cell.data(MatrixModel::RootCauseRole).toBool());

    // Same shape: the final snapshot updates the cells in place, keeping the model's indexes.
    const QPersistentModelIndex kept(cell);
    model.setSnapshot(uitest::finishedSnapshot(pair.analysis));
    ASSERT_TRUE(kept.isValid());
    EXPECT_FALSE(kept.data(MatrixModel::PendingRole).toBool());
    EXPECT_TRUE(kept.data(MatrixModel::RootCauseRole).toBool());
}

TEST(BufferListModel, RowsCarryTheCoreStatistics) {
    MixedPair pair;
    const Analysis& an = pair.analysis;
    BufferListModel model;
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(BufferListModel::SortRole);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester proxyTester(&proxy,
                                         QAbstractItemModelTester::FailureReportingMode::Fatal);

    // Every buffer of step 2, whatever its group: divergent, equal and error rows together.
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < an.buffers.size(); ++i)
        if (an.buffers[i].step == 2) rows.push_back(i);
    ASSERT_EQ(rows.size(), 4u);
    model.setBuffers(uitest::finishedSnapshot(an), rows);
    ASSERT_EQ(model.rowCount(), 4);
    ASSERT_EQ(proxy.rowCount(), 4);

    for (int r = 0; r < model.rowCount(); ++r) {
        const BufferResult& b = an.buffers[rows[r]];
        auto cell = [&](int column) { return model.index(r, column).data().toString(); };
        EXPECT_EQ(cell(BufferListModel::NameColumn).toStdString(), b.name);
        EXPECT_EQ(cell(BufferListModel::TypeColumn).toStdString(), dtypeName(b.dtype));
        EXPECT_EQ(model.index(r, 0).data(BufferListModel::BufferIndexRole).toInt(),
                  static_cast<int>(rows[r]));
        if (b.name == "q_logits") {
            EXPECT_EQ(b.status, Status::diverge);
            EXPECT_EQ(cell(BufferListModel::ElementsColumn), QStringLiteral("4"));
            EXPECT_EQ(cell(BufferListModel::DifferingColumn), QStringLiteral("1"));
            EXPECT_EQ(cell(BufferListModel::DifferingPercentColumn), QStringLiteral("25 %"));
            EXPECT_EQ(cell(BufferListModel::MaxAbsDeltaColumn), QStringLiteral("10"));
            EXPECT_EQ(cell(BufferListModel::MaxAbsDeltaColumn),
                      QString::number(b.stats.maxAbsDelta, 'g', 4));
            EXPECT_EQ(cell(BufferListModel::MaxRelDeltaColumn),
                      QString::number(b.stats.maxRelDelta, 'g', 4));
            EXPECT_EQ(cell(BufferListModel::MaxUlpColumn), QString::number(b.stats.maxUlp));
            EXPECT_EQ(cell(BufferListModel::StatusColumn), QStringLiteral("diverge"));
            EXPECT_EQ(cell(BufferListModel::KindColumn).toStdString(), kindName(b.kind));
        } else if (b.name == "outcome_w") {
            ASSERT_EQ(b.status, Status::error);
            // The error's message is shown, not just the word.
            EXPECT_TRUE(cell(BufferListModel::StatusColumn).contains("not a multiple"));
            EXPECT_EQ(model.index(r, 0).data(Qt::ToolTipRole).toString().toStdString(), b.error);
        } else {
            EXPECT_EQ(cell(BufferListModel::StatusColumn), QStringLiteral("equal"));
            EXPECT_EQ(cell(BufferListModel::DifferingColumn), QStringLiteral("0"));
            EXPECT_TRUE(cell(BufferListModel::KindColumn).isEmpty());
        }
    }

    // Sorting by max |Δ| descending puts the divergent buffer first: numbers sort as numbers.
    proxy.sort(BufferListModel::MaxAbsDeltaColumn, Qt::DescendingOrder);
    EXPECT_EQ(proxy.index(0, BufferListModel::NameColumn).data().toString(),
              QStringLiteral("q_logits"));
    proxy.sort(BufferListModel::NameColumn, Qt::AscendingOrder);
    EXPECT_EQ(proxy.index(0, BufferListModel::NameColumn).data().toString(),
              QStringLiteral("outcome_labels"));
    EXPECT_EQ(model.rowOf(QStringLiteral("outcome_w")) >= 0, true);
    model.clear();
    EXPECT_EQ(proxy.rowCount(), 0);
}

TEST(BufferListModel, PendingRowsShowNoStatistics) {
    MixedPair pair;
    BufferListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const Analysis planned = plan(pair.dir / "a", pair.dir / "b");
    std::vector<std::size_t> all(planned.buffers.size());
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = i;
    model.setBuffers(uitest::plannedSnapshot(planned), all);
    for (int r = 0; r < model.rowCount(); ++r) {
        EXPECT_EQ(model.index(r, BufferListModel::StatusColumn).data().toString(),
                  QStringLiteral("pending…"));
        EXPECT_TRUE(model.index(r, BufferListModel::MaxAbsDeltaColumn).data().toString().isEmpty());
    }
}

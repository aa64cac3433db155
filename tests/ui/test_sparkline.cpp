// The buffer list's Growth column: its data is the core's growthSeries() for the row's buffer,
// it sorts by the total differing count, and SparklineDelegate draws taller bars for more
// differences, none for an equal step.
#include "models/buffer_list_model.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "widgets/growth_sparkline.h"
#include "widgets/matrix_colors.h"
#include "widgets/sparkline_delegate.h"

#include "dumpscope/analyze.h"
#include "dumpscope/growth.h"
#include "dumpscope/schema.h"

#include <QAbstractItemModelTester>
#include <QImage>
#include <QPainter>
#include <QSortFilterProxyModel>
#include <QStyleOptionViewItem>

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

using namespace dumpscope;
using dumpscope::test::TempDir;
using dumpscope::test::writeDump;

namespace {

// Group X: `x` (8 f32) equal at step 0, 1 element one ULP apart at step 1, 3 elements 1.0
// apart at step 2; `y` (4 f32) equal at the other steps and not dumped at `yMissingAt`.
Analysis growingPair(const TempDir& dir, std::uint64_t yMissingAt = 1) {
    for (std::uint64_t step = 0; step < 3; ++step) {
        std::vector<float> a(8, 2.0f), b = a;
        if (step == 1) b[0] = std::nextafter(2.0f, 3.0f);
        if (step == 2) b[0] = b[1] = b[2] = 3.0f;
        writeDump(dir / "a", step, "x_x", a);
        writeDump(dir / "b", step, "x_x", b);
        if (step != yMissingAt) {
            writeDump(dir / "a", step, "x_y", std::vector<float>(4, 1.0f));
            writeDump(dir / "b", step, "x_y", std::vector<float>(4, 1.0f));
        }
    }
    AnalyzeOptions options;
    options.schema = std::make_shared<const Schema>(parseSchema(
        R"({"name": "t", "groups": [{"id": "X", "buffers": [
              {"name": "x", "file": "x_x", "dtype": "f32"}, {"name": "y", "file": "x_y", "dtype": "f32"}]}],
            "dataflow": []})",
        "test"));
    return analyze(dir / "a", dir / "b", options);
}

// The Growth column's sparkline of the row of buffer `name`.
GrowthSparkline growthOfRow(const BufferListModel& model, const QString& name) {
    return model.index(model.rowOf(name), BufferListModel::GrowthColumn)
        .data(BufferListModel::GrowthRole)
        .value<GrowthSparkline>();
}

const GrowthSeries& seriesNamed(const std::vector<GrowthSeries>& all, const std::string& name) {
    for (const auto& s : all)
        if (s.name == name) return s;
    throw std::runtime_error("no series " + name);
}

} // namespace

TEST(Sparkline, GrowthRoleIsTheCoresSeriesWithTheRowsStepMarked) {
    TempDir dir;
    const Analysis analysis = growingPair(dir);
    ASSERT_EQ(analysis.steps, (std::vector<std::uint64_t>{0, 1, 2}));
    const auto expected = growthSeries(analysis);
    auto snapshot = uitest::finishedSnapshot(analysis);

    BufferListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    for (std::uint64_t step : {1u, 2u}) {
        const auto& cell = analysis.matrix.at(step).cells.at(0);
        model.setBuffers(snapshot, cell.buffers);
        ASSERT_EQ(model.rowCount(), step == 1 ? 1 : 2);
        for (int r = 0; r < model.rowCount(); ++r) {
            const QVariant v =
                model.index(r, BufferListModel::GrowthColumn).data(BufferListModel::GrowthRole);
            ASSERT_TRUE(v.canConvert<GrowthSparkline>());
            const GrowthSparkline line = v.value<GrowthSparkline>();
            const std::string name =
                model.index(r, BufferListModel::NameColumn).data().toString().toStdString();
            const GrowthSeries& want = seriesNamed(expected, name);
            ASSERT_EQ(line.points().size(), want.points.size()) << name;
            for (std::size_t i = 0; i < want.points.size(); ++i) {
                EXPECT_EQ(line.points()[i].step, want.points[i].step);
                EXPECT_EQ(line.points()[i].status, want.points[i].status);
                EXPECT_EQ(line.points()[i].nDiff, want.points[i].nDiff);
                EXPECT_EQ(line.points()[i].maxAbsDelta, want.points[i].maxAbsDelta);
            }
            EXPECT_EQ(line.current, int(step)) << name;
        }
    }
    // Hand-computed: x differs at 0, 1, 3 elements; y is missing at step 1.
    const GrowthSparkline x = model.index(model.rowOf(QStringLiteral("x")), 0)
                                  .data(BufferListModel::GrowthRole)
                                  .value<GrowthSparkline>();
    ASSERT_EQ(x.points().size(), 3u);
    EXPECT_EQ(x.points()[0].nDiff, 0u);
    EXPECT_EQ(x.points()[1].nDiff, 1u);
    EXPECT_EQ(x.points()[2].nDiff, 3u);
    EXPECT_EQ(x.points()[2].maxAbsDelta, 1.0);
    const GrowthSparkline y = model.index(model.rowOf(QStringLiteral("y")), 0)
                                  .data(BufferListModel::GrowthRole)
                                  .value<GrowthSparkline>();
    EXPECT_EQ(y.points()[1].status, Status::missing);
    // Each read of a row shares the model's points: a long run's series is not copied per call.
    EXPECT_EQ(growthOfRow(model, QStringLiteral("x")).shared, x.shared);
    EXPECT_NE(y.shared, x.shared);

    const QString tip = model.index(model.rowOf(QStringLiteral("x")), BufferListModel::GrowthColumn)
                            .data(Qt::ToolTipRole)
                            .toString();
    EXPECT_TRUE(tip.contains(QStringLiteral("step 1: 1 differ"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("step 2: 3 differ, max |Δ| 1  ◀ this row")))
        << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("step 0: equal")));

    // Sorting by the column: the total differing count over all steps.
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(BufferListModel::SortRole);
    proxy.sort(BufferListModel::GrowthColumn, Qt::DescendingOrder);
    EXPECT_EQ(proxy.index(0, BufferListModel::NameColumn).data().toString(), QStringLiteral("x"));
    EXPECT_EQ(
        proxy.index(0, BufferListModel::GrowthColumn).data(BufferListModel::SortRole).toULongLong(),
        4u);
    EXPECT_EQ(
        proxy.index(1, BufferListModel::GrowthColumn).data(BufferListModel::SortRole).toULongLong(),
        0u);
}

// While the analysis is in flight the cell's rows stay and their data changes: the sparkline
// follows each snapshot instead of keeping the one from when the cell was chosen.
TEST(Sparkline, FollowsEverySnapshotOfTheCellShown) {
    TempDir dir;
    const Analysis finished = growingPair(dir);
    AnalyzeOptions options;
    options.schema = finished.schema;
    const Analysis planned = plan(dir / "a", dir / "b", options);
    const auto& cell = finished.matrix.at(2).cells.at(0).buffers;
    ASSERT_EQ(planned.matrix.at(2).cells.at(0).buffers, cell);
    BufferListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    auto growthOfX = [&] { return growthOfRow(model, QStringLiteral("x")); };
    model.setBuffers(uitest::plannedSnapshot(planned), cell);
    EXPECT_EQ(growthOfX().points().at(2).nDiff, 0u) << "not compared yet";
    model.setBuffers(uitest::finishedSnapshot(finished), cell); // the same rows, new data
    EXPECT_EQ(growthOfX().points().at(1).nDiff, 1u);
    EXPECT_EQ(growthOfX().points().at(2).nDiff, 3u);
}

// The model's index of where each buffer's results are is the plan's: another pair of as many
// buffers, laid out otherwise, is indexed anew rather than read through the first one's places.
TEST(Sparkline, AnotherPlanOfAsManyBuffersIsIndexedAnew) {
    TempDir first, second;
    const Analysis before = growingPair(first);    // x at steps 0, 1, 2; y at 0 and 2
    const Analysis after = growingPair(second, 0); // x at steps 0, 1, 2; y at 1 and 2
    ASSERT_EQ(after.buffers.size(), before.buffers.size());
    ASSERT_NE(after.buffers[2].name, before.buffers[2].name) << "the pairs' layouts must differ";
    BufferListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    auto growthOfX = [&] { return growthOfRow(model, QStringLiteral("x")); };
    model.setBuffers(uitest::finishedSnapshot(before), before.matrix.at(2).cells.at(0).buffers);
    EXPECT_EQ(growthOfX().points().at(1).nDiff, 1u);
    model.setBuffers(uitest::finishedSnapshot(after), after.matrix.at(2).cells.at(0).buffers);
    const auto expected = seriesNamed(growthSeries(after), "x").points;
    const auto shown = growthOfX().points();
    ASSERT_EQ(shown.size(), expected.size());
    for (std::size_t i = 0; i < shown.size(); ++i)
        EXPECT_EQ(shown[i].nDiff, expected[i].nDiff) << "step " << expected[i].step;
    EXPECT_EQ(shown.at(1).nDiff, 1u);
}

TEST(Sparkline, BarsGrowWithTheDifferingCount) {
    EXPECT_EQ(SparklineDelegate::barHeight(0, 100), 0.0);
    EXPECT_EQ(SparklineDelegate::barHeight(100, 100), 1.0);
    EXPECT_GT(SparklineDelegate::barHeight(1, 1000000), 0.0) << "one element still shows";
    EXPECT_LT(SparklineDelegate::barHeight(10, 1000), SparklineDelegate::barHeight(100, 1000));

    TempDir dir;
    const Analysis analysis = growingPair(dir);
    BufferListModel model;
    model.setBuffers(uitest::finishedSnapshot(analysis), analysis.matrix.at(2).cells.at(0).buffers);
    const QModelIndex x =
        model.index(model.rowOf(QStringLiteral("x")), BufferListModel::GrowthColumn);
    const GrowthSparkline line = x.data(BufferListModel::GrowthRole).value<GrowthSparkline>();

    QImage image(80, 26, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    SparklineDelegate delegate;
    QStyleOptionViewItem option;
    option.rect = image.rect();
    {
        QPainter painter(&image);
        delegate.paint(&painter, option, x);
    }
    // Pixels of each step's bar colour in the middle of its bar (5 px per step from x = 3).
    auto barPixels = [&](int step) {
        const QColor colour = matrix_colors::diverge(line.points()[std::size_t(step)].maxAbsDelta);
        int n = 0;
        for (int y = 0; y < image.height(); ++y)
            if (image.pixel(3 + 5 * step + 1, y) == colour.rgb()) ++n;
        return n;
    };
    EXPECT_EQ(barPixels(0), 0) << "an equal step has no bar";
    EXPECT_GT(barPixels(1), 0);
    EXPECT_GT(barPixels(2), barPixels(1)) << "three differing elements stand taller than one";
}

// The element views on a buffer known by fingerprints alone (run B captured in hash mode by
// dumpscope/capture.h): none opens a file, each says that full tensors are needed and which
// capture call writes them, and none reads the fingerprint log as if it were the elements.
#include "models/buffer_list_model.h"
#include "panels/divergence_map_panel.h"
#include "panels/element_panel.h"
#include "panels/histogram_panel.h"
#include "panels/value_heatmap_panel.h"

#include "dumpscope/analyze.h"
#include "dumpscope/capture.h"
#include "test_support.h"
#include "ui_test_util.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

using namespace dumpscope;

namespace {

struct CapturedPair {
    test::TempDir dir;
    std::shared_ptr<const Analysis> analysis;
    CapturedPair() {
        for (const char* run : {"a", "b"}) {
            Capture cap(dir / run, {run[0] == 'a' ? CaptureMode::full : CaptureMode::hash,
                                    std::nullopt, "test"});
            std::vector<float> x(12, 1.0f);
            if (run[0] == 'b') x[7] = 2.0f;
            cap.add("layer.out", x.data(), {3, 4});
            cap.step(5);
        }
        analysis = std::make_shared<const Analysis>(analyze(dir / "a", dir / "b"));
    }
};

} // namespace

TEST(FingerprintViews, EveryElementViewAsksForFullTensorsWithTheCaptureCall) {
    const CapturedPair pair;
    ASSERT_EQ(pair.analysis->buffers.size(), 1u);
    ASSERT_EQ(pair.analysis->buffers[0].status, Status::diverge);
    ASSERT_EQ(pair.analysis->buffers[0].kind, Kind::fingerprint_only);
    const QString call = QString::fromStdString("Capture(\"" + (pair.dir / "b").string() +
                                                "\", mode=\"full\", steps={5})");

    ElementPanel elements;
    elements.setBuffer(pair.analysis, 0);
    EXPECT_TRUE(elements.statusText().contains(call)) << elements.statusText().toStdString();
    EXPECT_TRUE(elements.statusText().contains("Full tensors are needed"));

    HistogramPanel histogram;
    histogram.setBuffer(pair.analysis, 0);
    EXPECT_TRUE(histogram.emptyText().contains(call)) << histogram.emptyText().toStdString();

    DivergenceMapPanel map;
    QSignalSpy mapReady(&map, &DivergenceMapPanel::mapReady);
    map.setBuffer(pair.analysis, 0);
    EXPECT_EQ(map.map(), nullptr);
    EXPECT_TRUE(map.statusText().contains(call)) << map.statusText().toStdString();

    ValueHeatmapPanel heatmap;
    heatmap.setBuffer(pair.analysis, 0);
    EXPECT_TRUE(heatmap.statusText().contains(call)) << heatmap.statusText().toStdString();
}

TEST(FingerprintViews, TheBufferListShowsNoElementStatisticsItDoesNotHave) {
    const CapturedPair pair;
    BufferListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setBuffers(uitest::finishedSnapshot(*pair.analysis), {0});
    ASSERT_EQ(model.rowCount(), 1);
    const auto text = [&](int column) { return model.index(0, column).data().toString(); };
    // Not "0 differing, max |Δ| 0": the fingerprints say the buffer differs, not where.
    for (int column : {BufferListModel::DifferingColumn, BufferListModel::DifferingPercentColumn,
                       BufferListModel::MaxAbsDeltaColumn, BufferListModel::MaxUlpColumn})
        EXPECT_EQ(text(column), QStringLiteral("–")) << column;
    EXPECT_EQ(text(BufferListModel::KindColumn), QStringLiteral("fingerprint_only"));
}

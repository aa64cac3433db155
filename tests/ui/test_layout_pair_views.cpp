// The element views on pairs the runs do not hold as one file of one type each: a pair across
// precisions, joined shards, and a rank's disagreeing copy of a replicated tensor that the other
// run does not hold. Each view says what the pair is and where its verdict is (never that only
// fingerprints were captured), and the verdict panel lists the precision and cross-rank lines
// under the root buffer.
#include "panels/element_panel.h"
#include "panels/histogram_panel.h"
#include "panels/verdict_panel.h"

#include "dumpscope/analyze.h"
#include "test_support.h"
#include "ui_test_util.h"

#include <QLabel>

#include <gtest/gtest.h>

using namespace dumpscope;

namespace {

// A C-order .npy of `descr` elements (raw little-endian bytes) with shape `shape`.
void writeNpy(const std::filesystem::path& file, const std::string& descr, const std::string& shape,
              const std::string& data) {
    dumpscope::test::writeNpyFile(file, descr, shape, data.data(), data.size());
}

template <typename T> std::string bytesOf(const std::vector<T>& v) {
    return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

QString elementStatus(const std::shared_ptr<const Analysis>& an, int index) {
    ElementPanel elements;
    elements.setBuffer(an, index);
    return elements.statusText();
}

QString histogramEmpty(const std::shared_ptr<const Analysis>& an, int index) {
    HistogramPanel histogram;
    histogram.setBuffer(an, index);
    return histogram.emptyText();
}

QString rootCauseText(const Analysis& an) {
    VerdictPanel panel;
    auto* label = panel.findChild<QLabel*>(QStringLiteral("rootCause"));
    panel.setSnapshot(uitest::finishedSnapshot(an));
    return label ? label->text() : QString();
}

} // namespace

TEST(LayoutPairViews, APairAcrossPrecisionsSaysSoWithItsVerdict) {
    test::TempDir dir;
    // f16 1.0 and 2.0 in run A; f32 1.0 and 2.5 in run B: 2.5 is beyond f16's rounding of 2.0.
    writeNpy(dir / "a" / "step_1_x.npy", "<f2", "2,",
             bytesOf(std::vector<std::uint16_t>{0x3C00, 0x4000}));
    writeNpy(dir / "b" / "step_1_x.npy", "<f4", "2,", bytesOf(std::vector<float>{1.0f, 2.5f}));
    const auto an = std::make_shared<const Analysis>(analyze(dir / "a", dir / "b"));
    ASSERT_EQ(an->buffers.size(), 1u);
    ASSERT_TRUE(an->buffers[0].precision()) << an->buffers[0].error;
    for (const QString& text : {elementStatus(an, 0), histogramEmpty(an, 0)}) {
        EXPECT_TRUE(text.contains("compared across precisions (f16 in run A, f32 in run B)"))
            << text.toStdString();
        EXPECT_TRUE(text.contains("beyond the rounding of f16")) << text.toStdString();
        EXPECT_FALSE(text.contains("fingerprint")) << text.toStdString();
    }
    const QString root = rootCauseText(*an);
    EXPECT_TRUE(root.contains("across precisions (f16 in run A, f32 in run B): 1 of 1 buffer(s) "
                              "beyond the rounding of f16"))
        << root.toStdString();
}

TEST(LayoutPairViews, JoinedShardsSayWhichRanksMakeTheWholeTensor) {
    test::TempDir dir;
    writeNpy(dir / "a" / "rank0" / "step_1_w.npy", "<f4", "2, 1",
             bytesOf(std::vector<float>{0, 2}));
    writeNpy(dir / "a" / "rank1" / "step_1_w.npy", "<f4", "2, 1",
             bytesOf(std::vector<float>{1, 9}));
    writeNpy(dir / "b" / "rank0" / "step_1_w.npy", "<f4", "2, 2",
             bytesOf(std::vector<float>{0, 1, 2, 3}));
    AnalyzeOptions options;
    std::string why;
    options.shards.push_back(*parseShardRule("w:1", why));
    const auto an = std::make_shared<const Analysis>(analyze(dir / "a", dir / "b", options));
    ASSERT_EQ(an->buffers.size(), 1u);
    ASSERT_TRUE(an->buffers[0].shards()) << an->buffers[0].error;
    const QString text = elementStatus(an, 0);
    EXPECT_TRUE(text.contains("joined from shards (ranks 0, 1 in A, rank 0 in B, joined along "
                              "axis 1; the first difference, index 3 of the whole tensor, is on "
                              "rank 1 in A"))
        << text.toStdString();
    EXPECT_FALSE(text.contains("fingerprint")) << text.toStdString();
}

TEST(LayoutPairViews, ADisagreeingRankTheOtherRunLacksIsNamedAndTheVerdictSaysIt) {
    test::TempDir dir;
    writeNpy(dir / "a" / "rank0" / "step_1_ln.npy", "<f4", "3,",
             bytesOf(std::vector<float>{1, 2, 3}));
    writeNpy(dir / "a" / "rank1" / "step_1_ln.npy", "<f4", "3,",
             bytesOf(std::vector<float>{1, 2, 4}));
    writeNpy(dir / "b" / "rank0" / "step_1_ln.npy", "<f4", "3,",
             bytesOf(std::vector<float>{1, 2, 3}));
    AnalyzeOptions options;
    std::string why;
    options.replicated.push_back(*parseReplicatedRule("ln", why));
    const auto an = std::make_shared<const Analysis>(analyze(dir / "a", dir / "b", options));
    ASSERT_EQ(an->buffers.size(), 2u);
    ASSERT_TRUE(an->buffers[1].crossRank());
    EXPECT_EQ(an->buffers[1].kind, Kind::cross_rank);
    const QString text = elementStatus(an, 1);
    EXPECT_TRUE(text.contains("rank 1 of run A differs from rank 0 (1 of 2 ranks agree): 1 of 3 "
                              "elements, first at index 2"))
        << text.toStdString();
    EXPECT_FALSE(text.contains("fingerprint")) << text.toStdString();
    EXPECT_FALSE(elementStatus(an, 0).contains("replicated")) << "rank 0 agrees: an ordinary pair";
    const QString root = rootCauseText(*an);
    EXPECT_TRUE(root.contains("across ranks: 1 replicated buffer(s)")) << root.toStdString();
}

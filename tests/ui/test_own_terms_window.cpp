// The window on a run read without a schema: a 12-layer model's 188 buffers a step, one
// feed-forward output diverging first. It opens on that root buffer, its verdict panel stays a
// few lines however many buffers diverge downstream, and a matrix header opens a group into
// its children.
#include "model_run_fixture.h"
#include "models/matrix_model.h"
#include "panels/buffer_panel.h"
#include "panels/verdict_panel.h"
#include "ui_test_util.h"
#include "widgets/matrix_view.h"
#include "window/main_window.h"
#include "window/triage_view.h"

#include "dumpscope/analyze.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QLabel>
#include <QMenu>
#include <QTreeWidget>

#include <gtest/gtest.h>

#include <memory>

using namespace dumpscope;
using dumpscope::test::TempDir;

namespace {

constexpr const char* kRoot = "layers.5.mlp.c_proj";

struct Window {
    TempDir settingsDir;
    TempDir runs;
    MainWindow window{{nullptr, QString::fromStdString((settingsDir / "settings.ini").string())}};
    Window() {
        test::writeModelPair(runs.path(), 12, 4, 2, kRoot);
        window.show();
        window.openPair({QString::fromStdString((runs / "a").string()),
                         QString::fromStdString((runs / "b").string())});
    }
    TriageView& triage() { return *window.triageView(); }
    QString currentGroup() {
        const auto* cell = triage().matrixModel()->cell(triage().matrixView()->currentIndex());
        return cell ? QString::fromStdString(cell->group) : QString();
    }
    quint64 currentStep() {
        return triage().matrixView()->currentIndex().data(MatrixModel::StepRole).toULongLong();
    }
    QString selectedBuffer() {
        const int index = triage().bufferPanel()->selectedBuffer();
        if (index < 0) return {};
        return QString::fromStdString(triage().snapshot()->analysis->buffers[index].name);
    }
    QLabel* label(const char* name) {
        return triage().verdictPanel()->findChild<QLabel*>(QString::fromLatin1(name));
    }
    int column(const QString& group) {
        auto* model = triage().matrixModel();
        for (int c = 0; c < model->columnCount(); ++c)
            if (model->headerData(c, Qt::Horizontal, MatrixModel::GroupRole).toString() == group)
                return c;
        return -1;
    }
};

} // namespace

TEST(OwnTermsWindow, OpensOnTheRootBufferAtItsStep) {
    Window w;
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    EXPECT_EQ(w.currentStep(), 2u);
    EXPECT_EQ(w.currentGroup(), QStringLiteral("layers.5"));
    EXPECT_EQ(w.selectedBuffer(), QString::fromLatin1(kRoot));
    // No reference group is a column.
    EXPECT_EQ(w.column(QStringLiteral("G")), -1);
    EXPECT_EQ(w.triage().matrixModel()->columnCount(), 15);
}

TEST(OwnTermsWindow, TheVerdictPanelNamesTheRootAndCountsTheRest) {
    Window w;
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    VerdictPanel* panel = w.triage().verdictPanel();
    const QString headline = w.label("verdictHeadline")->text();
    EXPECT_EQ(headline, QStringLiteral("First divergent step 2 · root layers.5.mlp.c_proj "
                                       "(rounding) · 141 more downstream (exit 1)"));
    const QString root = w.label("rootCause")->text();
    // One link, to the root; a few lines whatever the number of downstream buffers.
    EXPECT_EQ(root.count(QStringLiteral("href=\"rc:")), 1) << root.toStdString();
    EXPECT_LE(root.count(QStringLiteral("<br>")), 8) << root.toStdString();
    EXPECT_LT(root.size(), 1200) << root.toStdString();
    EXPECT_TRUE(root.contains(QStringLiteral("141 more diverge downstream"))) << root.toStdString();
    EXPECT_FALSE(root.contains(QStringLiteral("embed.weight.grad")));
    EXPECT_TRUE(w.label("rootCause")->toolTip().contains(QStringLiteral("… and 101 more")));
    EXPECT_EQ(w.label("rootCauseTitle")->text(), QStringLiteral("Root cause in production order"));
    // The reference's tree and culprit table are not this run's.
    EXPECT_TRUE(panel->decisionTree()->isHidden());
    // Hidden or not, the tree's branch names the diverged groups cut as everywhere else: every
    // group of a wide model in one wrapped line made each restyle of the tree lay it out anew.
    const QTreeWidgetItem* diverged = panel->decisionTree()->topLevelItem(0)->child(1);
    ASSERT_NE(diverged, nullptr);
    EXPECT_TRUE(diverged->text(0).startsWith(QStringLiteral("yes → first divergent step 2")))
        << diverged->text(0).toStdString();
    EXPECT_TRUE(diverged->text(0).contains(QStringLiteral(" more")))
        << diverged->text(0).toStdString();
    EXPECT_LT(diverged->text(0).size(), 400) << diverged->text(0).toStdString();

    // The rest on demand.
    emit w.label("rootCause")->linkActivated(QStringLiteral("show-all"));
    EXPECT_TRUE(w.label("rootCause")->text().contains(QStringLiteral("embed.weight.grad")));

    // The link opens the root.
    w.triage().matrixView()->setCurrentIndex(w.triage().matrixModel()->index(0, 0));
    emit w.label("rootCause")->linkActivated(QStringLiteral("rc:0"));
    EXPECT_EQ(w.currentGroup(), QStringLiteral("layers.5"));
    EXPECT_EQ(w.selectedBuffer(), QString::fromLatin1(kRoot));
}

TEST(OwnTermsWindow, AHeaderOpensItsGroupAloneIntoItsChildrenAndClosesItBack) {
    Window w;
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    QAbstractItemModelTester tester(w.triage().matrixModel(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    const int columns = w.triage().matrixModel()->columnCount();
    const int layer5 = w.column(QStringLiteral("layers.5"));
    ASSERT_GE(layer5, 0);
    std::unique_ptr<QMenu> menu(w.triage().groupMenu(layer5));
    auto* open = menu->findChild<QAction*>(QStringLiteral("openGroup"));
    ASSERT_NE(open, nullptr);
    EXPECT_TRUE(open->isEnabled());
    EXPECT_EQ(open->text(), QStringLiteral("Open layers.5 into its children"));
    EXPECT_FALSE(menu->findChild<QAction*>(QStringLiteral("closeGroup"))->isEnabled());
    open->trigger();
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    // Its children are columns of their own; every other block stays one column.
    EXPECT_EQ(w.window.groupDepth(), 0u);
    for (const char* child : {"layers.5.ln_1", "layers.5.attn", "layers.5.ln_2", "layers.5.mlp"})
        EXPECT_GE(w.column(QString::fromLatin1(child)), 0) << child;
    EXPECT_GE(w.column(QStringLiteral("layers.5")), 0); // the block output: its own group
    EXPECT_GE(w.column(QStringLiteral("layers.4")), 0);
    EXPECT_GE(w.column(QStringLiteral("layers.6")), 0);
    EXPECT_EQ(w.column(QStringLiteral("layers.4.mlp")), -1);
    EXPECT_EQ(w.triage().matrixModel()->columnCount(), columns + 4);
    EXPECT_EQ(w.currentGroup(), QStringLiteral("layers.5.mlp"));
    EXPECT_EQ(w.selectedBuffer(), QString::fromLatin1(kRoot));

    // A child's menu closes the group it lies in back into one.
    std::unique_ptr<QMenu> again(w.triage().groupMenu(w.column(QStringLiteral("layers.5.attn"))));
    auto* close = again->findChild<QAction*>(QStringLiteral("closeGroup"));
    ASSERT_TRUE(close->isEnabled());
    EXPECT_EQ(close->text(), QStringLiteral("Close layers.5 back into one group"));
    close->trigger();
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    EXPECT_EQ(w.column(QStringLiteral("layers.5.mlp")), -1);
    EXPECT_EQ(w.column(QStringLiteral("layers.5.attn")), -1);
    EXPECT_EQ(w.column(QStringLiteral("layers.5")), layer5);
    EXPECT_EQ(w.triage().matrixModel()->columnCount(), columns);
    EXPECT_EQ(w.currentGroup(), QStringLiteral("layers.5"));
    EXPECT_EQ(w.selectedBuffer(), QString::fromLatin1(kRoot));
}

TEST(OwnTermsWindow, AHeaderCutsEveryGroupADepthDeeperAndBack) {
    Window w;
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    QAbstractItemModelTester tester(w.triage().matrixModel(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    std::unique_ptr<QMenu> menu(w.triage().groupMenu(w.column(QStringLiteral("layers.5"))));
    menu->findChild<QAction*>(QStringLiteral("openGroup"))->trigger();
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    std::unique_ptr<QMenu> deeperMenu(w.triage().groupMenu(w.column(QStringLiteral("layers.4"))));
    auto* deeper = deeperMenu->findChild<QAction*>(QStringLiteral("deeperGroups"));
    EXPECT_EQ(deeper->text(), QStringLiteral("Group every name at depth 3"));
    deeper->trigger();
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    EXPECT_EQ(w.window.groupDepth(), 3u);
    EXPECT_GE(w.column(QStringLiteral("layers.4.mlp")), 0);
    EXPECT_GE(w.column(QStringLiteral("layers.5.mlp")), 0);
    EXPECT_EQ(w.currentGroup(), QStringLiteral("layers.5.mlp"));
    EXPECT_EQ(w.selectedBuffer(), QString::fromLatin1(kRoot));

    // Back to the depth chosen by itself: the group opened alone before is closed too.
    std::unique_ptr<QMenu> again(w.triage().groupMenu(w.column(QStringLiteral("layers.5.mlp"))));
    again->findChild<QAction*>(QStringLiteral("chosenGroupDepth"))->trigger();
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    EXPECT_EQ(w.column(QStringLiteral("layers.5.mlp")), -1);
    EXPECT_EQ(w.column(QStringLiteral("layers.4.mlp")), -1);
    EXPECT_GE(w.column(QStringLiteral("layers.5")), 0);
}

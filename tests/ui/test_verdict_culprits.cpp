// The verdict panel's culprit table: a click on a row opens its cell, an empty table says why,
// and the decision tree's path and the map's greys follow the palette (a dark desktop included).
#include "models/culprit_model.h"
#include "models/matrix_model.h"
#include "panels/buffer_panel.h"
#include "panels/divergence_map_panel.h"
#include "panels/verdict_panel.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "widgets/matrix_colors.h"
#include "widgets/matrix_view.h"
#include "window/triage_view.h"

#include "dumpscope/analyze.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>

#include <gtest/gtest.h>

using namespace dumpscope;
using dumpscope::test::TempDir;
namespace uitest = dumpscope::uitest;

namespace {

QTableView* culpritTable(VerdictPanel* panel) {
    return panel->findChild<QTableView*>(QStringLiteral("culpritTable"));
}

} // namespace

TEST(VerdictCulprits, ARowClickedOpensItsCellOnItsFirstDivergentBuffer) {
    TempDir runs;
    uitest::writeMixedPair(runs.path());
    TriageView triage;
    triage.resize(1500, 950);
    triage.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&triage));
    triage.setSnapshot(uitest::finishedSnapshot(analyze(runs / "a", runs / "b")));
    ASSERT_TRUE(triage.selectCell(0, QStringLiteral("G")));
    QTableView* table = culpritTable(triage.verdictPanel());
    ASSERT_NE(table, nullptr);
    int hRow = -1;
    for (int r = 0; r < table->model()->rowCount(); ++r)
        if (table->model()->index(r, 0).data().toString().startsWith(QStringLiteral("H"))) hRow = r;
    ASSERT_GE(hRow, 0);
    QSignalSpy activated(triage.verdictPanel(), &VerdictPanel::rootCauseActivated);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier,
                      table->visualRect(table->model()->index(hRow, 1)).center());
    ASSERT_EQ(activated.size(), 1);
    EXPECT_EQ(activated.front()[0].toULongLong(), 1u);
    EXPECT_EQ(activated.front()[1].toString(), QStringLiteral("H"));
    const QModelIndex current = triage.matrixView()->currentIndex();
    EXPECT_EQ(current.data(MatrixModel::StepRole).toULongLong(), 1u);
    EXPECT_EQ(triage.matrixModel()->cell(current)->group, "H");
    EXPECT_GE(triage.bufferPanel()->selectedBuffer(), 0);
}

TEST(VerdictCulprits, AnEmptyTableSaysWhy) {
    TempDir runs;
    uitest::writeMixedPair(runs.path());
    VerdictPanel panel;
    panel.setSnapshot(uitest::finishedSnapshot(analyze(runs / "a", runs / "a")));
    QTableView* table = culpritTable(&panel);
    ASSERT_NE(table, nullptr);
    ASSERT_EQ(table->model()->rowCount(), 1);
    EXPECT_EQ(table->columnSpan(0, 0), 2);
    EXPECT_TRUE(table->model()->index(0, 0).data().toString().startsWith(
        QStringLiteral("No divergent step")))
        << table->model()->index(0, 0).data().toString().toStdString();

    panel.setSnapshot(uitest::finishedSnapshot(analyze(runs / "a", runs / "missing")));
    ASSERT_EQ(table->model()->rowCount(), 1);
    EXPECT_TRUE(table->model()->index(0, 0).data().toString().startsWith(
        QStringLiteral("Nothing was compared")))
        << table->model()->index(0, 0).data().toString().toStdString();
}

TEST(VerdictCulprits, TheDecisionPathTakesThePalettesHighlight) {
    TempDir runs;
    uitest::writeMixedPair(runs.path());
    const QPalette before = QApplication::palette();
    QPalette dark = before;
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
    dark.setColor(QPalette::Highlight, QColor(0x3d, 0x5a, 0x80));
    dark.setColor(QPalette::HighlightedText, QColor(0xff, 0xff, 0xff));
    QApplication::setPalette(dark);
    {
        VerdictPanel panel;
        panel.setSnapshot(uitest::finishedSnapshot(analyze(runs / "a", runs / "b")));
        int onPath = 0;
        for (QTreeWidgetItemIterator it(panel.decisionTree()); *it; ++it) {
            if (!(*it)->data(0, VerdictPanel::OnPathRole).toBool()) {
                EXPECT_EQ((*it)->foreground(0).color(), dark.color(QPalette::PlaceholderText));
                continue;
            }
            ++onPath;
            EXPECT_EQ((*it)->background(0).color(), dark.color(QPalette::Highlight));
            EXPECT_EQ((*it)->foreground(0).color(), dark.color(QPalette::HighlightedText));
        }
        EXPECT_GT(onPath, 0);
        auto* warnings = panel.findChild<QLabel*>(QStringLiteral("warnings"));
        ASSERT_NE(warnings, nullptr);
        EXPECT_EQ(warnings->palette().color(QPalette::WindowText), matrix_colors::divergeText());
        EXPECT_GT(matrix_colors::divergeText().lightness(), 110) << "a dark red on a dark window";
    }
    // The divergence map's "all equal" grey follows it too.
    EXPECT_LT(DivergenceMapPanel::equalColor().lightness(), 128);
    QApplication::setPalette(before);
    EXPECT_GT(DivergenceMapPanel::equalColor().lightness(), 128);
}

TEST(VerdictCulprits, TheModelHoldsUnderTheModelTesterThroughEveryKindOfVerdict) {
    TempDir runs;
    uitest::writeMixedPair(runs.path());
    CulpritModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(model.rowCount(), 0);
    const Analysis diverged = analyze(runs / "a", runs / "b");
    model.setSnapshot(uitest::finishedSnapshot(diverged));
    ASSERT_EQ(model.rowCount(), static_cast<int>(diverged.verdict.culprits.size()));
    EXPECT_TRUE(model.emptyReason().isEmpty());
    EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("At step 1"));
    for (int r = 0; r < model.rowCount(); ++r) {
        const auto& row = diverged.verdict.culprits[std::size_t(r)];
        EXPECT_EQ(model.index(r, 0).data().toString().toStdString(), row.label);
        EXPECT_EQ(model.index(r, 1).data(CulpritModel::GroupRole).toString().toStdString(),
                  row.group);
        EXPECT_EQ(model.index(r, 0).data(CulpritModel::StepRole).toULongLong(), 1u);
        if (!row.divergentBuffers.empty()) {
            EXPECT_TRUE(model.index(r, 1).data().toString().startsWith(QStringLiteral("DIVERGE")));
        }
    }
    model.setSnapshot(uitest::finishedSnapshot(analyze(runs / "a", runs / "a")));
    ASSERT_EQ(model.rowCount(), 1);
    EXPECT_FALSE(model.emptyReason().isEmpty());
    EXPECT_EQ(model.index(0, 0).data().toString(), model.emptyReason());
    EXPECT_FALSE(model.index(0, 0).data(CulpritModel::StepRole).isValid()); // nothing to open
    EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString(),
              QStringLiteral("At the first divergent step"));
    model.clear();
    EXPECT_EQ(model.rowCount(), 0);
}

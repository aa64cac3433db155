// The verdict panel's culprit table: a click on a row opens its cell, an empty table says why,
// and the decision tree's path and the map's greys follow the palette (a dark desktop included).
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

#include <QApplication>
#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>

#include <gtest/gtest.h>

using namespace dumpscope;
using dumpscope::test::TempDir;
namespace uitest = dumpscope::uitest;

namespace {

QTableWidget* culpritTable(VerdictPanel* panel) {
    return panel->findChild<QTableWidget*>(QStringLiteral("culpritTable"));
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
    QTableWidget* table = culpritTable(triage.verdictPanel());
    ASSERT_NE(table, nullptr);
    int hRow = -1;
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, 0)->text().startsWith(QStringLiteral("H"))) hRow = r;
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
    QTableWidget* table = culpritTable(&panel);
    ASSERT_NE(table, nullptr);
    ASSERT_EQ(table->rowCount(), 1);
    EXPECT_EQ(table->columnSpan(0, 0), 2);
    EXPECT_TRUE(table->item(0, 0)->text().startsWith(QStringLiteral("No divergent step")))
        << table->item(0, 0)->text().toStdString();

    panel.setSnapshot(uitest::finishedSnapshot(analyze(runs / "a", runs / "missing")));
    ASSERT_EQ(table->rowCount(), 1);
    EXPECT_TRUE(table->item(0, 0)->text().startsWith(QStringLiteral("Nothing was compared")))
        << table->item(0, 0)->text().toStdString();
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

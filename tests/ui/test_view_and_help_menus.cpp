// The View menu shows and hides the triage view's panes and resets the layout; panes keep a
// usable minimum at 1024 × 700; Help → Keyboard Shortcuts lists the menu bar's own shortcuts.
#include "dialogs/shortcuts_dialog.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "window/help_menu.h"
#include "window/main_window.h"
#include "window/triage_view.h"

#include <QAction>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>

#include <gtest/gtest.h>

using dumpscope::test::TempDir;
namespace uitest = dumpscope::uitest;

namespace {

QString q(const std::filesystem::path& p) {
    return QString::fromStdString(p.string());
}

QMenu* menuTitled(MainWindow& window, const QString& title) {
    for (QAction* action : window.menuBar()->actions())
        if (action->menu() && action->text().remove('&') == title) return action->menu();
    return nullptr;
}

} // namespace

TEST(ViewMenu, HidesAndShowsEachPaneAndResetsTheLayout) {
    TempDir settingsDir, runs;
    uitest::writeMixedPair(runs.path());
    MainWindow window({nullptr, q(settingsDir / "s.ini")});
    window.resize(1500, 950);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.openPair({q(runs / "a"), q(runs / "b")});
    ASSERT_TRUE(uitest::waitForFinished(window));
    QMenu* view = menuTitled(window, QStringLiteral("View"));
    ASSERT_NE(view, nullptr);
    const auto& panes = window.triageView()->panes();
    ASSERT_EQ(panes.size(), 5);
    QList<QAction*> paneActions;
    for (QAction* action : view->actions())
        if (action->isCheckable()) paneActions << action;
    ASSERT_EQ(paneActions.size(), panes.size());
    for (int i = 0; i < panes.size(); ++i) {
        EXPECT_EQ(paneActions[i]->text(), panes[i].title);
        EXPECT_TRUE(panes[i].widget->isVisible()) << panes[i].title.toStdString();
    }
    paneActions[0]->trigger(); // the matrix
    paneActions[4]->trigger(); // the verdict
    EXPECT_FALSE(panes[0].widget->isVisible());
    EXPECT_FALSE(panes[4].widget->isVisible());
    EXPECT_TRUE(panes[1].widget->isVisible());

    // Squeeze the elements pane against its neighbour, then reset.
    auto* bottom = qobject_cast<QSplitter*>(panes[2].widget->parentWidget());
    ASSERT_NE(bottom, nullptr);
    bottom->setSizes({10, 5000});
    EXPECT_GE(panes[2].widget->width(), panes[2].widget->minimumWidth())
        << "squeezed below its minimum";
    auto* reset = view->findChild<QAction*>(QStringLiteral("resetLayoutAction"));
    ASSERT_NE(reset, nullptr);
    reset->trigger();
    QTest::qWait(20);
    for (int i = 0; i < panes.size(); ++i) {
        EXPECT_TRUE(panes[i].widget->isVisible()) << panes[i].title.toStdString();
        EXPECT_TRUE(paneActions[i]->isChecked());
    }
    EXPECT_GT(panes[2].widget->width(), panes[3].widget->width())
        << "the elements pane is the wider of the bottom row again";
}

TEST(ViewMenu, EveryPaneKeepsItsMinimumAt1024x700) {
    TempDir settingsDir, runs;
    uitest::writeMixedPair(runs.path());
    MainWindow window({nullptr, q(settingsDir / "s.ini")});
    window.resize(1024, 700);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.openPair({q(runs / "a"), q(runs / "b")});
    ASSERT_TRUE(uitest::waitForFinished(window));
    QTest::qWait(20);
    for (const auto& pane : window.triageView()->panes()) {
        EXPECT_GE(pane.widget->width(), pane.widget->minimumWidth()) << pane.title.toStdString();
        EXPECT_GE(pane.widget->height(), pane.widget->minimumHeight()) << pane.title.toStdString();
        EXPECT_GT(pane.widget->minimumWidth(), 100) << pane.title.toStdString();
    }
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("bufferDetailTabs"));
    ASSERT_NE(tabs, nullptr);
    EXPECT_EQ(tabs->tabBar()->elideMode(), Qt::ElideNone) << "a narrow pane cut 'Δ histogram'";
}

TEST(HelpMenu, KeyboardShortcutsListTheMenuBarsOwnShortcuts) {
    TempDir settingsDir;
    MainWindow window({nullptr, q(settingsDir / "s.ini")});
    int withShortcut = 0;
    for (QAction* action : window.findChildren<QAction*>())
        withShortcut += !action->shortcut().isEmpty() && !action->menu();
    ShortcutsDialog dialog(window.menuBar());
    QTableWidget* table = dialog.table();
    QStringList rows;
    for (int r = 0; r < table->rowCount(); ++r)
        rows << table->item(r, 0)->text() + QStringLiteral(" = ") + table->item(r, 1)->text();
    EXPECT_TRUE(rows.contains(QStringLiteral("Ctrl+F = Go → Find Buffer…")))
        << rows.join('\n').toStdString();
    EXPECT_TRUE(rows.contains(QStringLiteral("Ctrl+Shift+R = View → Reset Layout")));
    EXPECT_TRUE(rows.contains(QStringLiteral("F1 = Help → Keyboard Shortcuts")));
    EXPECT_TRUE(rows.contains(QStringLiteral("N = Go → Next Difference")));
    EXPECT_GE(table->rowCount(), withShortcut) << "an action's shortcut is missing from the list";
}

TEST(HelpMenu, TheUserGuideIsFound) {
    const QString path = userGuidePath();
    ASSERT_FALSE(path.isEmpty());
    EXPECT_TRUE(path.endsWith(QStringLiteral("docs/gui.md"))) << path.toStdString();
    EXPECT_TRUE(QFileInfo(path).isFile());
}

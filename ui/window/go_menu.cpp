#include "window/go_menu.h"

#include "models/buffer_search.h"
#include "panels/buffer_panel.h"
#include "panels/element_panel.h"
#include "widgets/matrix_view.h"
#include "window/triage_view.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QTableView>

#include <utility>

QMenu* addGoMenu(QMainWindow* window, TriageView* triage) {
    QMenu* go = window->menuBar()->addMenu(QMainWindow::tr("&Go"));
    QAction* find = go->addAction(QMainWindow::tr("&Find Buffer…"), triage->bufferSearch(),
                                  &BufferSearch::activate);
    find->setObjectName(QStringLiteral("findBufferAction"));
    find->setShortcut(QKeySequence::Find); // Ctrl+F
    go->addSeparator();
    ElementPanel* elements = triage->elementPanel();
    QAction* next =
        go->addAction(QMainWindow::tr("&Next Difference"), elements, &ElementPanel::nextDifference);
    next->setObjectName(QStringLiteral("nextDifferenceAction"));
    next->setShortcut(Qt::Key_N);
    QAction* previous = go->addAction(QMainWindow::tr("&Previous Difference"), elements,
                                      &ElementPanel::previousDifference);
    previous->setObjectName(QStringLiteral("previousDifferenceAction"));
    previous->setShortcut(Qt::SHIFT | Qt::Key_N);
    elements->setNavigationShortcutsEnabled(false);
    // Keyboard focus to a pane from anywhere: Tab walks out of a table, these come back.
    go->addSeparator();
    const std::pair<const char*, QWidget*> panes[] = {
        {QT_TRANSLATE_NOOP("QMainWindow", "&Matrix"), triage->matrixView()},
        {QT_TRANSLATE_NOOP("QMainWindow", "&Buffers of the Cell"), triage->bufferPanel()->view()},
        {QT_TRANSLATE_NOOP("QMainWindow", "&Elements"), elements->view()}};
    int key = Qt::Key_1;
    for (const auto& [title, pane] : panes) {
        QAction* focus = go->addAction(QMainWindow::tr(title), pane,
                                       [pane] { pane->setFocus(Qt::ShortcutFocusReason); });
        focus->setShortcut(Qt::CTRL | Qt::Key(key++));
    }
    go->actions().at(go->actions().size() - 3)->setObjectName(QStringLiteral("focusMatrixAction"));
    return go;
}

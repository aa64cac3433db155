#include "window/go_menu.h"

#include "models/buffer_search.h"
#include "panels/element_panel.h"
#include "window/triage_view.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>

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
    return go;
}

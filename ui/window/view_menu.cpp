#include "window/view_menu.h"

#include "window/triage_view.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>

QMenu* addViewMenu(QMainWindow* window, TriageView* triage) {
    QMenu* view = window->menuBar()->addMenu(QMainWindow::tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    QList<QAction*> paneActions;
    for (const TriageView::Pane& pane : triage->panes()) {
        QAction* action = view->addAction(pane.title);
        action->setCheckable(true);
        action->setChecked(true);
        QWidget* widget = pane.widget;
        QObject::connect(action, &QAction::toggled, widget, &QWidget::setVisible);
        paneActions << action;
    }
    view->addSeparator();
    QAction* reset =
        view->addAction(QMainWindow::tr("&Reset Layout"), triage, &TriageView::resetLayout);
    reset->setObjectName(QStringLiteral("resetLayoutAction"));
    reset->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_R);
    QObject::connect(triage, &TriageView::layoutReset, view, [paneActions] {
        for (QAction* action : paneActions)
            action->setChecked(true);
    });
    return view;
}

#include "window/help_menu.h"

#include "dialogs/about_box.h"
#include "dialogs/shortcuts_dialog.h"

#include <QAction>
#include <QApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QUrl>

QString userGuidePath() {
    const QStringList candidates = {QDir(QCoreApplication::applicationDirPath())
                                        .filePath(QStringLiteral("../share/doc/dumpscope/gui.md")),
                                    QStringLiteral(DUMPSCOPE_SOURCE_DOCS "/gui.md")};
    for (const QString& path : candidates)
        if (QFileInfo(path).isFile()) return QFileInfo(path).canonicalFilePath();
    return {};
}

QMenu* addHelpMenu(QMainWindow* window) {
    QMenu* help = window->menuBar()->addMenu(QMainWindow::tr("&Help"));
    QAction* keys = help->addAction(QMainWindow::tr("&Keyboard Shortcuts"), window, [window] {
        auto* dialog = new ShortcutsDialog(window->menuBar(), window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    keys->setObjectName(QStringLiteral("keyboardShortcutsAction"));
    keys->setShortcut(QKeySequence::HelpContents); // F1
    QAction* guide = help->addAction(QMainWindow::tr("&User Guide"), window, [window] {
        const QString path = userGuidePath();
        if (path.isEmpty() || !QDesktopServices::openUrl(QUrl::fromLocalFile(path)))
            QMessageBox::information(
                window, QMainWindow::tr("User Guide"),
                QMainWindow::tr("The user guide is docs/gui.md in dumpscope's source tree%1.")
                    .arg(path.isEmpty() ? QString() : QStringLiteral(": ") + path));
    });
    guide->setObjectName(QStringLiteral("userGuideAction"));
    help->addSeparator();
    QAction* about = help->addAction(QMainWindow::tr("&About dumpscope"), window, [window] {
        auto* box = new AboutBox(window);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    about->setObjectName(QStringLiteral("aboutAction"));
    help->addAction(QMainWindow::tr("About &Qt"), qApp, &QApplication::aboutQt);
    return help;
}

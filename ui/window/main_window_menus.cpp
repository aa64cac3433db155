// MainWindow's menus and actions, the report exports they trigger, and folders dropped on the
// window: what the user asks of the window, apart from how it opens and runs an analysis
// (main_window.cpp).
#include "window/main_window.h"

#include "dialogs/name_pairing_dialog.h"
#include "dialogs/open_floor_dialog.h"
#include "panels/buffer_panel.h"
#include "state/settings.h"
#include "window/go_menu.h"
#include "window/help_menu.h"
#include "window/multi_run_view.h"
#include "window/start_page.h"
#include "window/triage_view.h"
#include "window/view_menu.h"
#include "workers/analysis_worker.h"
#include "workers/run_watcher.h"

#include "dumpscope/report.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QToolButton>

#include <exception>
#include <stdexcept>

void MainWindow::createActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(style()->standardIcon(QStyle::SP_DirOpenIcon),
                                    tr("&Open Runs…"), this, &MainWindow::showStartPage);
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open &Demo Pair"), this, [this] { openDemo(); });
    m_recentMenu = file->addMenu(tr("&Recent Pairs"));
    m_recentMenu->setObjectName(QStringLiteral("recentPairsMenu"));
    file->addAction(tr("Open Several &Candidates…"), this, &MainWindow::openCandidatesDialog);
    file->addAction(tr("Open with a &Noise Floor…"), this, &MainWindow::openFloorDialog);
    m_backToCandidatesAction = file->addAction(tr("&Back to All Candidates"), this, [this] {
        m_stack->setCurrentWidget(m_multi);
        updateActions();
    });
    m_backToCandidatesAction->setShortcut(Qt::ALT | Qt::Key_Left);
    file->addSeparator();
    m_exportAction = file->addAction(tr("&Export Report…"), this, &MainWindow::exportReportDialog);
    m_exportAction->setShortcut(Qt::CTRL | Qt::Key_E);
    m_copyAction =
        file->addAction(tr("&Copy Markdown Summary"), this, [this] { copyMarkdownSummary(); });
    m_copyAction->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_C);
    file->addSeparator();
    m_closeAction = file->addAction(tr("&Close Pair"), this, &MainWindow::closePair);
    m_closeAction->setShortcut(QKeySequence::Close);
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* analysis = menuBar()->addMenu(tr("&Analysis"));
    m_reloadAction = analysis->addAction(style()->standardIcon(QStyle::SP_BrowserReload),
                                         tr("&Reload"), this, &MainWindow::reload);
    m_reloadAction->setShortcut(QKeySequence::Refresh); // F5
    m_swapAction = analysis->addAction(tr("&Swap A/B"), this, &MainWindow::swapRuns);
    m_swapAction->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_X);
    m_cancelAction = analysis->addAction(tr("C&ancel"), this, &MainWindow::cancelAnalysis);
    m_cancelAction->setShortcut(Qt::Key_Escape);
    analysis->addSeparator();
    m_settingsAction =
        analysis->addAction(tr("Analysis &Settings…"), this, &MainWindow::editAnalysisSettings);
    m_settingsAction->setObjectName(QStringLiteral("analysisSettingsAction"));
    analysis->addAction(tr("Name &Pairing…"), this, &MainWindow::editNamePairing)
        ->setObjectName(QStringLiteral("namePairingAction"));
    BufferPanel* buffers = m_triage->bufferPanel();
    buffers->setTypedShapeLookup(
        [this](const QString& name) { return m_settings->bufferShape(name); });
    connect(buffers, &BufferPanel::shapeChangeRequested, this,
            [this](const QString& name, const QString& text) { setBufferShape(name, text); });
    m_watchAction = analysis->addAction(tr("&Watch Runs for New Steps"));
    m_watchAction->setObjectName(QStringLiteral("watchAction"));
    m_watchAction->setCheckable(true);
    m_watchAction->setChecked(true);
    connect(m_watchAction, &QAction::toggled, this, [this](bool on) { m_watcher->setPaused(!on); });
    connect(m_watchButton, &QToolButton::clicked, m_watchAction, &QAction::toggle);
    updateWatchIndicator();

    addViewMenu(this, m_triage);
    addGoMenu(this, m_triage);
    addHelpMenu(this);
    updateRecentMenu();
    updateActions();
}

void MainWindow::updateActions() {
    const bool finished = snapshot() && snapshot()->finished;
    m_exportAction->setEnabled(finished);
    m_copyAction->setEnabled(finished);
    m_reloadAction->setEnabled(m_pair.has_value());
    m_swapAction->setEnabled(m_pair.has_value());
    m_closeAction->setEnabled(m_pair.has_value());
    m_cancelAction->setEnabled(m_worker->isRunning() || m_multi->isRunning());
    m_backToCandidatesAction->setEnabled(m_multi->candidateCount() > 0 &&
                                         m_stack->currentWidget() != m_multi);
}

QList<RunPair> MainWindow::recentPairs() const {
    return m_settings->recentPairs();
}

void MainWindow::updateRecentMenu() {
    m_recentMenu->clear();
    const QList<RunPair> pairs = recentPairs();
    for (const RunPair& pair : pairs)
        m_recentMenu->addAction(QStringLiteral("%1 ↔ %2").arg(pair.runA, pair.runB), this,
                                [this, pair] { openPair(pair); });
    m_recentMenu->setEnabled(!pairs.isEmpty());
}

bool MainWindow::exportReport(const QString& path, QString* error) {
    const SnapshotPtr s = snapshot();
    try {
        if (!s || !s->finished) throw std::runtime_error("no finished analysis to export");
        dumpscope::writeReport(*s->analysis, path.toStdString());
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
}

void MainWindow::exportReportDialog() {
    QString filter;
    const QString html = tr("HTML report (*.html)"), md = tr("Markdown (*.md)"),
                  json = tr("JSON (*.json)");
    QString path = QFileDialog::getSaveFileName(
        this, tr("Export Report"), QDir(m_settings->lastDirectory()).filePath("report.html"),
        QStringList{html, md, json}.join(QStringLiteral(";;")), &filter);
    if (path.isEmpty()) return;
    // The writer picks the format by extension; add the one of the chosen filter if missing.
    if (!dumpscope::reportFormatFor(path.toStdString()))
        path += filter == md     ? QStringLiteral(".md")
                : filter == json ? QStringLiteral(".json")
                                 : QStringLiteral(".html");
    QString error;
    if (exportReport(path, &error))
        showTransientMessage(tr("Report written to %1").arg(QDir::toNativeSeparators(path)));
    else
        QMessageBox::warning(this, tr("Export Report"), error);
}

bool MainWindow::copyMarkdownSummary() {
    const SnapshotPtr s = snapshot();
    if (!s || !s->finished) return false;
    QApplication::clipboard()->setText(
        QString::fromStdString(dumpscope::reportMarkdown(*s->analysis)));
    showTransientMessage(tr("Markdown summary copied to the clipboard"));
    return true;
}

// A message about one action covers the analysis summary for a few seconds and then gives it
// back: QStatusBar hides its normal widgets while a temporary message shows.
void MainWindow::showTransientMessage(const QString& text) {
    statusBar()->showMessage(text, kTransientMessageMs);
}

QString MainWindow::statusSummary() const {
    return m_statusLabel->text();
}

namespace {

QStringList droppedFolders(const QMimeData* mime) {
    QStringList folders;
    if (!mime->hasUrls()) return folders;
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile() && QFileInfo(url.toLocalFile()).isDir()) folders << url.toLocalFile();
    return folders;
}

} // namespace

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const QStringList folders = droppedFolders(event->mimeData());
    if (!folders.isEmpty() && folders.size() <= 2) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QStringList folders = droppedFolders(event->mimeData());
    if (folders.isEmpty() || folders.size() > 2) return;
    event->acceptProposedAction();
    if (auto pair = pairFromFolders(folders)) {
        openPair(*pair);
        return;
    }
    // One plain run folder: the second one dropped on the start page completes the pair;
    // otherwise it becomes run A and the start page waits for run B.
    const QString folder = QFileInfo(folders.front()).absoluteFilePath();
    const QString runA = m_startPage->runA();
    if (m_stack->currentWidget() == m_startPage && !runA.isEmpty() && runA != folder) {
        openPair({runA, folder});
        return;
    }
    m_startPage->setRunA(folder);
    m_startPage->setRunB({});
    m_pair.reset();
    showStartPage();
    m_statusLabel->setText(tr("Run A set; choose or drop run B"));
}

void MainWindow::openFloorDialog() {
    OpenFloorDialog dialog(m_settings->lastDirectory(), this);
    if (m_pair) {
        dialog.setBase(m_pair->runA);
        dialog.setCandidate(m_pair->runB);
        for (const QString& run : m_floorRuns)
            dialog.addRerun(run);
    }
    if (dialog.exec() == QDialog::Accepted)
        openPairWithFloor({dialog.base(), dialog.candidate()}, dialog.reruns());
}

// The pairing of the open pair's differently named buffers, to look at and fix: Re-run takes
// the fixes and the mode, and compares the pair again with them.
void MainWindow::editNamePairing() {
    const SnapshotPtr& snapshot = m_triage->snapshot();
    auto* dialog = new NamePairingDialog(
        snapshot && snapshot->analysis ? snapshot->analysis->alignment : nullptr, m_align, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        applyNamePairing(dialog->alignMode(),
                         dialog->nameMap(m_nameMap ? *m_nameMap : dumpscope::NameMap{}));
    });
    dialog->open();
}

void MainWindow::applyNamePairing(dumpscope::AlignMode mode, dumpscope::NameMap map) {
    m_align = mode;
    m_nameMap =
        map.rules.empty() ? nullptr : std::make_shared<const dumpscope::NameMap>(std::move(map));
    reanalyse();
}

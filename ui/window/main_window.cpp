#include "window/main_window.h"

#include "dialogs/analysis_settings_dialog.h"
#include "dialogs/open_candidates_dialog.h"
#include "dialogs/unread_pair_dialog.h"
#include "state/settings.h"
#include "window/multi_run_view.h"
#include "window/start_page.h"
#include "window/triage_view.h"
#include "workers/analysis_worker.h"
#include "workers/run_watcher.h"

#include "dumpscope/demo.h"
#include "dumpscope/shape.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolButton>

#include <exception>

// The .qrc is compiled into the static dumpscope_ui library; a static library's resources are
// registered only by an explicit call, which must sit outside any namespace.
static void initResources() {
    Q_INIT_RESOURCE(dumpscope);
}

MainWindow::MainWindow(Options options, QWidget* parent)
    : QMainWindow(parent), m_options(std::move(options)),
      m_settings(std::make_unique<Settings>(m_options.settingsFile)),
      m_worker(new AnalysisWorker(this)), m_stack(new QStackedWidget(this)),
      m_startPage(new StartPage), m_triage(new TriageView), m_progress(new QProgressBar),
      m_cancelButton(new QPushButton(tr("Cancel"))), m_statusLabel(new QLabel) {
    initResources();
    setWindowIcon(QIcon(QStringLiteral(":/icons/dumpscope.svg")));
    setWindowTitle(QStringLiteral("dumpscope"));
    setAcceptDrops(true);
    m_stack->addWidget(m_startPage);
    m_stack->addWidget(m_triage);
    m_multi = new MultiRunView;
    m_stack->addWidget(m_multi);
    connect(m_multi, &MultiRunView::pairActivated, this, &MainWindow::openCandidatePair);
    connect(m_multi, &MultiRunView::finished, this, [this] {
        m_statusLabel->setText(
            tr("Compared the base with %n candidate(s)", nullptr, m_multi->candidateCount()));
        updateActions();
        emit analysisFinished();
    });
    setCentralWidget(m_stack);

    m_progress->setObjectName(QStringLiteral("analysisProgress"));
    m_progress->setMaximumWidth(260);
    m_progress->setFormat(tr("%v / %m buffers"));
    m_cancelButton->setObjectName(QStringLiteral("cancelButton"));
    statusBar()->addWidget(m_statusLabel, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancelButton);
    m_progress->hide();
    m_cancelButton->hide();
    connect(m_cancelButton, &QPushButton::clicked, this, &MainWindow::cancelAnalysis);
    m_watcher = new RunWatcher(this);
    m_watchButton = new QToolButton;
    m_watchButton->setObjectName(QStringLiteral("watchButton"));
    m_watchButton->setCheckable(true);
    m_watchButton->setAutoRaise(true);
    statusBar()->addPermanentWidget(m_watchButton);
    connect(m_watcher, &RunWatcher::runsChanged, this, &MainWindow::refreshFromWatch);
    connect(m_watcher, &RunWatcher::stateChanged, this, &MainWindow::updateWatchIndicator);

    connect(m_startPage, &StartPage::demoRequested, this, [this] { openDemo(); });
    connect(m_startPage, &StartPage::pairRequested, this, &MainWindow::openPair);
    connect(m_startPage, &StartPage::directoryChosen, this,
            [this](const QString& dir) { m_settings->setLastDirectory(dir); });
    m_startPage->setStartDirectory(m_settings->lastDirectory());

    createActions();
    connectWorker();
    resize(1500, 950);
    restoreGeometry(m_settings->windowGeometry());
    restoreState(m_settings->windowState(), Settings::kLayoutVersion);
    m_triage->restoreState(m_settings->splitterState());
    // Cutting every group at another depth, or opening one group into its children or closing
    // it: the pair again, grouped there (the result cache spares reading it again). A new depth
    // applies to every group, the ones opened alone included.
    connect(m_triage, &TriageView::groupDepthRequested, this, [this](int depth) {
        m_groupDepth = static_cast<std::size_t>(depth);
        m_openedGroups.clear();
        reanalyse();
    });
    connect(m_triage, &TriageView::groupOpenRequested, this,
            [this](const QString& group, bool open) {
                const std::string id = group.toStdString();
                if (open) {
                    m_openedGroups.insert(id);
                } else {
                    std::erase_if(m_openedGroups, [&](const std::string& g) {
                        return dumpscope::isWithinGroup(g, id);
                    });
                }
                reanalyse();
            });
    showStartPage();
}

// The worker goes first: its threads may still be reading the demo pair's temporary files.
// A pair still being opened is remembered: the window went before its runs were listed.
MainWindow::~MainWindow() {
    delete m_worker;
    rememberOpenedPair();
}

void MainWindow::connectWorker() {
    auto show = [this](quint64, SnapshotPtr snapshot) {
        setProgress(snapshot);
        m_triage->setSnapshot(std::move(snapshot));
    };
    connect(m_worker, &AnalysisWorker::planned, this, [this, show](quint64 seq, SnapshotPtr s) {
        if (refuseUnopenedPair(*s->analysis)) return;
        m_watcher->takeBaseline(s->listing, s->listedAt);
        rememberOpenedPair();
        show(seq, std::move(s));
    });
    connect(m_worker, &AnalysisWorker::progressed, this, show);
    connect(m_worker, &AnalysisWorker::finished, this, [this](quint64, SnapshotPtr s) {
        m_watcher->listBaseline(); // the plan's listing did not reach the watcher
        m_progress->hide();
        m_cancelButton->hide();
        const auto& analysis = *s->analysis;
        const auto& verdict = analysis.verdict;
        const std::string& runError = analysis.errorA.empty() ? analysis.errorB : analysis.errorA;
        if (!runError.empty())
            m_statusLabel->setText(tr("Cannot compare: %1").arg(QString::fromStdString(runError)));
        else if (const QString unread = unreadPairMessage(analysis); !unread.isEmpty()) {
            m_statusLabel->setText(tr("Nothing could be read: exit code %1").arg(verdict.exitCode));
            showUnreadPairDialog(this, unread);
        } else if (verdict.firstDivergentStep)
            m_statusLabel->setText(tr("Compared %1 buffers: first divergence at step %2 · %3")
                                       .arg(analysis.buffers.size())
                                       .arg(*verdict.firstDivergentStep)
                                       .arg(toleranceSummary(analysis)));
        else
            m_statusLabel->setText(tr("Compared %1 buffers: exit code %2 · %3")
                                       .arg(analysis.buffers.size())
                                       .arg(verdict.exitCode)
                                       .arg(toleranceSummary(analysis)));
        // The panels fill over three turns of the event loop, each repainting its part of the
        // window (in one turn the repaint stalled the loop 40-80 ms); the analysis is finished
        // for the window's users once every panel shows it.
        m_triage->setSnapshot(std::move(s), TriageView::Pace::inTurns, [this] {
            updateActions();
            emit analysisFinished();
        });
    });
    // Without a plan, the watcher lists the runs for its baseline itself.
    connect(m_worker, &AnalysisWorker::cancelled, this, [this] {
        m_watcher->listBaseline();
        m_progress->hide();
        m_cancelButton->hide();
        m_statusLabel->setText(tr("Analysis cancelled: the matrix shows what was compared"));
        updateActions();
        emit analysisCancelled();
    });
    connect(m_worker, &AnalysisWorker::failed, this, [this](quint64, const QString& message) {
        m_watcher->listBaseline();
        m_progress->hide();
        m_cancelButton->hide();
        m_statusLabel->setText(tr("Analysis failed: %1").arg(message));
        updateActions();
        emit analysisFailed(message);
    });
}

void MainWindow::setProgress(const SnapshotPtr& snapshot) {
    m_progress->setMaximum(static_cast<int>(snapshot->total));
    m_progress->setValue(static_cast<int>(snapshot->nDone));
}

// The watched runs dumped new or changed step files: the same analysis again, on the same view
// (the selection stays; the pair's cache answers for every file that did not change).
void MainWindow::refreshFromWatch() {
    if (!m_pair) return;
    m_progress->setRange(0, 0);
    m_progress->show();
    m_cancelButton->show();
    m_statusLabel->setText(tr("New or changed step files: comparing…"));
    m_worker->restart();
    updateActions();
}

void MainWindow::updateWatchIndicator() {
    const bool on = m_watchAction && m_watchAction->isChecked();
    m_watchButton->setVisible(m_watcher->isWatching());
    m_watchButton->setChecked(on);
    m_watchButton->setText(on                              ? tr("● Watching")
                           : m_watcher->hasPendingChange() ? tr("Paused: new files waiting")
                                                           : tr("Watching paused"));
    m_watchButton->setToolTip(on ? tr("New or changed step files in either run are compared as "
                                      "they land. Click to pause.")
                                 : tr("Click to watch the runs again."));
}

void MainWindow::openPair(const RunPair& pair) {
    openPairWithFloor(pair, {});
}

void MainWindow::openPairWithFloor(const RunPair& pair, const QStringList& reruns) {
    QStringList floorRuns; // built apart: `reruns` may be m_floorRuns itself (reload)
    for (const QString& run : reruns)
        floorRuns << QFileInfo(run).absoluteFilePath();
    m_floorRuns = floorRuns;
    const RunPair absolute{QFileInfo(pair.runA).absoluteFilePath(),
                           QFileInfo(pair.runB).absoluteFilePath()};
    // The groups opened are the open pair's: reloaded or swapped, it keeps them.
    const bool samePair =
        m_pair && ((m_pair->runA == absolute.runA && m_pair->runB == absolute.runB) ||
                   (m_pair->runA == absolute.runB && m_pair->runB == absolute.runA));
    if (!samePair) {
        m_openedGroups.clear();
        m_nameMap.reset();
    }
    m_pair = absolute;
    // The demo's temporary pair is not worth remembering: its directory goes with the window.
    // Any other pair is, once its run folders turn out to be runs (rememberOpenedPair).
    m_rememberPair = !(m_demoDir && absolute.runA.startsWith(m_demoDir->path()));
    m_startPage->setRunErrors({}, {});
    const QString title = m_floorRuns.isEmpty()
                              ? tr("%1 ↔ %2 — dumpscope")
                              : tr("%1 ↔ %2 over the noise floor of %n rerun(s) — dumpscope",
                                   nullptr, static_cast<int>(m_floorRuns.size()));
    setWindowTitle(title.arg(QDir::toNativeSeparators(absolute.runA),
                             QDir::toNativeSeparators(absolute.runB)));
    m_triage->clear();
    m_stack->setCurrentWidget(m_triage);
    m_progress->setRange(0, 0);
    m_progress->show();
    m_cancelButton->show();
    m_statusLabel->setText(tr("Comparing…"));
    // Watched before the plan lists the runs, whose listing is the watch's baseline: a file that
    // lands after the plan's listing is an event the watcher acts on.
    m_watcher->setLayout(m_layout.toStdString());
    m_watcher->watchPlanned(absolute.runA, absolute.runB);
    m_worker->start(analysisRequest(absolute));
    updateActions();
}

// The pair's runs were listed: a folder that is missing, unreadable or holds no dumps sends the
// window back to the start page, with the reason beside that run's field, instead of a triage
// view with nothing in it. The pair is not remembered.
bool MainWindow::refuseUnopenedPair(const dumpscope::Analysis& planned) {
    if (planned.errorA.empty() && planned.errorB.empty()) return false;
    m_worker->cancel();
    m_watcher->stop();
    const QString errorA = QString::fromStdString(planned.errorA);
    const QString errorB = QString::fromStdString(planned.errorB);
    m_triage->clear();
    showStartPage(); // fills the fields with the pair
    m_pair.reset();
    m_rememberPair = false;
    m_startPage->setRunErrors(errorA, errorB);
    setWindowTitle(QStringLiteral("dumpscope"));
    m_progress->hide();
    m_cancelButton->hide();
    const QString message = errorA.isEmpty() ? errorB : errorA;
    m_statusLabel->setText(tr("Cannot compare: %1").arg(message));
    updateActions();
    emit analysisFailed(message);
    return true;
}

// Written at once, so a window that is killed right after still remembers the pair; the write
// costs far less than the analysis' first paint that follows.
void MainWindow::rememberOpenedPair() {
    if (!m_rememberPair || !m_pair) return;
    m_rememberPair = false;
    m_settings->addRecentPair(*m_pair);
    m_settings->sync();
    updateRecentMenu();
}

bool MainWindow::openDemo() {
    auto dir = std::make_unique<QTemporaryDir>();
    try {
        if (!dir->isValid()) throw std::runtime_error(dir->errorString().toStdString());
        dumpscope::makeDemo(dir->path().toStdString());
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Demo"), tr("Cannot write the demo pair: %1").arg(e.what()));
        return false;
    }
    const QDir root(dir->path());
    m_demoDir = std::move(dir); // the previous demo pair (if any) is deleted here
    openPair({root.filePath(QStringLiteral("a")), root.filePath(QStringLiteral("b"))});
    return true;
}

AnalysisRequest MainWindow::analysisRequest(const RunPair& pair) const {
    AnalysisRequest request;
    request.runA = pair.runA;
    request.runB = pair.runB;
    request.schema = m_options.schema;
    request.layout = m_layout.toStdString();
    request.groupDepth = m_groupDepth;
    request.openedGroups = m_openedGroups;
    request.align = m_align;
    request.nameMap = m_nameMap;
    request.settings = m_settings->analysisSettings();
    request.shapes = m_settings->bufferShapes();
    request.floorRuns = m_floorRuns;
    return request;
}

void MainWindow::reanalyse() {
    if (!m_pair) return;
    m_progress->setRange(0, 0);
    m_progress->show();
    m_cancelButton->show();
    m_statusLabel->setText(tr("Comparing with the new settings…"));
    m_worker->start(analysisRequest(*m_pair));
    updateActions();
}

void MainWindow::setAnalysisSettings(const AnalysisSettings& settings) {
    if (settings == m_settings->analysisSettings()) return;
    m_settings->setAnalysisSettings(settings);
    reanalyse();
}

bool MainWindow::setBufferShape(const QString& buffer, const QString& text) {
    if (!text.trimmed().isEmpty() && dumpscope::parseShapeText(text.toStdString()).empty())
        return false;
    m_settings->setBufferShape(buffer, text);
    reanalyse();
    return true;
}

void MainWindow::editAnalysisSettings() {
    auto* dialog = new AnalysisSettingsDialog(m_settings->analysisSettings(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (const auto settings = dialog->settings()) setAnalysisSettings(*settings);
    });
    dialog->open();
}

void MainWindow::reload() {
    if (m_pair) openPairWithFloor(*m_pair, m_floorRuns);
}

void MainWindow::swapRuns() {
    if (m_pair) openPair({m_pair->runB, m_pair->runA});
}

void MainWindow::closePair() {
    m_worker->cancel();
    m_multi->clear();
    m_watcher->stop();
    m_pair.reset();
    m_floorRuns.clear();
    m_triage->clear();
    setWindowTitle(QStringLiteral("dumpscope"));
    m_statusLabel->clear();
    showStartPage();
}

void MainWindow::openCandidates(const QString& base, const QStringList& candidates) {
    m_worker->cancel();
    m_watcher->stop();
    m_pair.reset();
    m_floorRuns.clear(); // each candidate is read bitwise; candidate 1 is the floor
    m_triage->clear();
    const QString absBase = QFileInfo(base).absoluteFilePath();
    QStringList runs;
    for (const QString& run : candidates)
        runs << QFileInfo(run).absoluteFilePath();
    m_multi->open(absBase, runs, analysisRequest({absBase, absBase}));
    m_stack->setCurrentWidget(m_multi);
    setWindowTitle(
        tr("%1 against %n candidate(s) — dumpscope", nullptr, static_cast<int>(runs.size()))
            .arg(QDir::toNativeSeparators(absBase)));
    m_statusLabel->setText(tr("Comparing the base with each candidate…"));
    updateActions();
}

void MainWindow::openCandidatesDialog() {
    OpenCandidatesDialog dialog(m_settings->lastDirectory(), this);
    if (m_multi->candidateCount() > 0) {
        dialog.setBase(m_multi->base());
        for (const QString& run : m_multi->candidates())
            dialog.addCandidate(run);
    }
    if (dialog.exec() == QDialog::Accepted) openCandidates(dialog.base(), dialog.candidates());
}

// The pair's analysis is already done: the triage view shows it without reading anything again
// (Reload compares the pair afresh).
void MainWindow::openCandidatePair(int candidate, quint64 step, const QString& group) {
    const SnapshotPtr s = m_multi->snapshot(candidate);
    if (!s || !s->finished) {
        m_statusLabel->setText(tr("Candidate %1 is not compared yet").arg(candidate + 1));
        return;
    }
    m_worker->cancel();
    m_pair = RunPair{m_multi->base(), m_multi->candidates()[candidate]};
    m_floorRuns.clear();
    m_triage->clear();
    m_triage->setSnapshot(s);
    if (!group.isEmpty()) m_triage->selectCell(step, group);
    m_stack->setCurrentWidget(m_triage);
    setWindowTitle(tr("%1 ↔ candidate %2, %3 — dumpscope")
                       .arg(QDir::toNativeSeparators(m_pair->runA))
                       .arg(candidate + 1)
                       .arg(QDir::toNativeSeparators(m_pair->runB)));
    m_statusLabel->setText(tr("Candidate %1 against the base; Alt+Left goes back to all candidates")
                               .arg(candidate + 1));
    updateActions();
}

void MainWindow::cancelAnalysis() {
    m_worker->cancel();
    m_multi->cancel();
}

void MainWindow::showStartPage() {
    m_startPage->setRecentPairs(recentPairs());
    if (m_pair) {
        m_startPage->setRunA(m_pair->runA);
        m_startPage->setRunB(m_pair->runB);
    }
    m_stack->setCurrentWidget(m_startPage);
    updateActions();
}

SnapshotPtr MainWindow::snapshot() const {
    return m_triage->snapshot();
}

bool MainWindow::isAnalysing() const {
    return m_worker->isRunning();
}

void MainWindow::saveSettings() {
    m_settings->setWindowGeometry(saveGeometry());
    m_settings->setWindowState(saveState(Settings::kLayoutVersion));
    m_settings->setSplitterState(m_triage->saveState());
    m_settings->sync();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    m_worker->cancel();
    saveSettings();
    event->accept();
}

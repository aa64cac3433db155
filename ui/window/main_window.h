#pragma once

#include "state/run_pair.h"
#include "workers/analysis_request.h"
#include "workers/analysis_snapshot.h"

#include "dumpscope/schema.h"

#include <QMainWindow>

#include <memory>
#include <optional>
#include <set>
#include <string>

class AnalysisWorker;
class MultiRunView;
class QAction;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QTemporaryDir;
class QToolButton;
class RunWatcher;
class Settings;
class StartPage;
class TriageView;

// The application window: a start page or the triage view of one pair, the menus, the analysis
// progress and the settings. Panels do the showing; this class only opens, runs and exports.
class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    struct Options {
        std::shared_ptr<const dumpscope::Schema> schema; // null: the default schema
        QString settingsFile;                            // empty: the platform's default QSettings
    };

    explicit MainWindow(Options options = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Where the runs' files are (ScanOptions::layout), for every pair opened from now on;
    // empty: found by itself.
    void setDumpLayout(const QString& pattern) { m_layout = pattern; }
    // The depth buffers without a schema are grouped at (--group-depth; 0: chosen by itself).
    void setGroupDepth(std::size_t depth) { m_groupDepth = depth; }
    std::size_t groupDepth() const { return m_groupDepth; }
    // How the pair's differently named buffers pair (AnalyzeOptions::align, ::nameMap); the map
    // is the open pair's and goes when another pair is opened. applyNamePairing re-runs the pair.
    void setNameAlignment(dumpscope::AlignMode mode,
                          std::shared_ptr<const dumpscope::NameMap> map) {
        m_align = mode;
        m_nameMap = std::move(map);
    }
    void applyNamePairing(dumpscope::AlignMode mode, dumpscope::NameMap map);
    void openPair(const RunPair& pair);
    // The pair read over the noise floor of `reruns` (reruns of run A's build): buffers within
    // it are within_floor, and the verdict is over the divergences beyond it. Reload keeps the
    // reruns; any other way of opening a pair drops them.
    void openPairWithFloor(const RunPair& pair, const QStringList& reruns);
    QStringList floorRuns() const { return m_floorRuns; }
    // Writes the core's demo pair to a temporary directory and opens it; false on failure.
    bool openDemo();
    void reload();
    void swapRuns();
    void closePair();
    void cancelAnalysis();
    // Compares `base` with each candidate, one matrix per pair and a summary (MultiRunView).
    void openCandidates(const QString& base, const QStringList& candidates);
    MultiRunView* multiRunView() const { return m_multi; }
    // Remembers the tolerances / rounding threshold and analyses the open pair again with them.
    void setAnalysisSettings(const AnalysisSettings& settings);
    // Remembers a typed shape for every buffer named `buffer` (empty text: forget it) and
    // analyses the open pair again; false (nothing changed) when the text is not a shape.
    bool setBufferShape(const QString& buffer, const QString& text);
    // The same pair again with the current settings, keeping the view and its selection.
    void reanalyse();
    // What an analysis of `pair` is started with: the schema, the remembered settings and shapes.
    AnalysisRequest analysisRequest(const RunPair& pair) const;

    // Writes the finished analysis as HTML, Markdown or JSON (by extension) through the core.
    bool exportReport(const QString& path, QString* error = nullptr);
    bool copyMarkdownSummary();

    std::optional<RunPair> currentPair() const { return m_pair; }
    SnapshotPtr snapshot() const;
    bool isAnalysing() const;
    TriageView* triageView() const { return m_triage; }
    // The status bar's standing line: the analysis summary, or what the window is doing.
    QString statusSummary() const;
    AnalysisWorker* analysisWorker() const { return m_worker; }
    RunWatcher* runWatcher() const { return m_watcher; }
    // Checked while the open pair's directories are watched; unchecking pauses.
    QAction* watchAction() const { return m_watchAction; }
    StartPage* startPage() const { return m_startPage; }
    Settings& settings() const { return *m_settings; }
    void saveSettings();

  signals:
    void analysisFinished();
    void analysisCancelled();
    void analysisFailed(const QString& message);

  protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

  private:
    void createActions();
    void showTransientMessage(const QString& text);
    static constexpr int kTransientMessageMs = 6000;
    bool refuseUnopenedPair(const dumpscope::Analysis& planned);
    void rememberOpenedPair();
    void connectWorker();
    void exportReportDialog();
    void showStartPage();
    void updateActions();
    // The base against one candidate in the triage view, from its finished analysis.
    void openCandidatePair(int candidate, quint64 step, const QString& group);
    void openCandidatesDialog();
    void openFloorDialog();
    // The settings' recent pairs with those still being written in front.
    QList<RunPair> recentPairs() const;
    void updateRecentMenu();
    void setProgress(const SnapshotPtr& snapshot);
    void editAnalysisSettings();
    void editNamePairing();
    void refreshFromWatch();
    void updateWatchIndicator();

    Options m_options;
    std::unique_ptr<Settings> m_settings;
    bool m_rememberPair = false; // the pair opened goes to the recent list once it is planned
    AnalysisWorker* m_worker;
    QStackedWidget* m_stack;
    StartPage* m_startPage;
    TriageView* m_triage;
    QProgressBar* m_progress;
    QPushButton* m_cancelButton;
    QLabel* m_statusLabel;
    QMenu* m_recentMenu = nullptr;
    QAction* m_reloadAction = nullptr;
    QAction* m_swapAction = nullptr;
    QAction* m_closeAction = nullptr;
    QAction* m_exportAction = nullptr;
    QAction* m_copyAction = nullptr;
    QAction* m_cancelAction = nullptr;
    QAction* m_settingsAction = nullptr;
    MultiRunView* m_multi = nullptr;
    QAction* m_backToCandidatesAction = nullptr;
    std::optional<RunPair> m_pair;
    QString m_layout;
    std::size_t m_groupDepth = 0;
    // The groups opened alone into their children (AnalyzeOptions::openedGroups), for this pair.
    std::set<std::string> m_openedGroups;
    dumpscope::AlignMode m_align = dumpscope::AlignMode::names;
    std::shared_ptr<const dumpscope::NameMap> m_nameMap;
    QStringList m_floorRuns; // the open pair's noise floor, absolute; empty: bitwise
    std::unique_ptr<QTemporaryDir> m_demoDir;
    RunWatcher* m_watcher = nullptr;
    QAction* m_watchAction = nullptr;
    QToolButton* m_watchButton = nullptr;
};

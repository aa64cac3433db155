#pragma once

#include <QFileSystemWatcher>
#include <QObject>
#include <QStringList>
#include <QTimer>

#include <memory>
#include <string>
#include <vector>

#include "dumpscope/step_completion.h"

// Watches the two run directories of the open pair and says when step files changed and are
// complete enough to compare: new files appear as directory events, a file written in place shows
// as an event on the newest step's files (the only ones watched, at most kMaxWatchedFiles of them,
// to stay far below inotify's limits).
//
// "Complete" is the core's rule (StepCompletion, dumpscope/step_completion.h), the one
// dumpscope-cli --watch follows, with the debounce interval as its settle interval: a step is
// complete when it has files in both runs and each run is done with it (that run has files of a
// later step, or the step's files there have kept their names, sizes and modification times for
// the interval). After an event has been followed by a quiet interval, both directories are
// listed (nothing is read), and again whenever waiting could complete a step, until the listing is
// the one last emitted. A listing runs on a thread of its own (a run of 100k steps takes seconds
// to list) and is applied on the watcher's thread when it is done, one at a time: an interval
// that ends while one runs lists again once it is applied. The first listing is the baseline:
// watch()'s own, or with watchPlanned() the one the analysis' plan took (the window's case, so
// that what was compared is what changes are told from); listed() says when each is applied.
// runsChanged() is emitted as soon as a complete step's files are not those of the last emission; a
// change that completes no step (a step in one run only, files removed, a run directory gone) is
// emitted once the whole listing has kept still for the interval.
//
// The window then compares the whole pair, steps not complete yet included: those are emitted
// again when they complete with other files. A dump that a writer pauses in for a whole interval
// can look complete; the comparison reports a file that changes under it as
// changed_while_reading, the cache never keeps that, and the next listing sees the change.
class RunWatcher : public QObject {
    Q_OBJECT
  public:
    explicit RunWatcher(QObject* parent = nullptr);
    ~RunWatcher() override; // waits for a listing still running

    // Starts watching a pair (forgetting the previous one); the current state is the baseline.
    void watch(const QString& runA, const QString& runB);
    // Starts watching a pair whose baseline is the listing its analysis' plan took
    // (dumpscope::Analysis::listing), handed over by takeBaseline(): every change is then judged
    // against what was compared, files landing while the plan ran included, and the runs are
    // listed once less. Until then the watcher counts as listing: events are noted, and acted
    // on once the baseline is applied.
    void watchPlanned(const QString& runA, const QString& runB);
    // The plan's listing that watchPlanned() waits for, taken at `at`; ignored otherwise.
    void takeBaseline(std::shared_ptr<const dumpscope::PairListing> listing,
                      dumpscope::StepCompletion::Clock::time_point at);
    // The plan gave no listing (it failed or was cancelled): the runs are listed for the
    // baseline instead. Nothing when no baseline is awaited.
    void listBaseline();
    // How the runs' files are laid out (ScanOptions::layout), for the listings from now on.
    void setLayout(const std::string& layout) { m_layout = layout; }
    void stop();
    bool isWatching() const { return !m_runA.isEmpty(); }
    // A listing of the watched pair is running and not applied yet.
    bool isListing() const { return m_listing; }

    // Paused: events are noted but nothing is emitted; resuming acts on what was noted.
    void setPaused(bool paused);
    bool isPaused() const { return m_paused; }
    // A change arrived while paused and has not been acted on yet.
    bool hasPendingChange() const { return m_pendingChange; }

    // Files watched for in-place writes: the newest step's, both runs, at most kMaxWatchedFiles.
    static constexpr qsizetype kMaxWatchedFiles = 1024;
    qsizetype watchedFileCount() const { return m_fs.files().size(); }

    // The quiet interval after an event, and the rule's settle interval.
    void setDebounceMs(int ms);
    int debounceMs() const { return m_debounceMs; }

  signals:
    // Step files were added, removed or changed: a step became complete with files not emitted
    // before, or the whole listing kept still for the debounce interval.
    void runsChanged();
    // Watching, pausing or a change noted while paused: for the status indicator.
    void stateChanged();
    // A listing of both runs was applied: the files watched and the rule's state are as of it.
    void listed();

  private:
    struct Listing;
    struct ListJob;
    void startListing(std::shared_ptr<const dumpscope::PairListing> given = {},
                      dumpscope::StepCompletion::Clock::time_point at = {});
    void watchFiles(const Listing& listing);
    void onListed(Listing& listing);
    void onEvent();
    void settle();

    QFileSystemWatcher m_fs;
    QTimer m_timer;
    int m_debounceMs = 600;
    QString m_runA, m_runB;
    std::string m_layout;
    // Both with the running listing's job while it runs: a listing of a long run holds a file
    // entry per step, too many to copy or compare on the GUI thread.
    dumpscope::StepCompletion m_completion;
    std::shared_ptr<const dumpscope::PairListing> m_lastEmitted =
        std::make_shared<const dumpscope::PairListing>(); // never null
    bool m_paused = false;
    bool m_pendingChange = false;
    // Listings: the running one's results are applied only while m_generation is the one it was
    // started under (watch() and stop() start a new one).
    std::vector<std::shared_ptr<ListJob>> m_jobs; // the running one and stale ones unwinding
    quint64 m_generation = 0;
    bool m_listing = false;
    bool m_baseline = false;     // the running listing is watch()'s
    bool m_awaitingPlan = false; // watchPlanned()'s baseline has not been given yet
    bool m_listAgain = false;    // an interval ended while it ran
};

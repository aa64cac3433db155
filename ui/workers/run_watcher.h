#pragma once

#include <QFileSystemWatcher>
#include <QObject>
#include <QStringList>
#include <QTimer>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

// Watches the two run directories of the open pair and says when their step files changed and
// then held still: new files appear as directory events, a file written in place shows as an
// event on the newest step's files (the only ones watched, at most kMaxWatchedFiles of them, to
// stay far below inotify's limits).
//
// Debounced, and "complete" means stable: after an event, both directories are listed (names,
// sizes, modification times; nothing is read) once per interval until two listings in a row
// agree, and only then is runsChanged() emitted. A dump still being written keeps changing its
// size and so is never analysed half-written unless the writer pauses for a whole interval; if
// it does, the next event or listing brings the final result (the comparison itself reports a
// file that changes under it as changed_while_reading, and the cache never keeps that).
class RunWatcher : public QObject {
    Q_OBJECT
  public:
    explicit RunWatcher(QObject* parent = nullptr);

    // Starts watching a pair (forgetting the previous one); the current state is the baseline.
    void watch(const QString& runA, const QString& runB);
    void stop();
    bool isWatching() const { return !m_runA.isEmpty(); }

    // Paused: events are noted but nothing is emitted; resuming acts on what was noted.
    void setPaused(bool paused);
    bool isPaused() const { return m_paused; }
    // A change arrived while paused and has not been acted on yet.
    bool hasPendingChange() const { return m_pendingChange; }

    // Files watched for in-place writes: the newest step's, both runs, at most kMaxWatchedFiles.
    static constexpr qsizetype kMaxWatchedFiles = 1024;
    qsizetype watchedFileCount() const { return m_fs.files().size(); }

    void setDebounceMs(int ms) { m_timer.setInterval(ms); }
    int debounceMs() const { return m_timer.interval(); }

  signals:
    // Step files were added, removed or changed, and have stopped changing.
    void runsChanged();
    // Watching, pausing or a change noted while paused: for the status indicator.
    void stateChanged();

  private:
    using Listing = std::vector<std::tuple<std::string, std::uint64_t, std::int64_t>>;
    Listing list();
    void onEvent();
    void settle();

    QFileSystemWatcher m_fs;
    QTimer m_timer;
    QString m_runA, m_runB;
    Listing m_lastSeen, m_lastEmitted;
    bool m_paused = false;
    bool m_pendingChange = false;
};

#include "workers/run_watcher.h"

#include "dumpscope/scan.h"

#include <QFile>
#include <QFileInfo>
#include <QSet>

#include <utility>

RunWatcher::RunWatcher(QObject* parent) : QObject(parent) {
    m_timer.setSingleShot(true);
    m_timer.setInterval(600);
    connect(&m_timer, &QTimer::timeout, this, &RunWatcher::settle);
    connect(&m_fs, &QFileSystemWatcher::directoryChanged, this, &RunWatcher::onEvent);
    connect(&m_fs, &QFileSystemWatcher::fileChanged, this, &RunWatcher::onEvent);
}

void RunWatcher::watch(const QString& runA, const QString& runB) {
    stop();
    m_runA = runA;
    m_runB = runB;
    for (const QString& dir : {runA, runB})
        if (QFileInfo(dir).isDir()) m_fs.addPath(dir);
    m_lastSeen = m_lastEmitted = list();
    emit stateChanged();
}

void RunWatcher::stop() {
    m_timer.stop();
    if (const QStringList paths = m_fs.files() + m_fs.directories(); !paths.isEmpty())
        m_fs.removePaths(paths);
    m_runA.clear();
    m_runB.clear();
    m_lastSeen.clear();
    m_lastEmitted.clear();
    m_pendingChange = false;
    emit stateChanged();
}

void RunWatcher::setPaused(bool paused) {
    if (paused == m_paused) return;
    m_paused = paused;
    if (paused && m_timer.isActive()) {
        m_timer.stop();
        m_pendingChange = true;
    } else if (!paused && m_pendingChange) {
        m_pendingChange = false;
        m_timer.start();
    }
    emit stateChanged();
}

void RunWatcher::onEvent() {
    if (!isWatching()) return;
    if (m_paused) {
        if (!m_pendingChange) {
            m_pendingChange = true;
            emit stateChanged();
        }
        return;
    }
    m_timer.start(); // restarts: the listing waits for a quiet interval
}

// Both runs' step files as the core's scan sees them, and the newest step's files watched.
RunWatcher::Listing RunWatcher::list() {
    Listing listing;
    // A step of a large run holds tens of thousands of files: a watch each would use up inotify's
    // watches, which every program of the user shares, for little. Past kMaxWatchedFiles the
    // newest step's files written in place are seen by the next directory event instead.
    QSet<QString> newest;
    for (const QString& dir : {m_runA, m_runB}) {
        const dumpscope::RunScan scan = dumpscope::scanRun(dir.toStdString());
        listing.emplace_back(scan.error, 0, 0); // a directory that vanishes or comes back counts
        // A directory created after watch() started (the job had not made it yet).
        if (scan.error.empty() && !m_fs.directories().contains(dir)) m_fs.addPath(dir);
        for (const auto& [key, file] : scan.files)
            listing.emplace_back(scan.pathOf(file).string(), file.size, file.mtimeNs);
        if (scan.files.empty()) continue;
        const std::uint64_t last = scan.files.rbegin()->first.first;
        for (auto it = scan.files.lower_bound({last, std::string()});
             it != scan.files.end() && newest.size() < kMaxWatchedFiles; ++it)
            newest << QFile::decodeName(
                QByteArray::fromStdString(scan.pathOf(it->second).string()));
    }
    // Sets: comparing two lists of a step's files element by element was quadratic.
    const QStringList watchedList = m_fs.files();
    const QSet<QString> watched(watchedList.begin(), watchedList.end());
    QStringList gone, added;
    for (const QString& f : watchedList)
        if (!newest.contains(f)) gone << f;
    for (const QString& f : std::as_const(newest))
        if (!watched.contains(f)) added << f;
    if (!gone.isEmpty()) m_fs.removePaths(gone);
    if (!added.isEmpty()) m_fs.addPaths(added);
    return listing;
}

void RunWatcher::settle() {
    if (!isWatching() || m_paused) return;
    Listing now = list();
    if (now != m_lastSeen) {
        m_lastSeen = std::move(now);
        m_timer.start(); // still changing: look again after another quiet interval
        return;
    }
    if (now == m_lastEmitted) return; // touched, but nothing a comparison would see
    m_lastEmitted = std::move(now);
    emit runsChanged();
}

#include "workers/run_watcher.h"
#include "workers/background_job.h"

#include "dumpscope/scan.h"

#include <QFile>
#include <QFileInfo>
#include <QMetaObject>
#include <QSet>

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

using dumpscope::PairListing;
using dumpscope::StepCompletion;
using Clock = dumpscope::StepCompletion::Clock;

RunWatcher::RunWatcher(QObject* parent)
    : QObject(parent), m_completion(std::chrono::milliseconds(m_debounceMs)) {
    m_timer.setSingleShot(true);
    // A listing a few milliseconds early would find the step it waited for not settled yet and
    // list the runs once more for nothing.
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &RunWatcher::settle);
    connect(&m_fs, &QFileSystemWatcher::directoryChanged, this, &RunWatcher::onEvent);
    connect(&m_fs, &QFileSystemWatcher::fileChanged, this, &RunWatcher::onEvent);
}

void RunWatcher::setDebounceMs(int ms) {
    m_debounceMs = ms;
    m_completion.setSettle(std::chrono::milliseconds(ms));
}

void RunWatcher::watch(const QString& runA, const QString& runB) {
    watchPlanned(runA, runB);
    listBaseline();
}

void RunWatcher::watchPlanned(const QString& runA, const QString& runB) {
    stop();
    m_runA = runA;
    m_runB = runB;
    for (const QString& dir : {runA, runB})
        if (QFileInfo(dir).isDir()) m_fs.addPath(dir);
    m_baseline = true;
    // Events from now on are noted as during any listing, and acted on once it is applied.
    m_listing = true;
    m_awaitingPlan = true;
    emit stateChanged();
}

void RunWatcher::takeBaseline(std::shared_ptr<const PairListing> listing, Clock::time_point at) {
    if (!m_awaitingPlan || !listing) return;
    m_awaitingPlan = false;
    startListing(std::move(listing), at);
}

void RunWatcher::listBaseline() {
    if (!m_awaitingPlan) return;
    m_awaitingPlan = false;
    startListing();
}

void RunWatcher::stop() {
    m_timer.stop();
    // A listing still running belongs to the pair watched until now.
    ++m_generation;
    stopAll(m_jobs);
    reapExited(m_jobs);
    m_listing = m_baseline = m_listAgain = m_awaitingPlan = false;
    if (const QStringList paths = m_fs.files() + m_fs.directories(); !paths.isEmpty())
        m_fs.removePaths(paths);
    m_runA.clear();
    m_runB.clear();
    m_completion.clear();
    m_lastEmitted = std::make_shared<const PairListing>();
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
        m_timer.start(m_debounceMs);
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
    // Restarts: the listing waits for a quiet interval, so a job writing a burst of files costs
    // one listing, not one per file.
    m_timer.start(m_debounceMs);
}

// A listing and what follows from it, made on the job's thread from its own copies of the
// watcher's state.
struct RunWatcher::Listing {
    dumpscope::StepCompletion completion; // the watcher's, given the listing
    QSet<QString> newest, folders;        // the files and folders to watch
    // What the watcher does next: with `baseline`, takes `emitted` as the listing last emitted;
    // else emits `emitted` when set, or lists again after `relistMs` when set.
    bool baseline = false;
    std::shared_ptr<const PairListing> emitted;
    std::optional<int> relistMs;
};

struct RunWatcher::ListJob : BackgroundJob {};

namespace {

// Both runs' step files as the core's scan sees them, without reading a header.
PairListing listRuns(const std::array<QString, 2>& dirs, const std::string& layout) {
    const dumpscope::RunScan a = dumpscope::scanRun(dirs[0].toStdString(), {layout, false});
    const dumpscope::RunScan b = dumpscope::scanRun(dirs[1].toStdString(), {layout, false});
    return dumpscope::pairListing(a, b);
}

// What to watch in a listing: each run's newest step's files and the folders they land in.
void watchSet(const std::array<QString, 2>& dirs, const PairListing& listing, QSet<QString>& newest,
              QSet<QString>& folders) {
    // A step of a large run holds tens of thousands of files: a watch each would use up inotify's
    // watches, which every program of the user shares, for little. Past kMaxWatchedFiles the
    // newest step's files written in place are seen by the next directory event instead.
    for (int run : {0, 1}) {
        const QString& dir = dirs[run];
        // Also a directory created after watch() started (the job had not made it yet).
        if (QFileInfo(dir).isDir()) folders << dir;
        const auto filesOf = [run](const dumpscope::StepListing& s) -> const auto& {
            return run == 0 ? s.a : s.b;
        };
        auto last = listing.steps.rbegin();
        while (last != listing.steps.rend() && filesOf(last->second).empty())
            ++last;
        if (last == listing.steps.rend()) continue;
        const std::filesystem::path root = dir.toStdString();
        for (const dumpscope::ListedFile& f : filesOf(last->second)) {
            if (newest.size() >= RunWatcher::kMaxWatchedFiles) break;
            const QString file =
                QFile::decodeName(QByteArray::fromStdString((root / f.name).string()));
            if (newest.contains(file)) continue;
            newest << file;
            // The folders between the run and its newest files (rank<R>/, step_<N>/): the next
            // step lands in them, not in the run's own folder.
            for (QString up = QFileInfo(file).path();
                 up.size() > dir.size() && !folders.contains(up); up = QFileInfo(up).path())
                folders << up;
        }
    }
}

// A step is complete by the rule with files other than those last emitted (or none emitted).
bool completesSomething(const StepCompletion& completion, const PairListing& lastEmitted) {
    const PairListing& seen = completion.latest();
    for (const std::uint64_t step : completion.completeSteps()) {
        const auto it = lastEmitted.steps.find(step);
        if (it == lastEmitted.steps.end() || it->second != seen.steps.at(step)) return true;
    }
    return false;
}

// After a listing that is not the baseline: emit it, or list again when waiting could complete
// a step or when the whole listing will have kept still, whichever comes first (never later
// than one interval), or nothing when it is the one last emitted.
void decide(const StepCompletion& completion, const PairListing& lastEmitted, int intervalMs,
            std::shared_ptr<const PairListing>& emitted, std::optional<int>& relistMs) {
    const PairListing& seen = completion.latest();
    if (seen == lastEmitted) return; // touched, but nothing a comparison would see
    // What completes no step (a step in one run only, files removed, a run directory gone) is
    // emitted once the whole listing has kept still as long as a step must.
    const bool keptStill = *completion.listedAt() - *completion.lastChange() >= completion.settle();
    if (completesSomething(completion, lastEmitted) || keptStill) {
        emitted = completion.latestShared();
        return;
    }
    Clock::time_point next = *completion.lastChange() + completion.settle();
    if (const auto step = completion.nextCompletion()) next = std::min(next, *step);
    const auto wait =
        std::chrono::ceil<std::chrono::milliseconds>(next - *completion.listedAt()).count();
    relistMs = static_cast<int>(std::max<long long>(1, std::min<long long>(wait, intervalMs)));
}

} // namespace

RunWatcher::~RunWatcher() {
    stopAndJoinAll(m_jobs);
}

// Lists the pair on a job's thread (or takes `given`, listed at `at`); the result comes back as a
// queued call, dropped if the watcher has moved on to another pair (or none) meanwhile.
void RunWatcher::startListing(std::shared_ptr<const PairListing> given, Clock::time_point at) {
    reapExited(m_jobs);
    m_listing = true;
    auto job = std::make_shared<ListJob>();
    auto listing = std::make_shared<Listing>();
    listing->completion = std::move(m_completion);
    listing->baseline = m_baseline;
    job->thread = std::thread([this, job, listing, generation = m_generation,
                               dirs = std::array<QString, 2>{m_runA, m_runB}, layout = m_layout,
                               lastEmitted = m_lastEmitted, intervalMs = m_debounceMs,
                               given = std::move(given), at] {
        // The plan's listing is kept as it is, by the rule and as the one last emitted: a copy of
        // a long run's file list here would take a core from the comparison running beside it.
        std::shared_ptr<const PairListing> pair =
            given ? given : std::make_shared<const PairListing>(listRuns(dirs, layout));
        watchSet(dirs, *pair, listing->newest, listing->folders);
        listing->completion.observe(pair, given ? at : Clock::now());
        if (listing->baseline)
            listing->emitted = std::move(pair);
        else
            decide(listing->completion, *lastEmitted, intervalMs, listing->emitted,
                   listing->relistMs);
        if (!job->stop)
            QMetaObject::invokeMethod(
                this,
                [this, generation, listing] {
                    if (generation == m_generation) onListed(*listing);
                },
                Qt::QueuedConnection);
        job->exited = true;
    });
    m_jobs.push_back(std::move(job));
}

// The listing's newest files and their folders watched, and no others.
void RunWatcher::watchFiles(const Listing& listing) {
    const QSet<QString>& folders = listing.folders;
    const QSet<QString>& newest = listing.newest;
    const QStringList watchedFolders = m_fs.directories();
    QStringList oldFolders, newFolders;
    for (const QString& d : watchedFolders)
        if (!folders.contains(d)) oldFolders << d;
    for (const QString& d : folders)
        if (!watchedFolders.contains(d)) newFolders << d;
    if (!oldFolders.isEmpty()) m_fs.removePaths(oldFolders);
    if (!newFolders.isEmpty()) m_fs.addPaths(newFolders);
    // Sets: comparing two lists of a step's files element by element was quadratic.
    const QStringList watchedList = m_fs.files();
    const QSet<QString> watched(watchedList.begin(), watchedList.end());
    QStringList gone, added;
    for (const QString& f : watchedList)
        if (!newest.contains(f)) gone << f;
    for (const QString& f : newest)
        if (!watched.contains(f)) added << f;
    if (!gone.isEmpty()) m_fs.removePaths(gone);
    if (!added.isEmpty()) m_fs.addPaths(added);
}

void RunWatcher::onListed(Listing& listing) {
    m_listing = false;
    m_baseline = false;
    m_completion = std::move(listing.completion);
    m_completion.setSettle(std::chrono::milliseconds(m_debounceMs)); // if set meanwhile
    watchFiles(listing);
    if (listing.baseline) m_lastEmitted = listing.emitted;
    emit listed();
    if (m_paused) {
        // Nothing is emitted while paused; resuming lists again and acts on it.
        if (!listing.baseline || m_listAgain) {
            m_listAgain = false;
            if (!m_pendingChange) {
                m_pendingChange = true;
                emit stateChanged();
            }
        }
        return;
    }
    if (std::exchange(m_listAgain, false)) {
        // An interval ended while the listing ran: what it decided may be out of date already.
        m_timer.stop();
        startListing();
        return;
    }
    if (listing.baseline) return;
    if (listing.emitted) {
        m_lastEmitted = listing.emitted;
        emit runsChanged();
    } else if (listing.relistMs) {
        m_timer.start(*listing.relistMs);
    }
}
void RunWatcher::settle() {
    if (!isWatching() || m_paused) return;
    if (m_listing) {
        m_listAgain = true;
        return;
    }
    startListing();
}

#include "workers/analysis_worker.h"
#include "workers/background_job.h"
#include "workers/buffer_names.h"
#include "workers/off_thread_release.h"
#include "workers/snapshot_pacer.h"

#include "dumpscope/analyze.h"
#include "dumpscope/noise_floor.h"
#include "dumpscope/rank_view.h"
#include "dumpscope/result_cache.h"

#include <QMetaObject>

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

struct AnalysisWorker::Job : BackgroundJob {
    quint64 sequence = 0;
    std::filesystem::path runA, runB;
    dumpscope::AnalyzeOptions options;
    std::vector<std::filesystem::path> floorRuns; // reruns of run A's build, or none
    SnapshotPacer::Clock::duration shareSpacing{};
    // Set while a progress snapshot is queued for the GUI; the next one waits for it.
    std::atomic<bool> snapshotInFlight{false};
};

namespace {

// Process-wide, so that a snapshot's `since` can only name a snapshot of the same analysis.
std::atomic<std::uint64_t> g_lastSerial{0};

// planSerial: that of the analysis' planned snapshot, or 0 for the planned one itself.
std::shared_ptr<AnalysisSnapshot> makeSnapshot(std::shared_ptr<const dumpscope::Analysis> analysis,
                                               std::size_t nDone, std::size_t total, bool finished,
                                               std::uint64_t planSerial) {
    auto snapshot = std::make_shared<AnalysisSnapshot>();
    snapshot->analysis = std::move(analysis);
    snapshot->nDone = nDone;
    snapshot->total = total;
    snapshot->finished = finished;
    snapshot->serial = ++g_lastSerial;
    snapshot->planSerial = planSerial ? planSerial : snapshot->serial;
    return snapshot;
}

// The live analysis the progress snapshots are taken of, on the job's thread. Each snapshot is
// a copy of it, which shares every chunk of buffers and matrix rows with the previous one
// but those written since; the matrix is brought up to date for the buffers compared since.
class LiveAnalysis {
  public:
    explicit LiveAnalysis(dumpscope::Analysis planned)
        : m_live(std::move(planned)),
          m_names(std::make_shared<const QStringList>(sortedBufferNames(m_live))) {
        if (m_live.ranked) m_ranks = dumpscope::rankOverview(m_live);
    }
    std::size_t size() const { return m_live.buffers.size(); }

    void setCompared(std::size_t index, const dumpscope::BufferResult& result) {
        // The results are of the plan the live analysis is a copy of: same buffers, same order.
        if (index >= m_live.buffers.size()) return;
        const dumpscope::BufferResult& planned = std::as_const(m_live.buffers)[index];
        if (!planned.pending || planned.step != result.step || planned.name != result.name) return;
        m_live.buffers[index] = result;
        m_compared.push_back(index);
    }

    SnapshotPtr snapshot(std::size_t nDone, std::size_t total) {
        SnapshotChanges changes;
        changes.since = m_lastSerial;
        changes.cells = m_summary.compared(m_live, m_compared);
        if (m_ranks) dumpscope::markCompared(*m_ranks, m_live, m_compared);
        std::sort(m_compared.begin(), m_compared.end());
        changes.buffers = std::exchange(m_compared, {});
        auto snapshot = makeSnapshot(releasedOffThread(m_live), nDone, total, false, m_planSerial);
        snapshot->bufferNames = m_names;
        if (m_ranks)
            snapshot->rankOverview = std::make_shared<const dumpscope::RankOverview>(*m_ranks);
        if (m_lastSerial != 0) snapshot->changes = std::move(changes);
        m_lastSerial = snapshot->serial;
        m_planSerial = snapshot->planSerial;
        return snapshot;
    }
    std::uint64_t planSerial() const { return m_planSerial; }
    // Once the last snapshot is out: the live copy's chunks that no snapshot shares are freed
    // on the release thread, not on this one while the window shows the verdict.
    void release() { releaseOffThread(std::exchange(m_live, {})); }
    // The plan's buffer names, for the final snapshot too: the same buffers.
    const std::shared_ptr<const QStringList>& names() const { return m_names; }

  private:
    dumpscope::Analysis m_live;
    std::shared_ptr<const QStringList> m_names;
    // The window shows the root cause and the culprits once the analysis is finished, from the
    // final result; a progress snapshot's verdict needs its first divergent step and exit code.
    dumpscope::LiveSummary m_summary{dumpscope::LiveVerdict::headline};
    std::vector<std::size_t> m_compared;            // since the last snapshot
    std::optional<dumpscope::RankOverview> m_ranks; // of a ranked run, as of m_compared
    std::uint64_t m_lastSerial = 0;
    std::uint64_t m_planSerial = 0; // the first snapshot's, the plan's
};

} // namespace

AnalysisWorker::AnalysisWorker(QObject* parent) : QObject(parent) {
    qRegisterMetaType<SnapshotPtr>();
}

AnalysisWorker::~AnalysisWorker() {
    stopAndJoinAll(m_jobs);
}

quint64 AnalysisWorker::start(const AnalysisRequest& request) {
    stopAll(m_jobs);
    reapExited(m_jobs);
    auto job = std::make_shared<Job>();
    job->sequence = ++m_sequence;
    job->runA = request.runA.toStdString();
    job->runB = request.runB.toStdString();
    job->options = request.analyzeOptions();
    job->options.cache = cacheFor(request.runA, request.runB);
    job->options.keepListing = true; // for the planned snapshot (AnalysisSnapshot::listing)
    job->shareSpacing = m_shareSpacing;
    for (const QString& run : request.floorRuns)
        job->floorRuns.push_back(run.toStdString());
    m_lastRequest = request;
    m_running = true;
    job->thread = std::thread([this, job] { run(job); });
    m_jobs.push_back(job);
    return job->sequence;
}

void AnalysisWorker::cancel() {
    if (!m_running) return;
    stopAll(m_jobs);
    m_running = false;
    // A new sequence number makes whatever the cancelled thread still posts stale at once,
    // so the views never change after the user pressed Cancel.
    const quint64 cancelledSequence = m_sequence++;
    emit cancelled(cancelledSequence);
}

quint64 AnalysisWorker::restart() {
    return m_lastRequest ? start(AnalysisRequest(*m_lastRequest)) : 0;
}

std::shared_ptr<dumpscope::ResultCache> AnalysisWorker::cacheFor(const QString& runA,
                                                                 const QString& runB) {
    constexpr std::size_t kPairsKept = 4; // a cache holds a few KiB per buffer pair
    const std::pair<QString, QString> key{runA, runB};
    auto it = std::find_if(m_caches.begin(), m_caches.end(),
                           [&](const auto& entry) { return entry.first == key; });
    std::shared_ptr<dumpscope::ResultCache> cache =
        it != m_caches.end() ? it->second : std::make_shared<dumpscope::ResultCache>();
    if (it != m_caches.end()) m_caches.erase(it);
    m_caches.emplace_back(key, cache);
    if (m_caches.size() > kPairsKept) m_caches.erase(m_caches.begin());
    return cache;
}

// Runs on the job's own thread. Everything it shares with the GUI goes through queued calls
// carrying immutable snapshots; `this` outlives the thread because the destructor joins it.
void AnalysisWorker::run(std::shared_ptr<Job> job) {
    const quint64 seq = job->sequence;
    auto post = [this, seq](auto fn) {
        QMetaObject::invokeMethod(
            this,
            [this, seq, fn] {
                if (isCurrent(seq)) fn();
            },
            Qt::QueuedConnection);
    };
    try {
        const dumpscope::AnalyzeOptions& options = job->options;
        // The reruns first: each result of the pair is then read against their floor as it
        // comes, so no snapshot shows the known noise as a divergence.
        std::shared_ptr<const dumpscope::NoiseFloor> floor;
        if (!job->floorRuns.empty()) {
            std::vector<dumpscope::Analysis> reruns;
            std::vector<const dumpscope::Analysis*> pointers;
            auto going = [&](std::size_t, const dumpscope::BufferResult&, std::size_t,
                             std::size_t) { return !job->stop.load(); };
            for (const auto& run : job->floorRuns) {
                reruns.push_back(dumpscope::analyze(job->runA, run, options, going));
                const dumpscope::Analysis& an = reruns.back();
                if (job->stop || an.cancelled) {
                    post([this, seq] {
                        m_running = false;
                        emit cancelled(seq);
                    });
                    job->exited = true;
                    return;
                }
                if (!an.errorA.empty() || !an.errorB.empty()) {
                    const QString message =
                        QStringLiteral("noise floor rerun %1: %2")
                            .arg(QString::fromStdString(run.string()),
                                 QString::fromStdString(an.errorB.empty() ? an.errorA : an.errorB));
                    post([this, seq, message] {
                        m_running = false;
                        emit failed(seq, message);
                    });
                    job->exited = true;
                    return;
                }
            }
            for (const auto& an : reruns)
                pointers.push_back(&an);
            floor =
                std::make_shared<const dumpscope::NoiseFloor>(dumpscope::buildNoiseFloor(pointers));
        }
        // One plan, one scan of the runs: the live analysis shows a copy of it while
        // analyzePlanned() compares the plan itself.
        dumpscope::Analysis pairPlan = dumpscope::plan(job->runA, job->runB, options);
        // The runs' listing goes out with the planned snapshot alone (AnalysisSnapshot::listing).
        auto listing = std::exchange(pairPlan.listing, nullptr);
        dumpscope::Analysis skeleton = pairPlan;
        skeleton.noiseFloor = floor;
        LiveAnalysis live(std::move(skeleton));
        const auto planStart = SnapshotPacer::Clock::now();
        auto withListing = std::make_shared<AnalysisSnapshot>(*live.snapshot(0, live.size()));
        withListing->listing = std::move(listing);
        withListing->listedAt = pairPlan.listedAt;
        const SnapshotPtr first = std::move(withListing);
        SnapshotPacer pacer(live.size(), planStart, job->shareSpacing);
        pacer.taken(planStart, SnapshotPacer::Clock::now());
        post([this, seq, first] { emit planned(seq, first); });

        auto progress = [&](std::size_t index, const dumpscope::BufferResult& result,
                            std::size_t doneCount, std::size_t totalCount) {
            if (job->stop) return false;
            if (floor && dumpscope::becomesWithinFloor(*floor, result, options.verdictTolerance)) {
                dumpscope::BufferResult within = result;
                within.status = dumpscope::Status::within_floor;
                live.setCompared(index, within);
            } else {
                live.setCompared(index, result);
            }
            pacer.compared();
            const auto now = SnapshotPacer::Clock::now();
            if (pacer.due(now) && !job->snapshotInFlight.exchange(true)) {
                auto snapshot = live.snapshot(doneCount, totalCount);
                pacer.taken(now, SnapshotPacer::Clock::now());
                post([this, seq, snapshot, job] {
                    job->snapshotInFlight = false;
                    emit progressed(seq, snapshot);
                });
            }
            return !job->stop.load();
        };
        dumpscope::Analysis result =
            dumpscope::analyzePlanned(std::move(pairPlan), options, progress);
        if (floor && !result.cancelled) dumpscope::applyNoiseFloor(result, floor);
        if (job->stop || result.cancelled) {
            post([this, seq] {
                m_running = false;
                emit cancelled(seq);
            });
        } else {
            const std::size_t n = result.buffers.size();
            auto final =
                makeSnapshot(releasedOffThread(std::move(result)), n, n, true, live.planSerial());
            final->bufferNames = live.names();
            if (final->analysis->ranked)
                final->rankOverview = std::make_shared<const dumpscope::RankOverview>(
                    dumpscope::rankOverview(*final->analysis));
            post([this, seq, final] {
                m_running = false;
                emit finished(seq, final);
            });
            live.release();
        }
    } catch (const std::exception& e) {
        const QString message = QString::fromStdString(e.what());
        post([this, seq, message] {
            m_running = false;
            emit failed(seq, message);
        });
    }
    job->exited = true;
}

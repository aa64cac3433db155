#include "analysis_worker.h"
#include "background_job.h"

#include "dumpscope/analyze.h"
#include "dumpscope/result_cache.h"

#include <QMetaObject>

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <thread>

struct AnalysisWorker::Job : BackgroundJob {
    quint64 sequence = 0;
    std::filesystem::path runA, runB;
    dumpscope::AnalyzeOptions options;
    // Set while a progress snapshot is queued for the GUI; the next one waits for it.
    std::atomic<bool> snapshotInFlight{false};
};

namespace {

SnapshotPtr makeSnapshot(const dumpscope::Analysis& live, std::size_t nDone, std::size_t total,
                         bool finished) {
    auto analysis = std::make_shared<dumpscope::Analysis>(live);
    // Rebuilds the matrix from the buffers compared so far; the others are still pending.
    if (!finished) dumpscope::summarize(*analysis);
    auto snapshot = std::make_shared<AnalysisSnapshot>();
    snapshot->analysis = std::move(analysis);
    snapshot->nDone = nDone;
    snapshot->total = total;
    snapshot->finished = finished;
    return snapshot;
}

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
        dumpscope::Analysis live = dumpscope::plan(job->runA, job->runB, options);
        std::size_t nDone = 0, total = live.buffers.size();
        auto first = makeSnapshot(live, 0, total, false);
        post([this, seq, first] { emit planned(seq, first); });

        auto progress = [&](std::size_t index, const dumpscope::BufferResult& result,
                            std::size_t doneCount, std::size_t totalCount) {
            if (job->stop) return false;
            // plan() and analyze() list the buffers in the same order; the check guards against
            // a directory that changed between the two scans (the final snapshot is exact anyway).
            if (index < live.buffers.size() && live.buffers[index].step == result.step &&
                live.buffers[index].name == result.name) {
                live.buffers[index] = result;
            }
            nDone = doneCount;
            total = totalCount;
            if (!job->snapshotInFlight.exchange(true)) {
                auto snapshot = makeSnapshot(live, nDone, total, false);
                post([this, seq, snapshot, job] {
                    job->snapshotInFlight = false;
                    emit progressed(seq, snapshot);
                });
            }
            return !job->stop.load();
        };
        dumpscope::Analysis result = dumpscope::analyze(job->runA, job->runB, options, progress);
        if (job->stop || result.cancelled) {
            post([this, seq] {
                m_running = false;
                emit cancelled(seq);
            });
        } else {
            const std::size_t n = result.buffers.size();
            auto final = makeSnapshot(result, n, n, true);
            post([this, seq, final] {
                m_running = false;
                emit finished(seq, final);
            });
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

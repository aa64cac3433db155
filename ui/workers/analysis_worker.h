#pragma once

#include "workers/analysis_request.h"
#include "workers/analysis_snapshot.h"
#include "workers/snapshot_pacer.h"

#include <QObject>
#include <QString>

#include <chrono>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace dumpscope {
class ResultCache;
}

// Plans the pair (dumpscope::plan) and compares that plan (analyzePlanned) off the GUI thread,
// publishing snapshots as buffers finish.
// Starting a new analysis cancels the previous one; every signal carries the sequence number of
// the analysis it belongs to, and results of anything but the latest are dropped here, so a
// receiver never sees a superseded or cancelled analysis' cells.
class AnalysisWorker : public QObject {
    Q_OBJECT
  public:
    explicit AnalysisWorker(QObject* parent = nullptr);
    ~AnalysisWorker() override; // cancels everything and waits for the threads

    // Returns the new analysis' sequence number.
    quint64 start(const AnalysisRequest& request);
    // Starts the last request again (the watched runs changed): with the pair's cache, only new
    // or changed files are read. Returns 0 when nothing was started yet.
    quint64 restart();
    // The result cache of a pair, made on first use; the last few pairs keep theirs, so reloading
    // or re-opening one reads only the files whose size or modification time changed.
    std::shared_ptr<dumpscope::ResultCache> cacheFor(const QString& runA, const QString& runB);
    // Stops the current analysis as soon as the core checks its callback; emits cancelled().
    void cancel();
    bool isRunning() const { return m_running; }
    quint64 sequence() const { return m_sequence; }
    // The least time between two progress snapshots that each show a share of the run
    // (SnapshotPacer::kShareSpacing unless set), for the analyses started from now on. Zero shows
    // every share however fast it was compared: what a test of the snapshots' contents needs.
    void setShareSpacing(std::chrono::milliseconds spacing) { m_shareSpacing = spacing; }

  signals:
    // The skeleton from plan(): every step and buffer, nothing compared yet.
    void planned(quint64 sequence, SnapshotPtr snapshot);
    // Some buffers finished since the last snapshot. Throttled: a new one is built only after
    // the GUI took the previous one, so a slow GUI never queues up copies, and only when
    // SnapshotPacer says it is due, so snapshots cost a bounded share of the analysis.
    void progressed(quint64 sequence, SnapshotPtr snapshot);
    void finished(quint64 sequence, SnapshotPtr snapshot);
    void cancelled(quint64 sequence);
    void failed(quint64 sequence, QString message);

  private:
    struct Job;
    void run(std::shared_ptr<Job> job);
    // Called on the GUI thread: true when `sequence` is still the analysis we want.
    bool isCurrent(quint64 sequence) const { return sequence == m_sequence; }

    quint64 m_sequence = 0;
    bool m_running = false;
    std::chrono::milliseconds m_shareSpacing{
        std::chrono::duration_cast<std::chrono::milliseconds>(SnapshotPacer::kShareSpacing)};
    std::vector<std::shared_ptr<Job>> m_jobs; // current and cancelled ones still unwinding
    std::optional<AnalysisRequest> m_lastRequest;
    // By (run A, run B), least recently used first.
    std::vector<std::pair<std::pair<QString, QString>, std::shared_ptr<dumpscope::ResultCache>>>
        m_caches;
};

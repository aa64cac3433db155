#pragma once

#include "workers/background_job.h"
#include "workers/pass_job.h"

#include "dumpscope/buffer_source.h"
#include "dumpscope/diff_index.h"
#include "dumpscope/result.h"

#include <QPoint>
#include <QRect>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QLabel;
class QObject;
class QWidget;

// The buffer pair a map panel (the divergence map, the value heatmaps) computes a pass over, and
// the threads computing it. Both panels take a buffer alike: a newer snapshot of the same,
// unchanged pair keeps what was computed; a pair taken while the panel is hidden is computed once
// it is shown; what a pass of a pair no longer wanted still posts is dropped (a sequence number);
// the threads are joined when the pass goes, with its panel.
class BufferPass {
  public:
    BufferPass() = default;
    BufferPass(const BufferPass&) = delete;
    BufferPass& operator=(const BufferPass&) = delete;
    ~BufferPass(); // stops and joins its threads

    // Takes `buffer` of `analysis` as the pair to compute, to be started (waiting() is then
    // true); false when it is the pair taken already.
    bool take(const dumpscope::Analysis& analysis, const dumpscope::BufferResult& buffer);
    // Forgets the pair, so that the next take() is new, and stops its pass.
    void forget();
    // What a running pass still posts is stale from now on.
    void stop();

    const QString& name() const { return m_name; }
    const std::vector<std::uint64_t>& shape() const { return m_shape; }
    bool waiting() const { return m_waiting; } // taken, not started: computed when shown

    // Starts compute(a, b, dtype, shape, progress) -> Result on a thread, stopping any earlier
    // pass; onPercent(int) and onDone(shared_ptr<const Result>) run on `owner`'s thread while
    // this pass is the current one.
    template <typename Result, typename Compute, typename OnPercent, typename OnDone>
    void start(QObject* owner, Compute compute, OnPercent onPercent, OnDone onDone) {
        stop();
        reapExited(m_jobs);
        m_waiting = false;
        auto job = std::make_shared<BackgroundJob>();
        const quint64 seq = m_sequence;
        startPassJob<Result>(
            owner, job,
            [compute, a = m_sourceA, b = m_sourceB, dtype = m_dtype,
             shape = m_shape](const dumpscope::ScanProgressFn& progress) {
                return compute(a, b, dtype, shape, progress);
            },
            [this, seq, onPercent](int percent) {
                if (seq == m_sequence) onPercent(percent);
            },
            [this, seq, onDone](std::shared_ptr<const Result> result) {
                if (seq != m_sequence) return;
                reapExited(m_jobs);
                onDone(std::move(result));
            });
        m_jobs.push_back(job);
    }

  private:
    QString m_key, m_name;
    dumpscope::BufferSource m_sourceA, m_sourceB;
    dumpscope::DType m_dtype = dumpscope::DType::f32;
    std::vector<std::uint64_t> m_shape;
    bool m_waiting = false;
    quint64 m_sequence = 0;
    std::vector<std::shared_ptr<BackgroundJob>> m_jobs; // current and stopped ones unwinding
};

// The status line at the top of a map panel, in the panel's layout: wrapped plain text (its
// messages carry file names), the picture painted below it.
QLabel* addMapStatus(QWidget* panel, const QString& objectName);

// A grid of `rows` x `cols` cells drawn over `area`. Cell edges lie at ceil(i x extent / cells),
// so that gridCellAt's floor maps every pixel back to the cell drawn there; both are empty
// outside the grid.
QRect gridCellRect(const QRect& area, quint32 rows, quint32 cols, quint32 row, quint32 col);
std::optional<std::pair<quint32, quint32>> gridCellAt(const QRect& area, quint32 rows, quint32 cols,
                                                      const QPoint& pos);

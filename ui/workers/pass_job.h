#pragma once

// A pass over one buffer pair on a BackgroundJob thread (the divergence map, the value
// heatmaps): the thread computes, posts each new whole percent and then the result back to
// `owner` as queued calls, and stops early once the job's `stop` is set. The callbacks run on
// the owner's thread and check themselves whether their result is still wanted (a sequence
// number); the owner's destructor joins the job, so `owner` outlives the thread.
#include "workers/background_job.h"

#include "dumpscope/diff_index.h"

#include <QMetaObject>
#include <QObject>

#include <cstdint>
#include <memory>
#include <thread>

// compute(ScanProgressFn) returns a Result; onPercent(int) and onDone(shared_ptr<const Result>).
template <typename Result, typename Compute, typename OnPercent, typename OnDone>
void startPassJob(QObject* owner, const std::shared_ptr<BackgroundJob>& job, Compute compute,
                  OnPercent onPercent, OnDone onDone) {
    job->thread = std::thread([owner, job, compute, onPercent, onDone] {
        int lastPercent = -1;
        auto result =
            std::make_shared<const Result>(compute([&](std::uint64_t done, std::uint64_t total) {
                const int percent = total ? int(done * 100 / total) : 100;
                if (percent != lastPercent && !job->stop) {
                    lastPercent = percent;
                    QMetaObject::invokeMethod(
                        owner, [onPercent, percent] { onPercent(percent); }, Qt::QueuedConnection);
                }
                return !job->stop.load();
            }));
        QMetaObject::invokeMethod(
            owner, [onDone, result] { onDone(result); }, Qt::QueuedConnection);
        job->exited = true;
    });
}

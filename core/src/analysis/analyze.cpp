#include "dumpscope/analyze.h"

#include "dumpscope/result_cache.h"

#include "analysis/make_plan.h"
#include "analysis/replicas.h"
#include "compare/compare_sharded.h"
#include "compare/compare_widened.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

namespace dumpscope {

namespace fs = std::filesystem;

Analysis plan(const fs::path& runA, const fs::path& runB, const AnalyzeOptions& options) {
    Analysis an = detail::makePlan(runA, runB, options);
    // On the planning thread: a front end's first lookup of a group would otherwise build the
    // index of a 100,000-group schema on its GUI thread.
    if (an.schema) an.schema->buildLookups();
    summarize(an);
    return an;
}

Analysis analyze(const fs::path& runA, const fs::path& runB, const AnalyzeOptions& options,
                 const ProgressFn& progress) {
    return analyzePlanned(detail::makePlan(runA, runB, options), options, progress);
}

Analysis analyzePlanned(Analysis an, const AnalyzeOptions& options, const ProgressFn& progress) {
    // A plan the caller copied (the window keeps one to show) shares its chunks with `an`; the
    // threads below write distinct elements, which is safe only in chunks `an` alone holds.
    an.buffers.detach();
    const std::size_t total = an.buffers.size();

    std::atomic<std::size_t> next{0};
    std::atomic<bool> stop{false};
    std::size_t done = 0;
    std::mutex progressMutex;
    auto worker = [&] {
        for (;;) {
            if (stop.load(std::memory_order_relaxed)) return;
            const std::size_t i = next.fetch_add(1);
            if (i >= total) return;
            // No copy of `an` exists while the pool runs and its chunks are its own, so taking a
            // slot never replaces one: the threads write distinct elements, as in a vector.
            BufferResult& slot = an.buffers[i];
            if (slot.status == Status::error) { // refused by the plan: nothing to read
                slot.pending = false;
                std::lock_guard lock(progressMutex);
                ++done;
                if (progress && !progress(i, slot, done, total)) stop = true;
                continue;
            }
            CompareOptions compare{options.tolerance, options.roundingThreshold, slot.shape};
            const BufferSource a = sourceA(an, slot), b = sourceB(an, slot);
            // A pair across precisions is read as two types, which the cache does not key.
            BufferResult r =
                slot.shards()
                    ? detail::compareSharded(an.runA, an.runB, *slot.shards(), slot.dtype, compare)
                : slot.precision() ? detail::compareWidened(a, b, *slot.precision(), compare)
                : options.cache    ? options.cache->compare(a, b, slot.dtype, compare)
                                   : compareSources(a, b, slot.dtype, compare);
            r.shape = std::move(slot.shape);
            r.shapeError = std::move(slot.shapeError);
            r.step = slot.step;
            r.group = std::move(slot.group);
            r.name = std::move(slot.name);
            r.fileName = std::move(slot.fileName);
            r.locationA = std::move(slot.locationA);
            r.locationB = std::move(slot.locationB);
            r.loggedA = std::move(slot.loggedA);
            r.loggedB = std::move(slot.loggedB);
            r.inputs = std::move(slot.inputs);
            r.rank = slot.rank;
            r.dumpOrder = slot.dumpOrder;
            r.bitwiseOnly = slot.bitwiseOnly;
            if (!r.reading) r.reading = std::move(slot.reading);
            if (r.bitwiseOnly && (r.kind == Kind::discrete || r.kind == Kind::permuted))
                r.kind = Kind::bitwise; // the bytes of one element are not values of their own
            r.orderSource = slot.orderSource;
            r.pending = false;
            slot = std::move(r);
            std::lock_guard lock(progressMutex);
            ++done;
            if (progress && !progress(i, slot, done, total)) stop = true;
        }
    };
    // Results land in pre-assigned slots, so the output is the same for any thread count.
    unsigned threads =
        options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    threads =
        static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(total, 1)));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
    for (auto& t : pool)
        t.join();

    an.cancelled = stop.load();
    detail::checkReplicas(an, options.replicated);
    summarize(an);
    return an;
}

} // namespace dumpscope

#pragma once

#include "dumpscope/analyze.h"
#include "dumpscope/rank_view.h"
#include "dumpscope/result.h"

#include <QMetaType>
#include <QStringList>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

// What changed from one snapshot of an analysis to the next, so that a model showing the
// earlier one updates the cells and rows that changed instead of all of them.
struct SnapshotChanges {
    std::uint64_t since = 0;                    // AnalysisSnapshot::serial of the earlier one
    std::vector<std::size_t> buffers;           // compared since then, ascending
    std::vector<dumpscope::CellPosition> cells; // matrix cells that changed, in matrix order
};

// One frame of an analysis in flight, immutable once published: the models and panels hold on
// to it while the worker builds the next one, so nothing is ever shared mutably across threads.
// Consecutive snapshots share the chunks of buffers and matrix rows that did not change
// (dumpscope::ChunkedVector), so publishing one costs what changed, not the whole run.
struct AnalysisSnapshot {
    std::shared_ptr<const dumpscope::Analysis> analysis;
    std::size_t nDone = 0;
    std::size_t total = 0;
    bool finished = false; // analyze() returned and was not cancelled: the verdict is final
    // Unique in the process for the worker's snapshots; 0 for any other (nothing is known of
    // what came before it).
    std::uint64_t serial = 0;
    std::optional<SnapshotChanges> changes; // since the previous snapshot of the same analysis
    // The serial of the analysis' planned snapshot: snapshots with the same nonzero planSerial
    // list the same buffers in the same order (of the same plan), whatever they compared since.
    std::uint64_t planSerial = 0;
    // The buffers' names, sorted, each once: listed by the worker once per plan and shared by
    // every snapshot of it, so that the name search never lists a 100,000-buffer run on the GUI
    // thread. Null where a snapshot was made otherwise: the search lists them itself.
    std::shared_ptr<const QStringList> bufferNames;
    // A ranked analysis' steps × ranks overview (dumpscope::rankOverview), made by the worker: it
    // keeps one up to date as results come (dumpscope::markCompared), so that no snapshot of a run
    // of many ranks walks its buffers on the GUI thread. Null for a run without ranks, and where a
    // snapshot was made otherwise: the rank panel makes it itself.
    std::shared_ptr<const dumpscope::RankOverview> rankOverview;
    // The planned snapshot's alone: both runs' files as the plan listed them, and when
    // (dumpscope::Analysis::listing), for the window's watcher to take as its baseline. Null in
    // every other snapshot: nothing else needs them, and they are as large as the run's file list.
    std::shared_ptr<const dumpscope::PairListing> listing;
    std::chrono::steady_clock::time_point listedAt{};

    // Compared yet: until then a buffer's status is plan()'s placeholder, not a result.
    bool isDone(std::size_t bufferIndex) const {
        return bufferIndex < analysis->buffers.size() && !analysis->buffers[bufferIndex].pending;
    }
    // The changes from `previous` to this snapshot, or null when they are not known (another
    // analysis, a snapshot skipped, or the final one): then everything may have changed.
    const SnapshotChanges* changesSince(const AnalysisSnapshot* previous) const {
        return previous && previous->serial != 0 && changes && changes->since == previous->serial
                   ? &*changes
                   : nullptr;
    }
};

using SnapshotPtr = std::shared_ptr<const AnalysisSnapshot>;
Q_DECLARE_METATYPE(SnapshotPtr)

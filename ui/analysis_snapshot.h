#pragma once

#include "dumpscope/result.h"

#include <QMetaType>

#include <cstddef>
#include <memory>
#include <vector>

// One frame of an analysis in flight, immutable once published: the models and panels hold on
// to it while the worker builds the next one, so nothing is ever shared mutably across threads.
struct AnalysisSnapshot {
    std::shared_ptr<const dumpscope::Analysis> analysis;
    // Per entry of analysis->buffers: compared yet. Until then its status is plan()'s placeholder
    // and must not be shown as a result.
    std::vector<bool> done;
    std::size_t nDone = 0;
    std::size_t total = 0;
    bool finished = false; // analyze() returned and was not cancelled: the verdict is final

    bool isDone(std::size_t bufferIndex) const {
        return finished || (bufferIndex < done.size() && done[bufferIndex]);
    }
};

using SnapshotPtr = std::shared_ptr<const AnalysisSnapshot>;
Q_DECLARE_METATYPE(SnapshotPtr)

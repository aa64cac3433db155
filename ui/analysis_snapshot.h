#pragma once

#include "dumpscope/result.h"

#include <QMetaType>

#include <cstddef>
#include <memory>

// One frame of an analysis in flight, immutable once published: the models and panels hold on
// to it while the worker builds the next one, so nothing is ever shared mutably across threads.
struct AnalysisSnapshot {
    std::shared_ptr<const dumpscope::Analysis> analysis;
    std::size_t nDone = 0;
    std::size_t total = 0;
    bool finished = false; // analyze() returned and was not cancelled: the verdict is final

    // Compared yet: until then a buffer's status is plan()'s placeholder, not a result.
    bool isDone(std::size_t bufferIndex) const {
        return bufferIndex < analysis->buffers.size() && !analysis->buffers[bufferIndex].pending;
    }
};

using SnapshotPtr = std::shared_ptr<const AnalysisSnapshot>;
Q_DECLARE_METATYPE(SnapshotPtr)

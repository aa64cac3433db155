#pragma once

#include "workers/analysis_snapshot.h"

#include "dumpscope/result.h"

#include <QEvent>
#include <QObject>
#include <QWidget>

#include <filesystem>

class MainWindow;

namespace dumpscope::uitest {

// A small pair in the default schema's layout with one cell of each kind:
//   step 0: everything equal, plus an unclassified file (the "other" column);
//   step 1: H diverges by about 1e-7 (first divergent step, root cause), I one-sided (A only);
//   step 2: H diverges by 10, K malformed in B (error);
// G is equal at every step. Writes DIR/a and DIR/b.
void writeMixedPair(const std::filesystem::path& dir);

// `steps` steps of every default-schema buffer, `elements` floats each, B differing from
// step 1 on: enough files that an analysis is still running when the test cancels it.
void writeLargePair(const std::filesystem::path& dir, int steps, std::size_t elements);

// A finished snapshot of `analysis`, as the worker publishes it.
SnapshotPtr finishedSnapshot(Analysis analysis);
// plan()'s skeleton, nothing compared.
SnapshotPtr plannedSnapshot(Analysis analysis);

// Waits (event loop running) until the window's analysis finished; false on timeout.
bool waitForFinished(MainWindow& window);

// Counts the paint events a widget receives.
class PaintCounter : public QObject {
  public:
    explicit PaintCounter(QWidget* widget) { widget->installEventFilter(this); }
    int count = 0;

  protected:
    bool eventFilter(QObject*, QEvent* event) override {
        if (event->type() == QEvent::Paint) ++count;
        return false;
    }
};

} // namespace dumpscope::uitest

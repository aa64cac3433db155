#pragma once

#include "dumpscope/analyze.h"

#include <memory>

// An analysis shared with the GUI whose memory, once its last holder lets go, is freed on a
// thread of its own. The GUI thread drops the previous snapshot each time it takes the next one,
// and a run of 100,000 buffers took it 90 ms to free: a frame stalled for memory nobody waits on.
std::shared_ptr<const dumpscope::Analysis> releasedOffThread(dumpscope::Analysis analysis);
// Frees an analysis nobody shares any more on that thread: the worker's own copy of a finished
// analysis, which it would otherwise free while the window shows the final verdict.
void releaseOffThread(dumpscope::Analysis analysis);

// How many analyses the release thread has freed so far (for tests: it frees them in order).
std::size_t analysesReleasedOffThread();

#pragma once

#include <chrono>
#include <cstddef>

// When the analysis worker publishes its next progress snapshot. A snapshot costs in the size of
// the run, not in what changed since the one before (the verdict, when its headline moves, is
// decided again over every buffer; the old snapshot is freed on the GUI thread), so one per
// finished buffer made an
// analysis quadratic in its buffers. A snapshot is due once the buffers compared since the last
// one are a fair share of the run (kSharesPerRun snapshots per run at most by that rule) and
// kShareSpacing has passed since the last one (a run compared in a blink shows no progress, only
// its final snapshot: the frames cost the GUI thread and the cores the comparison uses), or once
// the time since the last one is both kMinInterval and kCostFactor times what the last one cost:
// snapshots then take at most 1/kCostFactor of the analysis' time, whatever the run's size, and
// a slow run of big buffers still shows its progress every fraction of a second.
class SnapshotPacer {
  public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::size_t kSharesPerRun = 8;
    static constexpr int kCostFactor = 10;
    static constexpr Clock::duration kMinInterval = std::chrono::milliseconds(250);
    static constexpr Clock::duration kShareSpacing = std::chrono::milliseconds(100);

    // `total` buffers to compare; `planned` when the plan's snapshot was taken; `shareSpacing`
    // the least time between two snapshots of a share each.
    SnapshotPacer(std::size_t total, Clock::time_point planned,
                  Clock::duration shareSpacing = kShareSpacing);

    // One more buffer compared.
    void compared() { ++m_since; }
    bool due(Clock::time_point now) const;
    // A snapshot was taken from `start` to `end`: the next one is counted from there.
    void taken(Clock::time_point start, Clock::time_point end);

  private:
    std::size_t m_share;
    Clock::duration m_shareSpacing;
    std::size_t m_since = 0;
    Clock::time_point m_last;
    Clock::duration m_lastCost{};
};

#pragma once

// When a step of two runs that are still being written is complete enough to compare. The one
// rule that every front end watching a live run follows (dumpscope-cli --watch, the window's
// RunWatcher):
//
//   A step is complete when it has files in both runs and each run is done with it: that run
//   has files of a later step, or the step's files in that run have kept their names, sizes and
//   modification times for the settle interval.
//
// Nothing is read: the rule is judged on listings (scanRun's), so deciding costs a directory
// listing, never a dump's bytes.

#include "dumpscope/scan.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace dumpscope {

// One step's files in run A and in run B (ListedFile, scan.h), in the order the scan found them;
// empty where that run has none.
struct StepListing {
    std::vector<ListedFile> a, b;
    bool operator==(const StepListing&) const = default;
};

// Both runs as listed at one moment.
struct PairListing {
    std::map<std::uint64_t, StepListing> steps; // every step with a file in either run
    std::string errorA, errorB;                 // RunScan::error: a run that could not be listed
    bool operator==(const PairListing&) const = default;
};

PairListing pairListing(const RunScan& a, const RunScan& b);

// Applies the rule to successive listings of a pair. The caller lists (scanRun) and says when
// each listing was taken, on its own steady clock: the class never reads a clock, so what it
// answers depends on the listings and their times alone.
class StepCompletion {
  public:
    using Clock = std::chrono::steady_clock;

    explicit StepCompletion(Clock::duration settle = std::chrono::seconds(1));

    // How long a step's files in a run must keep still for that run to be done with it.
    void setSettle(Clock::duration settle) { m_settle = settle; }
    Clock::duration settle() const { return m_settle; }

    // The next listing, taken at `at` (not before the previous one). A step's settle interval in
    // a run starts at the first listing that shows its files there as they are now.
    void observe(const RunScan& a, const RunScan& b, Clock::time_point at);
    void observe(PairListing listing, Clock::time_point at);
    // The same, kept as it is given (not null): a listing of a long run holds a file entry per
    // step, and whoever listed it may keep it too (the window's plan, its watcher) without a copy.
    void observe(std::shared_ptr<const PairListing> listing, Clock::time_point at);
    // Forgets every listing, as if none had been taken.
    void clear();

    // Whether a listing was taken; the answers below are as of the latest one.
    bool hasListing() const { return m_at.has_value(); }
    const PairListing& latest() const; // empty before the first
    // The latest listing as it was given, to keep without a copy; null before the first.
    const std::shared_ptr<const PairListing>& latestShared() const { return m_latest; }
    std::optional<Clock::time_point> listedAt() const { return m_at; }

    bool isComplete(std::uint64_t step) const;
    std::set<std::uint64_t> completeSteps() const;

    // The earliest time at which a step with files in both runs that is not complete yet becomes
    // complete if nothing changes; nullopt when waiting completes none (each step is complete or
    // in one run only).
    std::optional<Clock::time_point> nextCompletion() const;

    // When the listing as a whole (every step, both runs, whether each could be listed) last
    // changed: the first listing, or the first one that differed from the one before it.
    std::optional<Clock::time_point> lastChange() const { return m_lastChange; }

    // The step's files changed although the listings could not show it (a comparison saw a
    // buffer change while it was read): its settle interval starts again at `at`, in both runs.
    void restart(std::uint64_t step, Clock::time_point at);

  private:
    // When a step's files in run A and in run B were last seen to change.
    using Changed = std::array<Clock::time_point, 2>;

    // The run (0 = A, 1 = B) is done with the step: it has moved on, or its files kept still.
    bool doneIn(int run, std::uint64_t step, const Changed& changed) const;

    Clock::duration m_settle;
    std::shared_ptr<const PairListing> m_latest;        // null before the first listing
    std::map<std::uint64_t, Changed> m_changed;         // the steps of m_latest
    std::array<std::optional<std::uint64_t>, 2> m_last; // each run's newest step in m_latest
    std::optional<Clock::time_point> m_at, m_lastChange;
};

} // namespace dumpscope

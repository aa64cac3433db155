// A snapshot's analysis dropped by its last holder is freed on the release thread, not on the
// thread that dropped it (the GUI thread, in the window), and every one of them is freed.
#include "workers/off_thread_release.h"

#include "dumpscope/schema.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace {

// Analyses that note the thread each one is freed on: an analysis frees its schema with itself,
// being its last holder, and the schema's deleter says where.
struct FreedOn {
    std::mutex mutex;
    std::vector<std::thread::id> threads;

    dumpscope::Analysis analysis() {
        dumpscope::Analysis analysis;
        analysis.schema = std::shared_ptr<const dumpscope::Schema>(
            new dumpscope::Schema, [this](const dumpscope::Schema* s) {
                const std::lock_guard lock(mutex);
                threads.push_back(std::this_thread::get_id());
                delete s;
            });
        return analysis;
    }
};

// Waits, 30 s at most, until the release thread has freed `count` analyses in all.
void waitForReleases(std::size_t count) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (analysesReleasedOffThread() < count && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

} // namespace

TEST(OffThreadRelease, TheLastHolderDoesNotFreeTheAnalysisOnItsOwnThread) {
    FreedOn freed;
    const std::size_t before = analysesReleasedOffThread();
    const int n = 5;
    for (int i = 0; i < n; ++i) {
        auto shared = releasedOffThread(freed.analysis());
        auto second = shared; // two holders: the last one to let go hands it over
        shared.reset();
        second.reset();
    }
    waitForReleases(before + n);
    ASSERT_EQ(analysesReleasedOffThread(), before + n);
    const std::lock_guard lock(freed.mutex);
    ASSERT_EQ(freed.threads.size(), std::size_t(n));
    for (const auto& id : freed.threads)
        EXPECT_NE(id, std::this_thread::get_id());
}

// What nobody shares any more (the worker's own copy of a finished analysis) goes to the same
// thread, not freed by the one that hands it over.
TEST(OffThreadRelease, AnAnalysisHandedOverIsFreedThere) {
    FreedOn freed;
    const std::size_t before = analysesReleasedOffThread();
    releaseOffThread(freed.analysis());
    waitForReleases(before + 1);
    ASSERT_EQ(analysesReleasedOffThread(), before + 1);
    const std::lock_guard lock(freed.mutex);
    ASSERT_EQ(freed.threads.size(), 1u);
    EXPECT_NE(freed.threads[0], std::this_thread::get_id());
}

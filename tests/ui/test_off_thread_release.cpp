// A snapshot's analysis dropped by its last holder is freed on the release thread, not on the
// thread that dropped it (the GUI thread, in the window), and every one of them is freed.
#include "workers/off_thread_release.h"

#include "dumpscope/schema.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

TEST(OffThreadRelease, TheLastHolderDoesNotFreeTheAnalysisOnItsOwnThread) {
    std::mutex mutex;
    std::vector<std::thread::id> freedOn;
    const std::size_t before = analysesReleasedOffThread();
    const int n = 5;
    for (int i = 0; i < n; ++i) {
        dumpscope::Analysis analysis;
        // The schema is freed with the analysis that holds it last: its deleter says where.
        analysis.schema = std::shared_ptr<const dumpscope::Schema>(
            new dumpscope::Schema, [&](const dumpscope::Schema* s) {
                const std::lock_guard lock(mutex);
                freedOn.push_back(std::this_thread::get_id());
                delete s;
            });
        auto shared = releasedOffThread(std::move(analysis));
        auto second = shared; // two holders: the last one to let go hands it over
        shared.reset();
        second.reset();
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (analysesReleasedOffThread() < before + n && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_EQ(analysesReleasedOffThread(), before + n);
    const std::lock_guard lock(mutex);
    ASSERT_EQ(freedOn.size(), std::size_t(n));
    for (const auto& id : freedOn)
        EXPECT_NE(id, std::this_thread::get_id());
}

// What nobody shares any more (the worker's own copy of a finished analysis) goes to the same
// thread, not freed by the one that hands it over.
TEST(OffThreadRelease, AnAnalysisHandedOverIsFreedThere) {
    std::mutex mutex;
    std::vector<std::thread::id> freedOn;
    const std::size_t before = analysesReleasedOffThread();
    dumpscope::Analysis analysis;
    analysis.schema = std::shared_ptr<const dumpscope::Schema>(
        new dumpscope::Schema, [&](const dumpscope::Schema* s) {
            const std::lock_guard lock(mutex);
            freedOn.push_back(std::this_thread::get_id());
            delete s;
        });
    releaseOffThread(std::move(analysis));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (analysesReleasedOffThread() < before + 1 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_EQ(analysesReleasedOffThread(), before + 1);
    const std::lock_guard lock(mutex);
    ASSERT_EQ(freedOn.size(), 1u);
    EXPECT_NE(freedOn[0], std::this_thread::get_id());
}

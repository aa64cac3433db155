#pragma once

// A thread the window starts and may cancel before it ends (an analysis, a divergence map):
// a cancelled job keeps running until it notices `stop`, so its owner keeps it until it has
// `exited`, then joins it. One set of rules for every owner of such jobs.
#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>
#include <vector>

struct BackgroundJob {
    std::atomic<bool> stop{false};   // set by the owner: finish early, post nothing more
    std::atomic<bool> exited{false}; // set by the thread as its last step
    std::thread thread;
};

template <typename Job> void stopAll(const std::vector<std::shared_ptr<Job>>& jobs) {
    for (const auto& job : jobs)
        job->stop = true;
}

// Joins and drops the jobs whose threads have exited; the others are left running.
template <typename Job> void reapExited(std::vector<std::shared_ptr<Job>>& jobs) {
    std::erase_if(jobs, [](const std::shared_ptr<Job>& job) {
        if (!job->exited) return false;
        job->thread.join();
        return true;
    });
}

// For the owner's destructor: stops every job and waits for all of them.
template <typename Job> void stopAndJoinAll(std::vector<std::shared_ptr<Job>>& jobs) {
    stopAll(jobs);
    for (auto& job : jobs)
        if (job->thread.joinable()) job->thread.join();
}

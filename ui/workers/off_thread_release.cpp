#include "workers/off_thread_release.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace {

std::atomic<std::size_t> g_released{0};

// One thread, started on the first release, that frees what it is handed in order. It is never
// stopped: freeing at exit would only delay the exit, and a snapshot released during static
// destruction still has a queue to go to.
class Releaser {
  public:
    static Releaser& instance() {
        static Releaser* releaser = new Releaser; // never destroyed: see above
        return *releaser;
    }
    void release(const dumpscope::Analysis* analysis) {
        {
            const std::lock_guard lock(m_mutex);
            m_queue.push_back(analysis);
        }
        m_wake.notify_one();
    }

  private:
    Releaser() {
        std::thread([this] { run(); }).detach();
    }
    void run() {
        // At the process' priority, not lower: freeing unmaps large blocks under the process'
        // memory-map lock, and a thread starved while it holds that lock holds up the page
        // faults of every other thread, the GUI thread's and the comparison's included.
        for (;;) {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return !m_queue.empty(); });
            const dumpscope::Analysis* analysis = m_queue.front();
            m_queue.pop_front();
            lock.unlock();
            delete analysis;
            g_released.fetch_add(1, std::memory_order_release);
        }
    }

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<const dumpscope::Analysis*> m_queue;
};

} // namespace

std::shared_ptr<const dumpscope::Analysis> releasedOffThread(dumpscope::Analysis analysis) {
    return std::shared_ptr<const dumpscope::Analysis>(
        new dumpscope::Analysis(std::move(analysis)),
        [](const dumpscope::Analysis* a) { Releaser::instance().release(a); });
}

void releaseOffThread(dumpscope::Analysis analysis) {
    Releaser::instance().release(new dumpscope::Analysis(std::move(analysis)));
}

std::size_t analysesReleasedOffThread() {
    return g_released.load(std::memory_order_acquire);
}

// Which path the compare takes: whether the CPU runs AVX2, whether the vector paths may run,
// and the test hooks that switch them off and count the dense blocks (dense_f32.h).
#include "compare/dense_f32.h"

#include <atomic>

namespace dumpscope::detail {

bool cpuHasAvx2() {
#if DUMPSCOPE_HAVE_AVX2
    static const bool has = __builtin_cpu_supports("avx2");
    return has;
#else
    return false;
#endif
}

#if defined(DUMPSCOPE_TEST_HOOKS)
namespace {
std::atomic<bool> g_allowed{true};
std::atomic<std::uint64_t> g_blocks{0};
std::atomic<std::uint64_t> g_thresholdBlocks{0};
std::atomic<std::uint64_t> g_singleBlocks{0};
} // namespace
#endif

bool vectorPathsEnabled() {
#if defined(DUMPSCOPE_TEST_HOOKS)
    if (!g_allowed.load(std::memory_order_relaxed)) return false;
#endif
    return cpuHasAvx2(); // false where the compiler cannot build AVX2
}

#if defined(DUMPSCOPE_TEST_HOOKS)
void setVectorPathsAllowed(bool allowed) {
    g_allowed.store(allowed, std::memory_order_relaxed);
}

std::uint64_t denseF32Blocks() {
    return g_blocks.load(std::memory_order_relaxed);
}

std::uint64_t denseThresholdBlocks() {
    return g_thresholdBlocks.load(std::memory_order_relaxed);
}

std::uint64_t denseSingleBlocks() {
    return g_singleBlocks.load(std::memory_order_relaxed);
}

void countDenseBlock() {
    g_blocks.fetch_add(1, std::memory_order_relaxed);
}

void countSingleBlock() {
    g_singleBlocks.fetch_add(1, std::memory_order_relaxed);
}

void countThresholdBlock() {
    g_thresholdBlocks.fetch_add(1, std::memory_order_relaxed);
}
#endif

} // namespace dumpscope::detail

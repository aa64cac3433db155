// The definitions behind the core's weak test hooks (core/src/compare/dense_f32.h,
// formats/inflate_stream.h, analysis/lookup_count.h, analysis/count_plans.h,
// io/identity_stat_count.h). Linked into
// the core's tests only, so no installed binary carries them.
#include "test_hooks.h"

#include "analysis/count_plans.h"
#include "analysis/lookup_count.h"
#include "compare/dense_f32.h"
#include "formats/inflate_stream.h"
#include "io/identity_stat_count.h"

#include <atomic>

namespace dumpscope::detail {

namespace {
std::atomic<bool> g_allowed{true};
std::atomic<std::uint64_t> g_blocks{0};
std::atomic<std::uint64_t> g_thresholdBlocks{0};
std::atomic<std::uint64_t> g_singleBlocks{0};
std::atomic<std::uint64_t> g_inflatedBytes{0};
std::atomic<std::uint64_t> g_nameLookups{0};
std::atomic<std::uint64_t> g_plans{0};
std::atomic<std::uint64_t> g_identityStats{0};
} // namespace

namespace hooks {
bool vectorPathsAllowed() {
    return g_allowed.load(std::memory_order_relaxed);
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
void countInflatedBytes(std::uint64_t bytes) {
    g_inflatedBytes.fetch_add(bytes, std::memory_order_relaxed);
}
void countNameLookups(std::uint64_t lookups) {
    g_nameLookups.fetch_add(lookups, std::memory_order_relaxed);
}
void countPlan() {
    g_plans.fetch_add(1, std::memory_order_relaxed);
}
void countIdentityStat() {
    g_identityStats.fetch_add(1, std::memory_order_relaxed);
}
} // namespace hooks

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
std::uint64_t inflatedBytes() {
    return g_inflatedBytes.load(std::memory_order_relaxed);
}
std::uint64_t nameLookups() {
    return g_nameLookups.load(std::memory_order_relaxed);
}
std::uint64_t plansMade() {
    return g_plans.load(std::memory_order_relaxed);
}
std::uint64_t identityStats() {
    return g_identityStats.load(std::memory_order_relaxed);
}

} // namespace dumpscope::detail

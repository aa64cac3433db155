// Throughput of the core's compare routine on in-memory buffers (the target: the full
// statistics of an all-divergent float32 pair at >= 1 GB/s of input per core). Bytes processed
// count both sides, as the target does. Single-threaded, and rates are per CPU second (the
// default timing), so "per core" holds even on a loaded machine.
#include "bench_data.h"
#include "dumpscope/stats.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

using dumpscope::DType;

using dumpscope::bench::allDivergent;
using dumpscope::bench::randomFloats;

void run(benchmark::State& state, const std::vector<std::uint32_t>& a,
         const std::vector<std::uint32_t>& b, const dumpscope::Tolerance& tolerance = {}) {
    const std::size_t bytes = a.size() * 4;
    std::uint64_t nDiff = 0;
    for (auto _ : state) {
        const auto stats =
            dumpscope::compareMemory(DType::f32, a.data(), bytes, b.data(), bytes, tolerance);
        nDiff = stats.nDiff;
        benchmark::DoNotOptimize(nDiff);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                            static_cast<std::int64_t>(2 * bytes));
    state.counters["n_diff"] = static_cast<double>(nDiff);
}

// Every element differs by 1-4 ULP: every element takes the detailed path (ULP, |Δ|, decade,
// histograms, kept diffs, multiset hashes).
void BM_AllDivergentF32(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto a = randomFloats(n, 1);
    const auto b = allDivergent(a);
    run(state, a, b);
}

// The same with a tolerance: each difference is also checked against atol/rtol and ULP.
void BM_AllDivergentF32Tolerance(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto a = randomFloats(n, 1);
    const auto b = allDivergent(a);
    dumpscope::Tolerance tolerance;
    tolerance.rtol = 1e-6;
    tolerance.ulp = 2;
    run(state, a, b, tolerance);
}

// Identical sides: the memcmp-per-block fast path plus hashing and the NaN/Inf/scale scan.
void BM_EqualF32(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto a = randomFloats(n, 2);
    const auto b = a;
    run(state, a, b);
}

// 1% of the elements differ, spread out: almost every 1024-element block has a difference, so
// the fast path rarely applies (the equal-heavy pair's large buffers).
void BM_OnePercentF32(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto a = randomFloats(n, 3);
    auto b = a;
    for (std::size_t i = 0; i < n; i += 100)
        b[i] += 1;
    run(state, a, b);
}

// 16 Mi elements: 64 MiB per side, beyond the caches, like a real large buffer.
constexpr std::int64_t kElements = 16 << 20;

} // namespace

BENCHMARK(BM_AllDivergentF32)->Arg(kElements)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AllDivergentF32Tolerance)->Arg(kElements)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EqualF32)->Arg(kElements)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OnePercentF32)->Arg(kElements)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();

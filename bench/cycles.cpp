// dumpscope-bench-cycles: the core's compare routine per element on data that stays in L2,
// in time-stamp-counter ticks (on x86-64; nanoseconds elsewhere), best of many calls. Google
// Benchmark's MB/s (dumpscope-bench-compare) read 64 MiB per side from memory and move with the
// machine's speed by a third from minute to minute; the best call on 256 KiB per side is the
// steadier figure for telling two builds apart: run both builds alternately, several times.
//
// Usage: dumpscope-bench-cycles [--calls N] [--rounds N]
#include "bench_data.h"
#include "dumpscope/stats.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace {

constexpr std::size_t kElements = 64 * 1024; // 256 KiB per side: both sides fit L2

std::uint64_t now() {
#if defined(__x86_64__)
    return __rdtsc();
#else
    return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

struct Case {
    const char* name;
    std::vector<std::uint32_t> b;
};

// The smallest time of `calls` compares of a against c.b, per element.
double bestPerElement(const std::vector<std::uint32_t>& a, const Case& c, int calls) {
    std::uint64_t best = ~std::uint64_t{0};
    for (int k = 0; k < calls; ++k) {
        const std::uint64_t t0 = now();
        const dumpscope::BufferStats s = dumpscope::compareMemory(
            dumpscope::DType::f32, a.data(), a.size() * 4, c.b.data(), c.b.size() * 4);
        best = std::min(best, now() - t0);
        if (s.nA != a.size()) std::abort(); // keeps the result used
    }
    return static_cast<double>(best) / static_cast<double>(a.size());
}

int intArg(const char* s) {
    const int v = std::atoi(s);
    if (v <= 0) {
        std::fprintf(stderr, "dumpscope-bench-cycles: expected a positive number, got '%s'\n", s);
        std::exit(2);
    }
    return v;
}

} // namespace

int main(int argc, char** argv) {
    int calls = 300, rounds = 3;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--calls" && i + 1 < argc)
            calls = intArg(argv[++i]);
        else if (arg == "--rounds" && i + 1 < argc)
            rounds = intArg(argv[++i]);
        else {
            std::fprintf(stderr, "usage: dumpscope-bench-cycles [--calls N] [--rounds N]\n");
            return 2;
        }
    }
    std::vector<std::uint32_t> a(kElements);
    std::uint64_t state = 1;
    for (auto& x : a)
        x = dumpscope::bench::gradientBits(state);
    Case cases[] = {
        {"all-divergent", dumpscope::bench::allDivergent(a)}, {"1%-differing", a}, {"equal", a}};
    for (std::size_t i = 0; i < kElements; ++i) // 1% of the elements, at random places, 1 ULP apart
        if (dumpscope::bench::gradientBits(state) % 100 == 0) cases[1].b[i] = a[i] + 1;
#if defined(__x86_64__)
    const char* unit = "TSC ticks";
#else
    const char* unit = "ns";
#endif
    std::printf("compareMemory, float32, %zu elements per side, best of %d calls, %s per element\n",
                kElements, calls, unit);
    for (int r = 0; r < rounds; ++r) {
        for (const Case& c : cases)
            std::printf("  %s %.2f", c.name, bestPerElement(a, c, calls));
        std::printf("\n");
    }
    return 0;
}

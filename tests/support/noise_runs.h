#pragma once

// Runs with real reduction-order noise, in the default schema's layout: every float32 buffer
// named in `noisy` is, from step 1, a sum of the same float32 terms added in an order shuffled
// by the run's seed, so two runs differ by rounding alone. A run may also hold stale rows: from
// a step on, a quarter of a buffer's rows keep the previous step's values (a real bug).
#include "dumpscope/schema.h"

#include "test_support.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace dumpscope::test {

struct NoiseRunSpec {
    NoiseRunSpec() = default;
    NoiseRunSpec(std::uint32_t orderSeed) : seed(orderSeed) {} // a rerun: noise only
    std::uint32_t seed = 0;                                    // the order the terms are summed in
    std::set<std::string> noisy{"grad_ln_a_gain_per_row"};
    // From this step on, every fourth row of `staleBuffer` holds the previous step's values.
    std::optional<std::uint64_t> staleFrom;
    std::string staleBuffer = "grad_ln_a_gain_per_row";
};

inline constexpr std::size_t kNoiseBatch = 16, kNoiseCols = 32, kNoiseTerms = 64;
inline constexpr std::uint64_t kNoiseSteps = 4;

// Element (row, col) of a buffer at a step: the sum of kNoiseTerms terms of about 1e-3 around a
// mean that moves with the step, in the order `seed` shuffles them to (step 0: always in order).
inline float noisySum(std::uint64_t step, std::size_t buffer, std::size_t row, std::size_t col,
                      std::uint32_t seed) {
    std::mt19937 terms(
        static_cast<std::uint32_t>(step * 1000003u + buffer * 7919u + row * kNoiseCols + col));
    std::normal_distribution<float> term(0.01f * static_cast<float>(step + 1), 1e-3f);
    std::vector<float> t(kNoiseTerms);
    for (auto& v : t)
        v = term(terms);
    if (step > 0) {
        std::mt19937 order(seed * 2654435761u + static_cast<std::uint32_t>(row * kNoiseCols + col));
        std::shuffle(t.begin(), t.end(), order);
    }
    float sum = 0;
    for (float v : t)
        sum += v;
    return sum;
}

// A value that depends on the step and the position only: equal in every run.
inline float exactValue(std::uint64_t step, std::size_t buffer, std::size_t i) {
    return static_cast<float>(step * 100 + buffer) + static_cast<float>(i) / 8.0f;
}

inline void writeNoiseRun(const std::filesystem::path& dir, const NoiseRunSpec& spec) {
    for (std::uint64_t step = 0; step < kNoiseSteps; ++step) {
        std::size_t k = 0;
        for (const auto& g : defaultSchema().groups) {
            for (const auto& b : g.buffers) {
                ++k;
                if (b.dtype == DType::i32) {
                    writeDump(dir, step, b.file, std::vector<std::int32_t>(kNoiseBatch, 1));
                    continue;
                }
                // [batch, *] buffers get kNoiseCols columns, [batch] ones one, the rest 8.
                const std::size_t rows = b.shape.empty() ? 1 : kNoiseBatch;
                const std::size_t cols = b.shape.empty() ? 8 : b.shape.size() > 1 ? kNoiseCols : 1;
                std::vector<float> v(rows * cols);
                for (std::size_t r = 0; r < rows; ++r) {
                    const bool stale = spec.staleFrom && b.name == spec.staleBuffer &&
                                       step >= *spec.staleFrom && r % 4 == 0;
                    const std::uint64_t at = stale ? step - 1 : step;
                    for (std::size_t c = 0; c < cols; ++c)
                        v[r * cols + c] = spec.noisy.count(b.name)
                                              ? noisySum(at, k, r, c, spec.seed)
                                              : exactValue(at, k, r * cols + c);
                }
                writeDump(dir, step, b.file, v);
            }
        }
    }
}

} // namespace dumpscope::test

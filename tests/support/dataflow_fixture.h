#pragma once

// A toy trainer's dumps for the dataflow tests (core, CLI and window): groups G (replay sample),
// H (heads), J (grad_h_t) and I (grad scratch) with G → H → J → I and G → I, each float32
// buffer the sum of 48 terms per element. Run B sums a noisy buffer's terms in a shuffled order
// (real reduction-order noise, a few ULP) and makes a quarter of a stale buffer's elements
// the previous step's (a bug, far beyond rounding).
#include "dumpscope/dtype.h"

#include "test_support.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace dumpscope::test {

struct ToyBuffer {
    const char* group;
    const char* name;
};
inline const std::vector<ToyBuffer>& toyBuffers() {
    static const std::vector<ToyBuffer> buffers{{"G", "sampled_h_t"},
                                                {"G", "sampled_h_tp1"},
                                                {"G", "sampled_rewards"},
                                                {"G", "sampled_log_pi_old"},
                                                {"H", "q_logits"},
                                                {"H", "pi_logits"},
                                                {"J", "grad_h_t_q"},
                                                {"J", "grad_h_t_combined"},
                                                {"I", "cfc_grad_w_in_scratch"},
                                                {"I", "cfc_grad_w_rec_scratch"},
                                                {"I", "grad_ln_a_gain_per_row"}};
    return buffers;
}

// The toy schema: `inputs` declared per buffer name, element types other than f32 per name.
inline std::string toySchemaJson(const std::map<std::string, std::vector<std::string>>& inputs = {},
                                 const std::map<std::string, DType>& dtypes = {}) {
    using Json = nlohmann::ordered_json;
    Json groups = Json::array();
    for (const char* id : {"G", "H", "J", "I"}) {
        Json buffers = Json::array();
        for (const auto& b : toyBuffers()) {
            if (std::string(b.group) != id) continue;
            const auto t = dtypes.find(b.name);
            Json spec = {{"name", b.name},
                         {"file", std::string(1, static_cast<char>(id[0] + 32)) + "_" + b.name},
                         {"dtype", t == dtypes.end() ? "f32" : std::string(dtypeName(t->second))}};
            if (const auto in = inputs.find(b.name); in != inputs.end())
                spec["inputs"] = in->second;
            buffers.push_back(spec);
        }
        groups.push_back({{"id", id}, {"label", std::string(id) + " (toy)"}, {"buffers", buffers}});
    }
    Json doc = {{"name", "toy trainer"}, {"groups", groups}, {"dataflow", Json::array()}};
    for (const auto& [from, to] :
         {std::pair{"G", "H"}, {"G", "J"}, {"H", "J"}, {"G", "I"}, {"J", "I"}})
        doc["dataflow"].push_back(Json::array({from, to}));
    return doc.dump(1);
}

enum class Change { noise, stale };
struct ToyChange {
    std::uint64_t fromStep = 0;
    Change what = Change::noise;
};

// Writes run A and run B of the toy trainer into dir/a and dir/b (64 elements a buffer), and
// the schema into dir/schema.json. Buffers not in `changes` are bitwise equal. A half-precision
// buffer holds its float values rounded to that type; its noise flips the lowest bit.
inline void writeToyPair(const TempDir& dir, const std::map<std::string, ToyChange>& changes,
                         const std::map<std::string, std::vector<std::string>>& inputs = {},
                         const std::map<std::string, DType>& dtypes = {},
                         const std::set<std::uint64_t>& steps = {0, 1, 2, 3}) {
    constexpr std::size_t kElements = 64, kTerms = 48;
    writeText(dir / "schema.json", toySchemaJson(inputs, dtypes));
    const auto values = [&](std::uint64_t step, std::size_t k, bool shuffled) {
        std::vector<float> out(kElements);
        std::mt19937 order(static_cast<unsigned>(step * 131 + k));
        for (std::size_t i = 0; i < kElements; ++i) {
            std::vector<float> terms(kTerms);
            for (std::size_t t = 0; t < kTerms; ++t) // magnitudes over six decades
                terms[t] = static_cast<float>(std::sin(double(step * 7 + k * 13 + i * 31 + t)) *
                                              std::pow(10.0, double(t % 6) - 3));
            if (shuffled) std::shuffle(terms.begin(), terms.end(), order);
            out[i] = std::accumulate(terms.begin(), terms.end(), 0.0f);
        }
        return out;
    };
    for (auto step : steps) {
        for (std::size_t k = 0; k < toyBuffers().size(); ++k) {
            const auto& b = toyBuffers()[k];
            const std::string file =
                std::string(1, static_cast<char>(b.group[0] + 32)) + "_" + b.name;
            std::vector<float> a = values(step, k, false), bv = a;
            const auto change = changes.find(b.name);
            const bool changed = change != changes.end() && step >= change->second.fromStep;
            if (changed && change->second.what == Change::noise) bv = values(step, k, true);
            if (changed && change->second.what == Change::stale && step > 0) {
                const auto before = values(step - 1, k, false);
                for (std::size_t i = 0; i < kElements; i += 4)
                    bv[i] = before[i];
            }
            const auto t = dtypes.find(b.name);
            const DType type = t == dtypes.end() ? DType::f32 : t->second;
            if (type == DType::f32) {
                writeDump(dir / "a", step, file, a);
                writeDump(dir / "b", step, file, bv);
                continue;
            }
            // bf16: a float's top half; f16: 1 + a fraction of the value's magnitude, as bits.
            const auto half = [&](const std::vector<float>& v, bool flip) {
                std::vector<std::uint16_t> out(v.size());
                for (std::size_t i = 0; i < v.size(); ++i) {
                    out[i] =
                        type == DType::bf16
                            ? static_cast<std::uint16_t>(bitsOfFloat(v[i]) >> 16)
                            : static_cast<std::uint16_t>(
                                  0x3C00 | (static_cast<unsigned>(std::fabs(v[i]) * 1000) & 0x3FF));
                    if (flip && i % 8 == 3) out[i] ^= 1;
                }
                return out;
            };
            if (dtypeSize(type) == 1) { // the 8-bit floats: the low byte of the same bits
                const auto low = [](const std::vector<std::uint16_t>& v) {
                    return std::vector<std::uint8_t>(v.begin(), v.end());
                };
                writeDump(dir / "a", step, file, low(half(a, false)));
                writeDump(dir / "b", step, file, low(half(a, changed)));
                continue;
            }
            writeDump(dir / "a", step, file, half(a, false));
            writeDump(dir / "b", step, file, half(a, changed));
        }
    }
}

} // namespace dumpscope::test

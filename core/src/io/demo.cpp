#include "dumpscope/demo.h"

#include "dumpscope/schema.h"

#include <bit>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace dumpscope {

namespace fs = std::filesystem;

namespace {

// A tiny deterministic generator: the demo's bytes must be the same on every machine.
struct XorShift {
    std::uint64_t s;
    explicit XorShift(std::uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
    std::uint64_t next() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return s;
    }
    // Uniform in [-1, 1), from the top 24 bits: exact in float.
    float uniform() {
        return static_cast<float>(static_cast<std::int64_t>(next() >> 40) - (1 << 23)) / (1 << 23);
    }
};

// Element counts as in the real H200 samples (batch 64, hidden 32).
const std::map<std::string, std::size_t> kElements = {
    {"sampled_h_t", 2048},
    {"sampled_h_tp1", 2048},
    {"sampled_actions", 64},
    {"sampled_rewards", 64},
    {"sampled_dones", 64},
    {"sampled_log_pi_old", 64},
    {"q_logits", 512},
    {"pi_logits", 512},
    {"v_pred", 64},
    {"iqn_q_values", 4096},
    {"dueling_q_composed", 512},
    {"cfc_grad_w_in_scratch", 32768},
    {"cfc_grad_w_rec_scratch", 65536},
    {"cfc_grad_b_scratch", 2048},
    {"cfc_grad_tau_scratch", 2048},
    {"vsn_grad_w_scratch", 16384},
    {"vsn_grad_b_scratch", 1024},
    {"attn_grad_q_scratch", 2048},
    {"outcome_labels", 64},
    {"outcome_w", 128},
    {"outcome_b", 4},
};

std::size_t elementsOf(const std::string& name) {
    auto it = kElements.find(name);
    return it != kElements.end() ? it->second : 2048; // grad_ln_* and grad_h_t_*: 64 x 32
}

// How run B departs from run A: a noisy Q head from step 1 (few-ULP differences that reach
// grad_h_t and the encoder scratches in the same step), growing with every later step.
struct Noise {
    double fraction = 0; // share of elements touched
    int maxUlp = 0;
};

Noise noiseFor(std::uint64_t step, const std::string& group, const std::string& name) {
    if (step == 0 || group == "K") return {};
    const int growth = step == 1 ? 1 : step == 2 ? 16 : 256;
    if (group == "H") return name == "q_logits" || step > 1 ? Noise{0.4, 3 * growth} : Noise{};
    if (group == "J")
        return name == "grad_h_t_q" || name == "grad_h_t_combined" || step > 1
                   ? Noise{0.5, 4 * growth}
                   : Noise{};
    if (group == "I") return {0.5, 6 * growth};
    if (group == "G" && step > 1)
        return name == "sampled_actions" ? Noise{0.05, 1} : Noise{0.3, 2 * growth};
    return {};
}

// What the last failed system call said, for a message; "" when it set no errno.
std::string osError() {
    return errno ? std::string(": ") + std::strerror(errno) : std::string();
}

void writeFile(const fs::path& path, const std::vector<std::uint32_t>& words) {
    errno = 0;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot create the demo file " + path.string() + osError());
    out.write(reinterpret_cast<const char*>(words.data()),
              static_cast<std::streamsize>(words.size() * sizeof(std::uint32_t)));
    out.close(); // a full disk may only tell on the last write
    if (!out) throw std::runtime_error("cannot write the demo file " + path.string() + osError());
}

} // namespace

void makeDemo(const fs::path& dir) {
    const fs::path a = dir / "a", b = dir / "b";
    for (const fs::path* run : {&a, &b}) {
        std::error_code ec;
        fs::create_directories(*run, ec);
        if (ec)
            throw std::runtime_error("cannot create the demo run directory " + run->string() +
                                     ": " + ec.message());
        if (!fs::is_directory(*run, ec))
            throw std::runtime_error("cannot create the demo run directory " + run->string() +
                                     ": it exists and is not a directory");
    }

    std::uint64_t seed = 1;
    for (std::uint64_t step = 0; step < 4; ++step) {
        for (const auto& group : defaultSchema().groups) {
            for (const auto& buffer : group.buffers) {
                XorShift rng(++seed);
                const std::size_t n = elementsOf(buffer.name);
                std::vector<std::uint32_t> wa(n), wb;
                const bool isInt = buffer.dtype == DType::i32;
                for (auto& w : wa) {
                    if (isInt)
                        w = static_cast<std::uint32_t>(rng.next() % 18); // actions / labels
                    else
                        w = std::bit_cast<std::uint32_t>(rng.uniform() *
                                                         (group.id == "I" ? 0.01f : 1.0f));
                }
                wb = wa;
                const Noise noise = noiseFor(step, group.id, buffer.name);
                for (auto& w : wb) {
                    if (noise.maxUlp == 0 ||
                        static_cast<double>(rng.next() % 1000) >= noise.fraction * 1000)
                        continue;
                    const auto k = static_cast<std::uint32_t>(
                        1 + rng.next() % static_cast<std::uint64_t>(noise.maxUlp));
                    if (isInt)
                        w = (w + k) % 18;
                    else
                        w = ((rng.next() & 1) && (w & 0x7fffffffu) > k)
                                ? w - k
                                : w + k; // a few ULP either way
                }
                const std::string file =
                    "step_" + std::to_string(step) + "_" + buffer.file + ".bin";
                writeFile(a / file, wa);
                writeFile(b / file, wb);
            }
        }
    }
}

} // namespace dumpscope

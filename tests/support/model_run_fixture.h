#pragma once

// Runs of a small GPT-style model as a training loop dumps them without a schema: per step, its
// module outputs in forward order, then its parameters' gradients in backward order, written as
// one safetensors file per step (keys and data in production order) or as one .npy per tensor.
// The core, CLI and window tests read the same pair.
#include "test_support.h"

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace dumpscope::test {

// A step's buffers in production order for a model of `layers` blocks: 199 for 12 blocks.
inline std::vector<std::string> modelBufferNames(int layers) {
    std::vector<std::string> names{"embed"};
    const char* forward[] = {"ln_1", "attn", "ln_2", "mlp.c_fc", "mlp.act", "mlp.c_proj", "mlp"};
    for (int l = 0; l < layers; ++l) {
        const std::string block = "layers." + std::to_string(l);
        for (const char* m : forward)
            names.push_back(block + "." + m);
        names.push_back(block);
    }
    names.insert(names.end(), {"ln_f", "head", "head.weight.grad", "head.bias.grad",
                               "ln_f.weight.grad", "ln_f.bias.grad"});
    const char* grads[] = {"mlp.c_proj.weight.grad", "mlp.c_fc.weight.grad", "ln_2.weight.grad",
                           "ln_2.bias.grad",         "attn.weight.grad",     "ln_1.weight.grad",
                           "ln_1.bias.grad"};
    for (int l = layers - 1; l >= 0; --l)
        for (const char* g : grads)
            names.push_back("layers." + std::to_string(l) + "." + g);
    names.push_back("embed.weight.grad");
    return names;
}

// A safetensors file of f32 tensors of shape [n], in the given order (header and data alike).
inline void
writeSafetensors(const std::filesystem::path& file,
                 const std::vector<std::pair<std::string, std::vector<float>>>& tensors) {
    std::string header = "{";
    std::size_t offset = 0;
    for (const auto& [name, values] : tensors) {
        const std::size_t bytes = values.size() * sizeof(float);
        header += (header.size() > 1 ? "," : "") + std::string("\"") + name +
                  "\":{\"dtype\":\"F32\",\"shape\":[" + std::to_string(values.size()) +
                  "],\"data_offsets\":[" + std::to_string(offset) + "," +
                  std::to_string(offset + bytes) + "]}";
        offset += bytes;
    }
    header += "}";
    while (header.size() % 8)
        header += ' ';
    std::string bytes(8, '\0');
    std::uint64_t length = header.size();
    for (int i = 0; i < 8; ++i)
        bytes[i] = static_cast<char>((length >> (8 * i)) & 0xff);
    bytes += header;
    for (const auto& tensor : tensors)
        bytes.append(reinterpret_cast<const char*>(tensor.second.data()),
                     tensor.second.size() * sizeof(float));
    std::filesystem::create_directories(file.parent_path());
    writeBytes(file, bytes.data(), bytes.size());
}

// A numpy .npy (version 1.0) of f32 values, shape [n].
inline void writeNpy(const std::filesystem::path& file, const std::vector<float>& values) {
    writeNpyFile(file, "<f4", std::to_string(values.size()) + ",", values.data(),
                 values.size() * sizeof(float));
}

// DIR/a and DIR/b, steps 0 … steps-1 as step_<N>.safetensors. From step `from` on, run B's
// `root` is one unit in the last place off, and every buffer produced after it at that step
// differs by more; every buffer differs at the later steps.
inline void writeModelPair(const std::filesystem::path& dir, int layers, int steps, int from,
                           const std::string& root) {
    const auto names = modelBufferNames(layers);
    for (const char* run : {"a", "b"})
        for (int step = 0; step < steps; ++step) {
            std::vector<std::pair<std::string, std::vector<float>>> tensors;
            bool after = false;
            for (std::size_t i = 0; i < names.size(); ++i) {
                std::vector<float> values(8);
                for (std::size_t k = 0; k < values.size(); ++k)
                    values[k] = 0.5f + static_cast<float>(i) * 0.01f + static_cast<float>(k);
                const bool b = run[0] == 'b';
                if (b && step == from && names[i] == root) {
                    std::uint32_t bits = 0;
                    std::memcpy(&bits, &values[3], 4);
                    ++bits;
                    std::memcpy(&values[3], &bits, 4);
                } else if (b && (step > from || (step == from && after))) {
                    values[1] += 0.25f;
                }
                after = after || names[i] == root;
                tensors.emplace_back(names[i], std::move(values));
            }
            writeSafetensors(dir / run / ("step_" + std::to_string(step) + ".safetensors"),
                             tensors);
        }
}

} // namespace dumpscope::test

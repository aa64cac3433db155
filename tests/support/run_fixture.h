#pragma once

// Writes complete runs in the default schema's layout for the analysis tests.
#include "dumpscope/schema.h"

#include "test_support.h"

#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace dumpscope::test {

// Every default-schema buffer at each of `steps`, 8 elements each, identical in A and B.
// Element i of buffer k at step s holds (s * 100 + k) + i / 8.
inline void writeRunPair(const TempDir& dir, const std::set<std::uint64_t>& steps = {0, 1, 2, 3}) {
    for (const char* run : {"a", "b"}) {
        for (auto step : steps) {
            int k = 0;
            for (const auto& g : defaultSchema().groups) {
                for (const auto& b : g.buffers) {
                    ++k;
                    if (b.dtype == DType::i32) {
                        std::vector<std::int32_t> v(8, k);
                        writeDump(dir / run, step, b.file, v);
                    } else {
                        std::vector<float> v(8);
                        for (int i = 0; i < 8; ++i)
                            v[static_cast<std::size_t>(i)] =
                                static_cast<float>(step * 100 + static_cast<std::uint64_t>(k)) +
                                static_cast<float>(i) / 8.0f;
                        writeDump(dir / run, step, b.file, v);
                    }
                }
            }
        }
    }
}

// Flips the lowest bit of element `index` of run B's buffer (a 1-ULP difference).
inline void perturb(const TempDir& dir, std::uint64_t step, const std::string& file,
                    std::size_t index = 3) {
    const auto path = dir / "b" / ("step_" + std::to_string(step) + "_" + file + ".bin");
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(index * 4));
    char c = 0;
    f.read(&c, 1);
    c = static_cast<char>(c ^ 1);
    f.seekp(static_cast<std::streamoff>(index * 4));
    f.write(&c, 1);
}

} // namespace dumpscope::test

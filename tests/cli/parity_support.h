#pragma once
// Helpers of the parity tests: writing run pairs buffer by buffer from the default schema,
// planting differences in run B, and reading the facts the reference prints.
// Header-only because tests/cli compiles only test_*.cpp.

#include "dumpscope/reference_text.h"
#include "dumpscope/schema.h"

#include "test_support.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dumpscope::parity {

namespace fs = std::filesystem;

// Two run directories (a, b) and the two arguments both tools get; a case may change the
// arguments (a missing directory, an odd spelling of a path).
struct Pair {
    fs::path root, a, b;
    std::string argA, argB;
};

inline const BufferSpec& spec(const std::string& rest) {
    const Schema& schema = defaultSchema();
    auto where = schema.findFile(rest);
    if (!where) throw std::logic_error("no buffer " + rest + " in the default schema");
    return schema.groups[where->first].buffers[where->second];
}

// Deterministic contents that exercise Python's float layouts: signs, magnitudes from 1e-7
// to 1e+17 (positional and exponent repr), and negative int32s.
inline std::vector<std::uint32_t> contentBits(const BufferSpec& s, std::uint64_t step,
                                              std::size_t count) {
    std::vector<std::uint32_t> bits(count);
    std::uint32_t h = static_cast<std::uint32_t>(step * 2654435761u) ^
                      static_cast<std::uint32_t>(std::hash<std::string>{}(s.file));
    for (std::size_t i = 0; i < count; ++i) {
        h = h * 1664525u + 1013904223u;
        if (s.dtype == DType::i32) {
            bits[i] = h; // any int32, negative ones included
        } else {
            const int decade = static_cast<int>((h >> 8) % 25) - 7;
            float v = static_cast<float>((h >> 12) % 100000) / 9973.0f;
            for (int d = 0; d < decade; ++d)
                v *= 10.0f;
            for (int d = 0; d > decade; --d)
                v /= 10.0f;
            if (h & 1u) v = -v;
            std::memcpy(&bits[i], &v, sizeof v);
        }
    }
    return bits;
}

inline fs::path dumpPath(const fs::path& dir, std::uint64_t step, const std::string& rest) {
    return dir / ("step_" + std::to_string(step) + "_" + rest + ".bin");
}

// The same buffer in both runs.
inline void writeBoth(const Pair& p, std::uint64_t step, const std::string& rest,
                      std::size_t count = 48) {
    const auto bits = contentBits(spec(rest), step, count);
    test::writeDump(p.a, step, rest, bits);
    test::writeDump(p.b, step, rest, bits);
}

// Every schema buffer at `step`, equal in both runs; sizes differ between buffers.
inline void writeFullStep(const Pair& p, std::uint64_t step) {
    std::size_t n = 16;
    for (const auto& g : defaultSchema().groups)
        for (const auto& b : g.buffers)
            writeBoth(p, step, b.file, n++);
}

inline std::vector<std::uint32_t> readBits(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::uint32_t> bits(bytes.size() / 4);
    std::memcpy(bits.data(), bytes.data(), bits.size() * 4);
    return bits;
}

// Overwrites element `index` of run B's buffer with `bits` (the file must exist).
inline void setB(const Pair& p, std::uint64_t step, const std::string& rest, std::size_t index,
                 std::uint32_t bits) {
    auto file = dumpPath(p.b, step, rest);
    auto values = readBits(file);
    values.at(index) = bits;
    test::writeArray(file, values);
}
inline void setBFloat(const Pair& p, std::uint64_t step, const std::string& rest, std::size_t index,
                      float v) {
    setB(p, step, rest, index, test::bitsOfFloat(v));
}
// A plain value divergence: run B's element `index` moves by a relative 1e-3.
inline void nudgeB(const Pair& p, std::uint64_t step, const std::string& rest,
                   std::size_t index = 3) {
    auto file = dumpPath(p.b, step, rest);
    const std::uint32_t old = readBits(file).at(index);
    if (spec(rest).dtype == DType::i32) {
        setB(p, step, rest, index, old + 1u);
    } else {
        const float f = test::floatFromBits(old);
        setBFloat(p, step, rest, index, f == 0.0f ? 1e-3f : f * 1.001f);
    }
}

// What the reference's stdout says: its first divergent step and groups (ids by first letter).
struct ReferenceFacts {
    std::optional<std::uint64_t> step;
    std::vector<std::string> groups;
    std::string decisionCase; // dumpscope's name of the branch the reference took; "" if none
};
inline ReferenceFacts parseReference(const std::string& out) {
    ReferenceFacts facts;
    std::smatch m;
    if (std::regex_search(out, m, std::regex(R"(VERDICT \(first divergent step = (\d+)\):)")))
        facts.step = std::stoull(m[1].str());
    if (std::regex_search(out, m, std::regex(R"(  diverged group\(s\): \[([^\]]*)\])"))) {
        const std::string list = m[1].str();
        const std::regex label(R"('([^']*)')");
        for (auto it = std::sregex_iterator(list.begin(), list.end(), label);
             it != std::sregex_iterator(); ++it)
            facts.groups.push_back((*it)[1].str().substr(0, 1));
    }
    // The branch shows as its interpretation text; the order is the reference's.
    namespace rt = reference_text;
    const std::pair<std::string_view, const char*> branches[] = {
        {rt::allEqual(), "all_equal"}, {rt::gOnly(), "g_only"}, {rt::hWithoutG(), "h_without_g"},
        {rt::iDiverges(), "i"},        {rt::jWithoutI(), "j"},  {rt::unexpected(), "unexpected"}};
    for (const auto& [text, name] : branches)
        if (out.find(text) != std::string::npos) {
            facts.decisionCase = name;
            break;
        }
    return facts;
}

// The first executable named `name` on PATH, or empty.
inline fs::path findOnPath(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    std::size_t pos = 0;
    while (pos <= dirs.size()) {
        auto next = dirs.find(':', pos);
        if (next == std::string::npos) next = dirs.size();
        fs::path candidate = fs::path(dirs.substr(pos, next - pos)) / name;
        std::error_code ec;
        if (fs::is_regular_file(candidate, ec)) return candidate;
        pos = next + 1;
    }
    return {};
}

} // namespace dumpscope::parity

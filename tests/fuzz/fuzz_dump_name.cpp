// Fuzzes the dump-file-name parser (every directory entry of a run passes through it) and the
// --shape text parser. A name is accepted exactly when it is step_<canonical decimal that fits
// in 64 bits>_<non-empty rest>.bin, checked here against a naive re-implementation, and an
// accepted name printed back gives the same name.
#include "dumpscope/scan.h"
#include "dumpscope/shape.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace dumpscope;

namespace {

void check(bool ok) {
    if (!ok) std::abort();
}

// Naive: the step's digits must print back as themselves through std::to_string, which rules
// out signs, leading zeros and (with the 20-digit limit and the wrap check) overflow.
bool naiveAccepts(const std::string& name, std::uint64_t& step, std::string& rest) {
    if (name.size() < 5 + 4 || name.rfind("step_", 0) != 0) return false;
    if (name.compare(name.size() - 4, 4, ".bin") != 0) return false;
    const std::string body = name.substr(5, name.size() - 9);
    const auto us = body.find('_');
    if (us == std::string::npos || us == 0 || us > 20 || us + 1 >= body.size()) return false;
    const std::string digits = body.substr(0, us);
    if (digits.find_first_not_of("0123456789") != std::string::npos) return false;
    unsigned __int128 v = 0;
    for (char c : digits)
        v = v * 10 + static_cast<unsigned>(c - '0');
    if (v > UINT64_MAX) return false;
    step = static_cast<std::uint64_t>(v);
    if (std::to_string(step) != digits) return false;
    rest = body.substr(us + 1);
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string name(reinterpret_cast<const char*>(data), size);
    const auto parsed = parseDumpName(name);
    std::uint64_t step = 0;
    std::string rest;
    const bool expected = naiveAccepts(name, step, rest);
    check(parsed.has_value() == expected);
    if (parsed) {
        check(parsed->step == step && parsed->rest == rest);
        check("step_" + std::to_string(parsed->step) + "_" + parsed->rest + ".bin" == name);
    }

    // The same bytes as a --shape value: words only from [A-Za-z0-9_*], none of them "x".
    for (const auto& word : parseShapeText(name)) {
        check(!word.empty() && word != "x");
        for (char c : word)
            check((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                  c == '_' || c == '*');
    }
    return 0;
}

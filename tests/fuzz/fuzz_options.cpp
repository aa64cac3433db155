// Fuzzes the command line's numeric option parsers with any bytes as the value: only an
// OptionError may come out, as one line that names the option; a value taken lies inside its
// range (never NaN or infinite); a step list is ascending, within 64 bits and within the limit
// on selected steps, and each of its steps is taken alone as well.
#include "cli_options.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace dumpscope;

namespace {

void check(bool ok) {
    if (!ok) std::abort();
}

void checkRefusal(const OptionError& e, std::string_view option) {
    const std::string what = e.what();
    check(what.rfind(option, 0) == 0);
    check(what.find('\n') == std::string::npos);
}

void real(std::string_view option, std::string_view text, const RealRange& range) {
    try {
        const double v = parseRealOption(option, text, range);
        check(std::isfinite(v) && v <= range.max && v >= range.min);
        check(range.minIncluded || v > range.min);
    } catch (const OptionError& e) {
        checkRefusal(e, option);
    }
}

void count(std::string_view option, std::string_view text, const CountRange& range) {
    try {
        check(parseCountOption(option, text, range) <= range.max);
    } catch (const OptionError& e) {
        checkRefusal(e, option);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    real("--atol", text, kAtolRange);
    real("--rtol", text, kRtolRange);
    real("--rounding-threshold", text, kRoundingThresholdRange);
    real("--settle", text, kSettleRange);
    count("--ulp", text, kUlpRange);
    count("--until-step", text, kStepRange);
    try {
        const auto steps = parseStepsOption(text);
        check(steps.size() <= kMaxSelectedSteps);
        if (!steps.empty()) {
            const std::string first = std::to_string(*steps.begin());
            check(parseStepsOption(first).size() == 1);
        }
    } catch (const OptionError& e) {
        checkRefusal(e, "--steps");
    }
    return 0;
}

#include "cli_options.h"

#include "cli_terminal.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <system_error>

namespace dumpscope {

namespace {

// The value as typed, for a message: escaped, and cut short so that a pasted megabyte stays one
// readable line.
std::string quoted(std::string_view text) {
    constexpr std::size_t kShown = 40;
    const bool cut = text.size() > kShown;
    return "'" + shown(text.substr(0, cut ? kShown : text.size())) + (cut ? "...'" : "'");
}

[[noreturn]] void refuse(std::string_view option, std::string_view text, std::string_view why,
                         std::string_view words) {
    throw OptionError(std::string(option) + " " + quoted(text) + " " + std::string(why) + ": " +
                      std::string(option) + " takes " + std::string(words));
}

bool allDigits(std::string_view s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// The number spelled by the whole of `text` (decimal, as strtod reads it, without leading
// blanks or '+'); nullopt when it is not one. Beyond double's range: ±infinity, or 0 for a value
// too small to hold.
std::optional<double> realFrom(std::string_view text) {
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (end != text.data() + text.size() ||
        (ec != std::errc{} && ec != std::errc::result_out_of_range))
        return std::nullopt;
    if (ec == std::errc::result_out_of_range) v = std::strtod(std::string(text).c_str(), nullptr);
    return v;
}

} // namespace

double parseRealOption(std::string_view option, std::string_view text, const RealRange& range) {
    const auto v = realFrom(text);
    if (!v || std::isnan(*v)) refuse(option, text, "is not a number", range.words);
    if (!range.contains(*v)) refuse(option, text, "is out of range", range.words);
    return *v;
}

std::uint64_t parseCountOption(std::string_view option, std::string_view text,
                               const CountRange& range) {
    if (!allDigits(text)) {
        const auto v = realFrom(text);
        if (!v || std::isnan(*v)) refuse(option, text, "is not a number", range.words);
        if (*v < 0 || !std::isfinite(*v) || *v > static_cast<double>(range.max))
            refuse(option, text, "is out of range", range.words);
        refuse(option, text, "is not a whole number", range.words);
    }
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{} || end != text.data() + text.size() || !range.contains(v))
        refuse(option, text, "is out of range", range.words);
    return v;
}

std::set<std::uint64_t> parseStepsOption(std::string_view text) {
    constexpr std::string_view kOption = "--steps";
    const std::string words = "a list of step numbers and ranges like 0-3,7 (" +
                              std::string(kStepRange.words) + ", at most " +
                              std::to_string(kMaxSelectedSteps) + " steps)";
    auto number = [&](std::string_view s) {
        if (!allDigits(s)) refuse(kOption, text, "is not a list of steps", words);
        std::uint64_t v = 0;
        if (std::from_chars(s.data(), s.data() + s.size(), v).ec != std::errc{})
            refuse(kOption, text, "holds a step beyond 2^64 - 1", words);
        return v;
    };
    std::set<std::uint64_t> steps;
    std::size_t begin = 0;
    for (;;) {
        const std::size_t comma = text.find(',', begin);
        const std::string_view part =
            text.substr(begin, comma == std::string_view::npos ? text.npos : comma - begin);
        const std::size_t dash = part.find('-');
        const std::uint64_t lo = number(part.substr(0, dash));
        const std::uint64_t hi =
            dash == std::string_view::npos ? lo : number(part.substr(dash + 1));
        if (hi < lo) refuse(kOption, text, "has a range that runs backwards", words);
        if (hi - lo >= kMaxSelectedSteps - steps.size())
            refuse(kOption, text, "selects too many steps", words);
        // Up to `hi` inclusive without ever stepping past it: `s <= hi` holds for ever when hi
        // is the largest step number.
        for (std::uint64_t s = lo;; ++s) {
            steps.insert(s);
            if (s == hi) break;
        }
        if (comma == std::string_view::npos) break;
        begin = comma + 1;
    }
    return steps;
}

AlignMode parseAlignOption(std::string_view text) {
    if (text == "names") return AlignMode::names;
    if (text == "auto") return AlignMode::automatic;
    refuse("--align", text, "is not a way of pairing",
           "names (the same name in both runs) or auto (what is left by production order, type "
           "and shape)");
}

} // namespace dumpscope

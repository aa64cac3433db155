#pragma once

// The command line's numeric option values, parsed from their text here rather than by CLI11's
// conversions: those let NaN through every range check (NaN compares false), turn "1e400" into
// infinity, clamp or wrap integers, and throw std::out_of_range from std::stoull on 20 digits.
// Each value is checked against a range that is also said in words, in --help and in the message;
// the analysis options' ranges are the core's (dumpscope/option_ranges.h), shared with the window.

#include "dumpscope/name_alignment.h"
#include "dumpscope/option_ranges.h"

#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

namespace dumpscope {

// A refused option value; what() is the whole one-line message (without "error: "), naming the
// option and the value as typed (escaped for the terminal).
class OptionError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Step numbers are 64-bit in file names.
inline constexpr CountRange kStepRange{UINT64_MAX, "a step number from 0 to 2^64 - 1"};
// A day: longer than any dump takes to be written, short enough that a typo cannot hang a watch.
inline constexpr RealRange kSettleRange{0, 86400, true, "seconds from 0 to 86400"};
// --steps selects at most this many steps, over all its ranges together.
inline constexpr std::uint64_t kMaxSelectedSteps = 1000000;

// The value of option `option` (e.g. "--atol") from `text`; throws OptionError.
double parseRealOption(std::string_view option, std::string_view text, const RealRange& range);
std::uint64_t parseCountOption(std::string_view option, std::string_view text,
                               const CountRange& range);
// --steps "0-3,5,7" -> {0,1,2,3,5,7}; throws OptionError.
std::set<std::uint64_t> parseStepsOption(std::string_view text);
// --align names|auto; throws OptionError.
AlignMode parseAlignOption(std::string_view text);

} // namespace dumpscope

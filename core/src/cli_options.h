#pragma once

// The command line's numeric option values, parsed from their text here rather than by CLI11's
// conversions: those let NaN through every range check (NaN compares false), turn "1e400" into
// infinity, clamp or wrap integers, and throw std::out_of_range from std::stoull on 20 digits.
// Each value is checked against a range that is also said in words, in --help and in the message.

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

// A finite real number from `min` to `max` (`min` itself refused unless `minIncluded`), and the
// same range in words for the messages: "--NAME takes <words>".
struct RealRange {
    double min, max;
    bool minIncluded;
    std::string_view words;
};
// A whole number from 0 to `max`, and the range in words.
struct CountRange {
    std::uint64_t max;
    std::string_view words;
};

// Tolerances are compared with |A-B| and |B| of float64 values, which overflow past ~1.8e308:
// 1e300 leaves room for atol + rtol*|B| and is far beyond any tolerance that means something.
inline constexpr RealRange kAtolRange{0, 1e300, true, "an absolute tolerance from 0 to 1e300"};
inline constexpr RealRange kRtolRange{0, 1e300, true, "a relative tolerance from 0 to 1e300"};
// ULP distances are 64-bit; past 2^63 the two values are of opposite signs and far apart in any
// type, so a larger N says nothing a smaller one does not.
inline constexpr CountRange kUlpRange{std::uint64_t{1} << 63,
                                      "a whole number of ULP from 0 to 2^63"};
// max|Δ| / max(|A|,|B|) is at most 2 for finite values; a threshold of 1 already calls a
// divergence as large as the values themselves rounding.
inline constexpr RealRange kRoundingThresholdRange{0, 1, false,
                                                   "a ratio greater than 0 and at most 1"};
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

} // namespace dumpscope

#pragma once

// The values an analysis option may take, for every front end alike: the command line refuses a
// value outside these ranges with the range in words, and so does the window's settings dialog.

#include <cmath>
#include <cstdint>
#include <string_view>

namespace dumpscope {

// A finite real number from `min` to `max` (`min` itself refused unless `minIncluded`), and the
// same range in words for the messages.
struct RealRange {
    double min, max;
    bool minIncluded;
    std::string_view words;
    // NaN and ±infinity are never in a range.
    bool contains(double v) const {
        return std::isfinite(v) && v <= max && v >= min && (v != min || minIncluded);
    }
};
// A whole number from 0 to `max`, and the range in words.
struct CountRange {
    std::uint64_t max;
    std::string_view words;
    bool contains(std::uint64_t v) const { return v <= max; }
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

// Dotted names deeper than this are not a module tree anyone browses; 0 lets the plan choose.
inline constexpr CountRange kGroupDepthRange{
    64, "a depth in dotted name components from 1 to 64, or 0 to choose by itself"};

} // namespace dumpscope

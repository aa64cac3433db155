#include "dumpscope/tolerance_to_pass.h"

#include "dumpscope/option_ranges.h"

#include <charconv>
#include <cmath>

namespace dumpscope {

ToleranceToPass toleranceToPass(const BufferStats& s) {
    ToleranceToPass t;
    // NaN on one side (the other a number or Inf) passes no tolerance; NaN on both is counted
    // among the NaN |Δ| too, and passes any.
    if (s.deltaHistogram.nan > s.nanPayloadDiffs) return t;
    // Every |Δ| that is a number is at most max|Δ|, and atol + 0·|B| is atol: with atol = max|Δ|
    // each passes, and below it the largest does not.
    if (kAtolRange.contains(s.maxAbsDelta)) t.atol = s.maxAbsDelta;
    if (kRtolRange.contains(s.rtolToPass)) t.rtol = s.rtolToPass;
    // A signed-zero difference is 1 ULP apart but passes any tolerance, so 1 is needed only
    // when another difference is 1 ULP apart (ULP bin 0 counts both).
    std::uint64_t ulp = s.maxUlp;
    if (ulp == 1 && s.ulpHistogram.counts[0] <= s.signedZeroDiffs) ulp = 0;
    if (kUlpRange.contains(ulp)) t.ulp = ulp;
    return t;
}

std::optional<ToleranceToPass> toleranceToPass(const BufferResult& b) {
    if (b.pending || (b.status != Status::diverge && b.status != Status::within_tolerance))
        return std::nullopt;
    return toleranceToPass(b.stats);
}

std::string toPassValueText(const std::optional<double>& value) {
    if (!value) return "none";
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, *value);
    return std::string(buf, r.ptr);
}

std::string toPassValueText(const std::optional<std::uint64_t>& value) {
    return value ? std::to_string(*value) : "none";
}

std::string toleranceToPassText(const ToleranceToPass& t) {
    return "atol " + toPassValueText(t.atol) + " / rtol " + toPassValueText(t.rtol) + " / ulp " +
           toPassValueText(t.ulp);
}

} // namespace dumpscope

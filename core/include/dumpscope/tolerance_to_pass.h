#pragma once

#include "dumpscope/result.h"
#include "dumpscope/stats.h"

#include <cstdint>
#include <optional>
#include <string>

namespace dumpscope {

// The smallest value of each tolerance option that, given alone, makes a buffer
// within_tolerance: `--atol`, `--rtol` and `--ulp` each on its own, the value read exactly as
// the compare reads it (the same |Δ|, the same rounded rtol·|B|). Each is nullopt when no value
// the option accepts (option_ranges.h) would do: a NaN against a number, an infinite |Δ| (atol,
// rtol), a |B| of 0 where A is not (rtol), or a value beyond the option's range.
struct ToleranceToPass {
    std::optional<double> atol, rtol;
    std::optional<std::uint64_t> ulp;
};

// From the statistics of one compared pair, with no second read: atol is max|Δ|, rtol the
// accumulated BufferStats::rtolToPass, ulp the largest ULP distance of a difference that is not
// +0 against -0 (those pass every tolerance, at 1 ULP). Differences a tolerance always allows
// (NaN against NaN, +0 against -0) need 0 of each.
ToleranceToPass toleranceToPass(const BufferStats& stats);
// For a buffer a tolerance could make within_tolerance (diverge, or within_tolerance already);
// nullopt for any other status and for a buffer not compared.
std::optional<ToleranceToPass> toleranceToPass(const BufferResult& buffer);

// One value as the front ends show it: the shortest decimal that reads back as exactly the
// value (so that it can be typed after the option), or "none".
std::string toPassValueText(const std::optional<double>& value);
std::string toPassValueText(const std::optional<std::uint64_t>& value);
// "atol X / rtol Y / ulp N", as the CLI's buffer line and the reports' tables show it.
std::string toleranceToPassText(const ToleranceToPass& t);

} // namespace dumpscope

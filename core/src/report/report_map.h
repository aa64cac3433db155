#pragma once

// The divergence map of each differing buffer in the HTML report. The report goes back to the
// dump files for them, so what it reads is bounded: a report of thousands of differing buffers
// stays as quick to write, and as small, as one of a few dozen.

#include "dumpscope/result.h"

#include <cstdint>
#include <string>

namespace dumpscope::report {

// Maps are drawn for the first kMaxMaps differing buffers in report order (by step, then schema
// order: the earliest divergences, where the root cause is), each at most kMapGrid × kMapGrid
// cells (a flat buffer a strip of kMapBins), and only while the files read for them stay within
// kMapByteBudget bytes in all.
inline constexpr std::size_t kMaxMaps = 24;
inline constexpr std::uint32_t kMapGrid = 64;
inline constexpr std::uint32_t kMapBins = 128;
inline constexpr std::uint64_t kMapByteBudget = std::uint64_t{2} << 30;

// What is left to spend on maps while one report is written.
struct MapBudget {
    std::size_t maps = kMaxMaps;
    std::uint64_t bytes = kMapByteBudget;
};

// The map of differing buffer `b` of `analysis` (its files under runA and runB) with a line
// saying how to read it; or one line saying why there is none (a file that cannot be read any
// more, the byte budget spent); "" once `budget` has no map left.
std::string htmlDivergenceMap(const Analysis& analysis, const BufferResult& b, MapBudget& budget);

} // namespace dumpscope::report

#pragma once

#include <cstdint>

namespace dumpscope {

// The count axis of a bar chart whose tallest bar is `highest`: the smallest step of 1, 2 or 5
// times a power of ten that reaches `highest` in at most `intervals` steps, and the top, the
// first multiple of it at or above `highest` (at least one step). Whole numbers, so no two tick
// labels read alike. The report's SVG charts and the window's histogram both draw with it.
struct CountAxis {
    std::uint64_t step = 1;
    std::uint64_t top = 1;
};
CountAxis countAxis(std::uint64_t highest, unsigned intervals);

} // namespace dumpscope

#include "dumpscope/chart_axis.h"

#include <algorithm>
#include <limits>

namespace dumpscope {

CountAxis countAxis(std::uint64_t highest, unsigned intervals) {
    const std::uint64_t n = std::max(1u, intervals);
    const std::uint64_t needed = (highest + n - 1) / n; // the least step that gets there
    CountAxis axis;
    for (std::uint64_t power = 1;; power *= 10) {
        for (std::uint64_t m : {1u, 2u, 5u})
            if (power * m >= needed || power > std::numeric_limits<std::uint64_t>::max() / 50) {
                axis.step = power * m;
                axis.top =
                    std::max<std::uint64_t>(1, (highest + axis.step - 1) / axis.step) * axis.step;
                return axis;
            }
    }
}

} // namespace dumpscope

#pragma once

// deltaDecade's lookup table, shared by the scalar compare loop and the AVX2 one.
#include "dumpscope/stats.h"

#include <bit>
#include <cstdint>

namespace dumpscope::detail {

// deltaDecade's table (stats.cpp), per biased exponent of a normal double: the decade of the
// binade's smallest value, and the power of ten inside the binade where the decade steps up
// (+Inf when none is): a binade spans less than a decade.
struct DecadeTable {
    std::int16_t low[2048] = {};
    double step[2048] = {};
    DecadeTable();
    // deltaDecade(x), inlined into the compare loop for positive normal x.
    int decade(double x) const {
        const std::uint64_t e =
            std::bit_cast<std::uint64_t>(x) >> 52; // the sign bit lands above 0x7ff
        return e - 1 < 0x7fe ? low[e] + (x >= step[e]) : deltaDecade(x);
    }
};
const DecadeTable& decadeTable();

// The nearest double of 10^d for d in [kMinDecade, kMaxDecade + 1]: deltaDecade(x) is the
// largest d with x >= tenTo(d) (clamped to the histogram's range).
double tenTo(int d);

} // namespace dumpscope::detail

#pragma once

// Whether an element's raw bits (as loadBits gives them) are NaN or ±Inf, for a DType known only
// at run time. The compare itself asks element_traits.h, per type at compile time; these serve
// the tests' plain per-element references (tests/core/simple_stats.h) and fuzz_compare, which
// is why they are internal rather than in dumpscope/dtype.h.
#include "dumpscope/dtype.h"

#include <cstdint>

namespace dumpscope {

bool bitsIsNan(DType t, std::uint64_t bits); // never for an integer type
bool bitsIsInf(DType t, std::uint64_t bits);

} // namespace dumpscope

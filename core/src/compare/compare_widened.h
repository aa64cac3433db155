#pragma once

#include "dumpscope/analyze.h"
#include "dumpscope/cross_precision.h"

namespace dumpscope::detail {

// Compares two sides the runs hold at different float precisions (`types` says which is which),
// streaming both in chunks: the narrow side is widened exactly and the pair's statistics are
// the wide type's, while the status follows the narrow type's rounding: equal when every wide
// value rounds to its narrow one, else diverge (length_mismatch when the counts differ).
BufferResult compareWidened(const BufferSource& a, const BufferSource& b,
                            const CrossPrecision& types, const CompareOptions& options);

} // namespace dumpscope::detail

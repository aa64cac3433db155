#pragma once
// Whether the two runs' copies of a buffer are one tensor: which side describes it, its element
// identity across formats, and the float precisions a pair is compared across.
#include "dumpscope/cross_precision.h"
#include "dumpscope/result.h"
#include "dumpscope/scan.h"

#include <optional>
#include <string>
#include <utility>

namespace dumpscope::detail {

using FilePair = std::pair<const DumpFile*, const DumpFile*>;

// The side that says most about the buffer (either may be null, not both).
const DumpFile& either(const FilePair& pair);

// The narrow and wide types of a pair compared across precisions; none for a pair of one type.
std::optional<CrossPrecision> acrossPrecisions(const FilePair& pair);

// Why the pair is not one tensor (type or shape), naming the file; empty when it is.
std::string identityProblem(const Analysis& an, const FilePair& pair, const std::string& name,
                            DType rawType);

} // namespace dumpscope::detail

#pragma once

#include "dumpscope/result.h"

#include <iosfwd>

namespace dumpscope {

// What the name alignment paired and left unpaired, before the text report: a line per pair
// ("A → B  (how)") and the names of each run left without a partner; with `quiet`, their counts.
// Nothing when buffers paired by name alone.
void writeAlignmentText(const Analysis& analysis, bool quiet, std::ostream& out);

} // namespace dumpscope

#pragma once

#include "dumpscope/result.h"

#include <iosfwd>
#include <string>

namespace dumpscope {

// The CLI's default text: one line per buffer by step and group (unless `quiet`), then the
// verdict in the reference's words and the root cause by dataflow. With `color`, ANSI colours:
// diverging red, equal green, tolerated / one-sided / notes yellow.
void writeTextReport(const Analysis& analysis, bool quiet, std::ostream& out, bool color = false);

// "q_logits [f32] DIVERGE 204/512 (39.8%) ..." without indentation.
std::string bufferLine(const BufferResult& b);

} // namespace dumpscope

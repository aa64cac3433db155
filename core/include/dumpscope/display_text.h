#pragma once

// How a name that came from outside (file and directory names, schema labels, messages quoting
// them) is shown on a line of text: in the reports, and by every front end that prints one, so
// that a name reads the same in the command line's output as in a report.

#include <string>
#include <string_view>

namespace dumpscope::report {

// `s` with every byte that is not part of a well-formed UTF-8 sequence, and every control
// character (C0, DEL and C1: U+0000-U+001F, U+007F-U+009F, a C1 one byte by byte), replaced by
// the four-character text "\xNN" (NN upper-case hex), so a name can never break a table row or
// a line, nor reach a terminal as an escape sequence. Other text comes back unchanged.
std::string displayText(std::string_view s);

} // namespace dumpscope::report

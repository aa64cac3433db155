#pragma once

#include <iosfwd>

namespace dumpscope {

// dumpscope-cli: parses the arguments, runs, writes to out / err and returns the exit code
// (0 all equal, 1 divergence, 2 missing input or a buffer in error; see --help).
int runCli(int argc, char** argv, std::ostream& out, std::ostream& err);

} // namespace dumpscope

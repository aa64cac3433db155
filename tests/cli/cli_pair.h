#pragma once

// The real dumpscope-cli on the pair DIR/a DIR/b, with more arguments after the runs: what the
// CLI tests that write their own pair into a temporary directory run.
#include "test_support.h"

#include <string>
#include <vector>

namespace dumpscope::test {

inline ProcessResult cliOnPair(const TempDir& dir, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{DUMPSCOPE_CLI_PATH, (dir / "a").string(), (dir / "b").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return runProcess(args);
}

} // namespace dumpscope::test

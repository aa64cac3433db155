#pragma once

// Runs that a script of tests/data/ writes with /usr/bin/python3 and torch, once per test suite,
// into a temporary directory: each test skips, saying why, when they could not be written.
#include "test_support.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace dumpscope::test {

// Suite is the test class itself, naming its script under tests/data/ by a public
// `static const char* script()`.
template <class Suite> class ScriptWrittenRuns : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        s_dir = std::make_unique<TempDir>();
        const std::filesystem::path script =
            std::filesystem::path(DUMPSCOPE_SOURCE_DIR) / "tests" / "data" / Suite::script();
        const auto r =
            runProcess({"/usr/bin/python3", script.string(), s_dir->path().string()}, {}, 300);
        s_written = r.exitCode == 0;
        if (!s_written) s_why = r.err;
    }
    static void TearDownTestSuite() { s_dir.reset(); }
    void SetUp() override {
        if (!s_written)
            GTEST_SKIP() << "/usr/bin/python3 with torch could not write the runs: " << s_why;
    }

    // dumpscope-cli on runs `a` and `b` of the written directory, then `extra`.
    static ProcessResult cli(const std::string& a, const std::string& b,
                             const std::vector<std::string>& extra) {
        std::vector<std::string> argv = {DUMPSCOPE_CLI_PATH, (*s_dir / a).string(),
                                         (*s_dir / b).string()};
        argv.insert(argv.end(), extra.begin(), extra.end());
        return runProcess(argv, {}, 60);
    }

    inline static std::unique_ptr<TempDir> s_dir;
    inline static bool s_written = false;
    inline static std::string s_why;
};

} // namespace dumpscope::test

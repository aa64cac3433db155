// The real dumpscope-cli on a run deeper than PATH_MAX, given by its absolute path and by a
// relative one: both compare every file (exit 1 for the difference), neither skips any.
#include "deep_tree.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <climits>
#include <string>

using dumpscope::test::DeepTree;
using dumpscope::test::TempDir;

TEST(CliLongPaths, ARunDeeperThanPathMaxIsComparedWhetherGivenAbsoluteOrRelative) {
    TempDir dir;
    DeepTree tree(dir.path(), PATH_MAX + 200, {"a", "b"});
    for (const char* run : {"a", "b"}) {
        tree.writeF32(run, "step_0_h_q_logits.bin", {1, 2, 3, 4});
        tree.writeF32(run, "step_1_h_q_logits.bin", {1, 2, run[0] == 'a' ? 3.0f : 3.5f, 4});
    }
    const std::string absolute = tree.path().string();
    ASSERT_GT(absolute.size(), static_cast<std::size_t>(PATH_MAX));

    auto direct = dumpscope::test::runProcess(
        {DUMPSCOPE_CLI_PATH, absolute + "/a", absolute + "/b", "--json"});
    EXPECT_EQ(direct.exitCode, 1) << direct.err;
    EXPECT_EQ(direct.err.find("not read"), std::string::npos) << direct.err;
    const auto j = nlohmann::json::parse(direct.out);
    EXPECT_EQ(j["first_divergent_step"], 1);
    EXPECT_EQ(j["root_cause"]["buffers"], nlohmann::json{"q_logits"});

    // From the temporary directory, through a relative path that is itself past PATH_MAX.
    const std::string relative = tree.relative().string();
    ASSERT_GT(relative.size(), static_cast<std::size_t>(PATH_MAX));
    auto fromBase = dumpscope::test::runProcess(
        {"/bin/sh", "-c", "cd \"$0\" && exec \"$1\" \"$2/a\" \"$2/b\" --quiet", dir.path().string(),
         DUMPSCOPE_CLI_PATH, relative});
    EXPECT_EQ(fromBase.exitCode, 1) << fromBase.err;
    EXPECT_EQ(fromBase.err.find("not read"), std::string::npos) << fromBase.err;
    EXPECT_NE(fromBase.out.find("VERDICT (first divergent step = 1)"), std::string::npos)
        << fromBase.out;
}

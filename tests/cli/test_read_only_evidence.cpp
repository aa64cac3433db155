// The evidence is never touched: the real dumpscope-cli on a read-only pair, every
// output mode and report format, and nothing inside the run directories changes — no byte, no
// modification time, no new entry. The snapshot checks hold as root too (where chmod stops
// nothing); only the check that needs permissions enforced is skipped, visibly, as root.
#include "run_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

#include <fcntl.h>
#include <unistd.h>

using namespace dumpscope::test;
namespace fs = std::filesystem;

namespace {

ProcessResult cli(std::vector<std::string> args) {
    args.insert(args.begin(), DUMPSCOPE_CLI_PATH);
    return runProcess(args);
}

// A pair with something of everything: a divergence, a ragged file (error), an unclassified
// file, a symlink to a regular file, a one-sided buffer.
void writeEvidence(const TempDir& dir) {
    writeRunPair(dir, {0, 1, 2});
    perturb(dir, 1, "h_q_logits");
    writeText(dir / "a" / "step_2_h_v_pred.bin", "12345");
    writeDump(dir / "a", 0, "scratch_notes", std::vector<std::uint8_t>{1, 2, 3});
    writeDump(dir / "b", 0, "scratch_notes", std::vector<std::uint8_t>{1, 2, 4});
    fs::remove(dir / "b" / "step_2_i_vsn_grad_b_scratch.bin");
    fs::create_symlink("step_0_h_q_logits.bin", dir / "a" / "step_3_h_q_logits.bin");
    writeDump(dir / "b", 3, "h_q_logits", std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8});
}

} // namespace

TEST(ReadOnlyEvidence, EveryCliModeAndReportLeavesTheRunsUntouched) {
    TempDir dir, out;
    writeEvidence(dir);
    const auto before = snapshotTree(dir.path());
    {
        ReadOnlyTree readOnly(dir.path());
        const std::string a = (dir / "a").string(), b = (dir / "b").string();

        const auto text = cli({a, b});
        EXPECT_EQ(text.exitCode, 2) << text.err;
        EXPECT_NE(text.out.find("=== step 1 ==="), std::string::npos);
        EXPECT_NE(text.err.find("step_2_h_v_pred.bin: size 5 bytes"), std::string::npos)
            << text.err;

        const auto json = cli({a, b, "--json"});
        EXPECT_EQ(json.exitCode, 2);
        const auto parsed = nlohmann::json::parse(json.out, nullptr, /*allow_exceptions=*/false);
        ASSERT_FALSE(parsed.is_discarded()) << json.out;
        EXPECT_EQ(parsed["first_divergent_step"], 1);

        for (const char* report : {"r.html", "r.md", "r.json"}) {
            const auto r = cli({a, b, "--quiet", "--report", (out / report).string()});
            EXPECT_EQ(r.exitCode, 2) << r.err;
            EXPECT_GT(fs::file_size(out / report), 100u) << report;
        }
        EXPECT_EQ(cli({a, b, "--strict", "--quiet"}).exitCode, 2);
        EXPECT_EQ(cli({a, b, "--reference-compat"}).exitCode, 2);
        EXPECT_EQ(cli({a, a}).exitCode,
                  2); // the same directory twice (its ragged file is still an error)

        // A report aimed into a run directory is refused, not written.
        for (const std::string& run : {a, b}) {
            const auto refused = cli({a, b, "--quiet", "--report", run + "/r.md"});
            EXPECT_EQ(refused.exitCode, 2);
            EXPECT_NE(refused.err.find("run directory"), std::string::npos) << refused.err;
        }
        EXPECT_EQ(snapshotTree(dir.path()), before);
    }
    EXPECT_EQ(listDir(out.path()), (std::vector<std::string>{"r.html", "r.json", "r.md"}))
        << "no temporary file left beside the reports";
}

TEST(ReadOnlyEvidence, NoWritePermissionIsNeededToCompare) {
    if (runningAsRoot())
        GTEST_SKIP() << "running as root: chmod a-w does not stop root writing, so it cannot show "
                        "that no write access is needed (the snapshot test above still ran)";
    TempDir dir;
    writeRunPair(dir, {0, 1});
    perturb(dir, 1, "h_q_logits");
    ReadOnlyTree readOnly(dir.path());
    ASSERT_LT(::open((dir / "a" / "step_0_h_q_logits.bin").c_str(), O_WRONLY), 0)
        << "chmod had no effect";
    const auto r = cli({(dir / "a").string(), (dir / "b").string(), "--json"});
    EXPECT_EQ(r.exitCode, 1) << r.err; // a divergence, and no buffer in error
    EXPECT_TRUE(r.err.empty()) << r.err;
}

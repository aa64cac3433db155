// The real dumpscope-cli on pairs with buffers that have no pair result: runs sharing no buffer,
// a match with one-sided buffers, a culprit dump that is gone, a FIFO, unreadable.
#include "cli_pair.h"
#include "run_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <utility>

using dumpscope::test::ProcessResult;
using dumpscope::test::TempDir;
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

ProcessResult cli(const TempDir& dir, std::vector<std::string> extra = {}) {
    return dumpscope::test::cliOnPair(dir, std::move(extra));
}

fs::path dump(const TempDir& dir, const char* run, std::uint64_t step, const std::string& rest) {
    return dir / run / ("step_" + std::to_string(step) + "_" + rest + ".bin");
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// H diverges at step 1 and so do I and J, which it feeds: the root cause is H.
void writeNoisyHead(const TempDir& dir) {
    dumpscope::test::writeRunPair(dir, {0, 1, 2});
    dumpscope::test::perturb(dir, 1, "h_q_logits");
    dumpscope::test::perturb(dir, 1, "i_cfc_grad_b_scratch");
    dumpscope::test::perturb(dir, 1, "j_grad_h_t_q");
}

constexpr const char* kAllMatch = "VERDICT: all dumped backward-pipeline buffers match";

} // namespace

TEST(CliVerdictUnknown, RunsThatShareNoBufferAreNotComparedExitTwo) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0, 1});
    for (const auto& g : dumpscope::defaultSchema().groups)
        for (const auto& b : g.buffers) {
            fs::remove(dump(dir, "a", 1, b.file));
            fs::remove(dump(dir, "b", 0, b.file));
        }
    const auto r = cli(dir);
    EXPECT_EQ(r.exitCode, 2) << r.out;
    EXPECT_TRUE(has(r.out, "\nVERDICT: not compared: no buffer is in both runs.\n")) << r.out;
    EXPECT_FALSE(has(r.out, kAllMatch)) << r.out;
    EXPECT_TRUE(has(r.out, "    q_logits [f32] ONLY IN A (8 elements)\n")) << r.out;

    const auto j = cli(dir, {"--json"});
    EXPECT_EQ(j.exitCode, 2);
    const json doc = json::parse(j.out);
    EXPECT_EQ(doc["decision"]["case"], "not_compared");
    EXPECT_EQ(doc["decision"]["text"], "Not compared: no buffer is in both runs.");
    EXPECT_EQ(doc["one_sided_buffers"], 62);
}

TEST(CliVerdictUnknown, AMatchWithOneSidedBuffersSaysSoUnderTheVerdict) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0, 1});
    fs::remove(dump(dir, "b", 1, "j_grad_h_t_q"));
    const auto r = cli(dir, {"--quiet"});
    EXPECT_EQ(r.exitCode, 0) << r.out;
    EXPECT_EQ(r.out.rfind(kAllMatch, 0), 0u) << r.out;
    // The line right after the reference's verdict block.
    EXPECT_TRUE(has(r.out, "feedback_systematic_debugging.\n  WARNING: 1 buffer(s) in one run only "
                           "were not compared: the verdict covers the buffers in both runs "
                           "only.\n"))
        << r.out;
    EXPECT_EQ(json::parse(cli(dir, {"--json"}).out)["one_sided_buffers"], 1);
}

TEST(CliVerdictUnknown, ADivergenceWithOneSidedBuffersSaysSoUnderTheVerdict) {
    TempDir dir;
    writeNoisyHead(dir);
    fs::remove(dump(dir, "a", 2, "k_outcome_b"));
    const auto r = cli(dir, {"--quiet"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_TRUE(has(r.out, "VERDICT (first divergent step = 1):\n  diverged group(s): H, I, J\n"
                           "  WARNING: 1 buffer(s) in one run only were not compared"))
        << r.out;
    // Step 2 is after the root cause's step: the root cause stands.
    EXPECT_TRUE(has(r.out, "ROOT CAUSE by dataflow (step 1): group H (head fwd outputs); "
                           "buffer(s) q_logits\n"))
        << r.out;
}

TEST(CliVerdictUnknown, NormalDivergenceTextHasNoNewLines) {
    TempDir dir;
    writeNoisyHead(dir);
    const auto r = cli(dir, {"--quiet"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_TRUE(has(r.out, "  diverged group(s): H, I, J\n\nPer-group culprit table:\n")) << r.out;
    EXPECT_TRUE(has(r.out, "Next-step interpretation (per Phase 2.6 decision tree):\n  Group H "))
        << r.out;
    EXPECT_FALSE(has(r.out, "WARNING: ")) << r.out;
    EXPECT_FALSE(has(r.out, "NOT JUDGED")) << r.out;
    EXPECT_FALSE(has(r.out, "not determined")) << r.out;
}

// Run A's culprit dump is deleted, a dangling symlink, a FIFO or unreadable: H cannot be judged,
// and J, which H feeds, is not blamed.
class CliMissingCulprit : public ::testing::TestWithParam<const char*> {};

TEST_P(CliMissingCulprit, HIsNotJudgedAndJIsNotBlamed) {
    TempDir dir;
    writeNoisyHead(dir);
    const fs::path lost = dump(dir, "a", 1, "h_q_logits");
    const std::string how = GetParam();
    fs::remove(lost);
    std::string why = "only in run B";
    if (how == "DanglingSymlink") fs::create_symlink(dir / "nowhere.bin", lost);
    if (how == "Fifo") {
        ASSERT_EQ(::mkfifo(lost.c_str(), 0600), 0);
    }
    if (how == "Chmod000") {
        if (dumpscope::test::runningAsRoot())
            GTEST_SKIP() << "running as root: chmod 000 does not stop reading (the pread fault "
                            "tests in tests/core/io_fault cover an unreadable file as root)";
        fs::copy_file(dump(dir, "b", 1, "h_q_logits"), lost);
        fs::permissions(lost, fs::perms::none);
        why = "unreadable";
    }
    const auto r = cli(dir, {"--quiet"});
    EXPECT_EQ(r.exitCode, how == "Chmod000" ? 2 : 1) << r.out << r.err;
    EXPECT_TRUE(has(r.out, "  Group H (head fwd outputs): NOT JUDGED — q_logits " + why + "\n"))
        << r.out;
    EXPECT_FALSE(has(r.out, "Group H (head fwd outputs): EQUAL")) << r.out;
    EXPECT_TRUE(has(r.out, "  (not judged, so taken as not divergent below: group H)\n")) << r.out;
    EXPECT_TRUE(has(r.out, "ROOT CAUSE by dataflow (step 1): not determined: an input could not "
                           "be judged\n"
                           "  group H (head fwd outputs) could not be judged: q_logits " +
                               why +
                               "\n"
                               "  group J (per-head grad_h_t) diverges and no divergent group "
                               "feeds it: it is the source only if group H is equal\n"))
        << r.out;
    EXPECT_FALSE(has(r.out, "): group J")) << r.out;
    EXPECT_FALSE(has(r.out, "whose inputs, per the schema's dataflow, are all equal")) << r.out;

    const json doc = json::parse(cli(dir, {"--json"}).out);
    EXPECT_EQ(doc["culprits"][1]["state"], "not_judged");
    EXPECT_EQ(doc["culprits"][1]["not_judged"][0]["reason"], why);
    EXPECT_EQ(doc["root_cause"]["groups"], json::array());
    EXPECT_EQ(doc["root_cause"]["undecided_groups"], json::array({"J"}));
    EXPECT_EQ(doc["root_cause"]["unjudged_inputs"], json::array({"H"}));
}

INSTANTIATE_TEST_SUITE_P(CliVerdictUnknown, CliMissingCulprit,
                         ::testing::Values("Deleted", "DanglingSymlink", "Fifo", "Chmod000"),
                         [](const auto& info) { return std::string(info.param); });

TEST(CliVerdictUnknown, NoisyHeadSampleWithoutItsCulpritDoesNotBlameJ) {
    TempDir dir;
    if (!dumpscope::test::unpackSample("h200-noisy-head.tar.xz", dir.path()))
        GTEST_SKIP() << "../shared/samples/h200-noisy-head.tar.xz is not beside the checkout";
    const fs::path a = dir / "s2_noisy_head" / "a", b = dir / "s2_noisy_head" / "b";
    fs::remove(a / "step_1_h_q_logits.bin");
    const auto r = dumpscope::test::runProcess({DUMPSCOPE_CLI_PATH, a.string(), b.string(), "-q"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_TRUE(has(r.out, "  Group H (head fwd outputs): NOT JUDGED — q_logits only in run B\n"))
        << r.out;
    EXPECT_TRUE(has(r.out, "ROOT CAUSE by dataflow (step 1): not determined")) << r.out;
    EXPECT_FALSE(has(r.out, "ROOT CAUSE by dataflow (step 1): group J")) << r.out;
}

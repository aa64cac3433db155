// --watch's line for a step whose root cause the verdict cannot determine says so, naming what
// could not be judged, instead of naming the first divergent buffer as if it were the cause:
// through the real dumpscope-cli, once for a group fed by a group that could not be judged and
// once for a buffer whose declared input could not be.
#include "run_fixture.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using dumpscope::test::ProcessResult;
using dumpscope::test::TempDir;

namespace {

// The runs are complete: step 1 is reported once it has kept still for the settle time.
ProcessResult watchStep1(const TempDir& dir, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{DUMPSCOPE_CLI_PATH,   (dir / "a").string(),
                                  (dir / "b").string(), "--watch",
                                  "--until-step",       "1",
                                  "--settle",           "0.2"};
    args.insert(args.end(), extra.begin(), extra.end());
    return dumpscope::test::runProcess(args, {}, 60);
}

std::string lineOfStep1(const std::string& out) {
    const auto at = out.find("step 1: ");
    return at == std::string::npos ? std::string() : out.substr(at, out.find('\n', at) - at);
}

} // namespace

// H (the culprit) is gone from run A; I and J, which it feeds, diverge.
TEST(CliWatchUndetermined, AGroupThatCouldNotBeJudgedIsNamedNotTheFirstDivergentBuffer) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {1});
    dumpscope::test::perturb(dir, 1, "h_q_logits");
    dumpscope::test::perturb(dir, 1, "i_cfc_grad_b_scratch");
    dumpscope::test::perturb(dir, 1, "j_grad_h_t_q");
    fs::remove(dir / "a" / "step_1_h_q_logits.bin");
    const auto r = watchStep1(dir);
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    const std::string line = lineOfStep1(r.out);
    EXPECT_NE(line.find("DIVERGE"), std::string::npos) << r.out;
    EXPECT_EQ(line.substr(line.find("  root cause")),
              "  root cause not determined: group H could not be judged")
        << line;
    EXPECT_EQ(line.find("first divergent"), std::string::npos) << line;
}

// d declares u as its only input, and u is in run B only: d diverges, but whether it is the
// source depends on u, which could not be compared.
TEST(CliWatchUndetermined, ABufferWhoseDeclaredInputCouldNotBeJudgedNamesThatInput) {
    TempDir dir;
    dumpscope::test::writeText(
        dir / "schema.json",
        R"({"groups": [{"id": "U", "buffers": [{"name": "u", "file": "u", "dtype": "f32"}]},
                       {"id": "D", "buffers": [{"name": "d", "file": "d", "dtype": "f32",
                                                "inputs": ["u"]}]}],
            "dataflow": [["U", "D"]]})");
    dumpscope::test::writeDump(dir / "a", 1, "d", std::vector<float>{1, 2, 3, 4});
    dumpscope::test::writeDump(dir / "b", 1, "d", std::vector<float>{1, 2, 3, 5});
    dumpscope::test::writeDump(dir / "b", 1, "u", std::vector<float>{7, 8});
    const auto r = watchStep1(dir, {"--schema", (dir / "schema.json").string()});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    const std::string line = lineOfStep1(r.out);
    EXPECT_EQ(line.substr(line.find("  root cause")),
              "  root cause not determined: buffer u could not be judged")
        << line;
    EXPECT_EQ(line.find("first divergent"), std::string::npos) << line;
    // The verdict after it says the same.
    EXPECT_NE(r.out.find("not determined: an input could not be judged"), std::string::npos)
        << r.out;
}

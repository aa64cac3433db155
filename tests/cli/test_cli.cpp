// The real dumpscope-cli binary: exit codes, text, --json, --report, --strict, --steps, --schema.
#include "run_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

using dumpscope::test::ProcessResult;
using dumpscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

ProcessResult cli(std::vector<std::string> args) {
    args.insert(args.begin(), DUMPSCOPE_CLI_PATH);
    return dumpscope::test::runProcess(args);
}

} // namespace

TEST(Cli, AllEqualExitsZeroWithTheReferenceVerdict) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir);
    auto r = cli({(dir / "a").string(), (dir / "b").string()});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("=== step 3 ==="), std::string::npos);
    EXPECT_NE(r.out.find("    q_logits [f32] EQUAL (8 elements, xxh3 "), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("VERDICT: all dumped backward-pipeline buffers match across"),
              std::string::npos);
    EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(Cli, DivergenceExitsOneAndNamesStepGroupBufferAndRootCause) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir);
    dumpscope::test::perturb(dir, 2, "g_sampled_h_t", 6);
    dumpscope::test::perturb(dir, 2, "j_grad_h_t_q", 1);
    auto r = cli({(dir / "a").string(), (dir / "b").string()});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(
        r.out.find(
            "sampled_h_t [f32] DIVERGE (rounding) 1/8 differ (12.5%), first (6, 0) last (6, 0)"),
        std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("VERDICT (first divergent step = 2):\n  diverged group(s): G, J\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("Group J (per-head grad_h_t) diverges with EQUAL Group I."),
              std::string::npos);
    EXPECT_NE(
        r.out.find(
            "ROOT CAUSE by dataflow (step 2): group G (PER replay sample); buffer(s) sampled_h_t"),
        std::string::npos)
        << r.out;
}

TEST(Cli, QuietPrintsOnlyTheVerdict) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir);
    dumpscope::test::perturb(dir, 0, "k_outcome_w");
    auto r = cli({(dir / "a").string(), (dir / "b").string(), "--quiet"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.out.find("=== step"), std::string::npos);
    EXPECT_EQ(r.out.rfind("VERDICT (first divergent step = 0):", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("WARNING: divergent group(s) not in expected G/H/I/J set"),
              std::string::npos);
}

TEST(Cli, MissingRunDirectoryExitsTwoNamingIt) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0});
    auto r = cli({(dir / "a").string(), (dir / "missing").string()});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find((dir / "missing").string() + ": no such run directory"), std::string::npos)
        << r.err;
}

TEST(Cli, BufferErrorExitsTwoAfterComparingTheRest) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0, 1});
    dumpscope::test::writeText(dir / "a" / "step_0_h_v_pred.bin", "12345");
    auto r = cli({(dir / "a").string(), (dir / "b").string()});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(
        r.err.find(
            "step_0_h_v_pred.bin: size 5 bytes is not a multiple of the element size 4 (f32)"),
        std::string::npos)
        << r.err;
    EXPECT_NE(r.out.find("=== step 1 ==="), std::string::npos);
}

TEST(Cli, JsonIsValidAndCarriesTheVerdict) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir);
    dumpscope::test::perturb(dir, 1, "h_q_logits", 2);
    dumpscope::test::perturb(dir, 1, "i_cfc_grad_b_scratch", 4);
    auto r = cli({(dir / "a").string(), (dir / "b").string(), "--json"});
    EXPECT_EQ(r.exitCode, 1);
    auto j = nlohmann::json::parse(r.out); // throws (fails the test) when invalid
    EXPECT_EQ(j["exit_code"], 1);
    EXPECT_EQ(j["first_divergent_step"], 1);
    EXPECT_EQ(j["diverged_groups"], (nlohmann::json{"H", "I"}));
    EXPECT_EQ(j["decision"]["case"], "h_without_g");
    // I's inputs (G, J) are equal, so by dataflow I is a source of its own, beside H.
    EXPECT_EQ(j["root_cause"]["groups"], (nlohmann::json{"H", "I"}));
    EXPECT_EQ(j["root_cause"]["buffers"], (nlohmann::json{"q_logits", "cfc_grad_b_scratch"}));
    const auto& step1 = j["steps"][1];
    EXPECT_EQ(step1["step"], 1);
    const auto& q = step1["groups"][1]["buffers"][0];
    EXPECT_EQ(q["name"], "q_logits");
    EXPECT_EQ(q["status"], "diverge");
    EXPECT_EQ(q["n_diff"], 1);
    EXPECT_EQ(q["first_diff"], 2);
    EXPECT_EQ(q["max_ulp"], 1);
}

TEST(Cli, JsonOfAllEqualHasNullFirstStep) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0});
    auto r = cli({(dir / "a").string(), (dir / "b").string(), "--json"});
    auto j = nlohmann::json::parse(r.out);
    EXPECT_TRUE(j["first_divergent_step"].is_null());
    EXPECT_EQ(j["decision"]["case"], "all_equal");
    EXPECT_EQ(j["exit_code"], 0);
}

TEST(Cli, ReportsAreWrittenInEveryFormat) {
    TempDir dir, out;
    dumpscope::test::writeRunPair(dir);
    dumpscope::test::perturb(dir, 1, "h_q_logits");
    for (const char* name : {"r.json", "r.md", "r.html"}) {
        auto r = cli({(dir / "a").string(), (dir / "b").string(), "--quiet", "--report",
                      (out / name).string()});
        EXPECT_EQ(r.exitCode, 1) << r.err;
        ASSERT_TRUE(fs::exists(out / name)) << name;
        EXPECT_GT(fs::file_size(out / name), 200u) << name;
    }
    std::ifstream in(out / "r.json");
    auto j = nlohmann::json::parse(in);
    EXPECT_EQ(j["root_cause"]["buffers"], nlohmann::json{"q_logits"});
}

TEST(Cli, ReportInsideARunDirectoryIsRefused) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0});
    auto r = cli({(dir / "a").string(), (dir / "b").string(), "--quiet", "--report",
                  (dir / "a" / "r.md").string()});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_FALSE(fs::exists(dir / "a" / "r.md"));
    EXPECT_NE(r.err.find("r.md"), std::string::npos) << r.err;
}

TEST(Cli, StrictTurnsOneSidedAndUnclassifiedIntoExitTwo) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0});
    fs::remove(dir / "b" / "step_0_h_v_pred.bin");
    auto lax = cli({(dir / "a").string(), (dir / "b").string(), "--quiet"});
    EXPECT_EQ(lax.exitCode, 0);
    EXPECT_NE(lax.out.find("1 buffer(s) present in one run only"), std::string::npos);
    auto strict = cli({(dir / "a").string(), (dir / "b").string(), "--quiet", "--strict"});
    EXPECT_EQ(strict.exitCode, 2);
    EXPECT_NE(strict.err.find("--strict"), std::string::npos);

    TempDir other;
    dumpscope::test::writeRunPair(other, {0});
    dumpscope::test::writeDump(other / "a", 0, "extra", std::vector<float>{1});
    dumpscope::test::writeDump(other / "b", 0, "extra", std::vector<float>{1});
    EXPECT_EQ(cli({(other / "a").string(), (other / "b").string(), "--quiet"}).exitCode, 0);
    EXPECT_EQ(cli({(other / "a").string(), (other / "b").string(), "--quiet", "--strict"}).exitCode,
              2);
}

TEST(Cli, StepsSelectsSteps) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0, 1, 2, 3, 4});
    dumpscope::test::perturb(dir, 1, "h_q_logits");
    auto r = cli({(dir / "a").string(), (dir / "b").string(), "--steps", "2-4,0"});
    EXPECT_EQ(r.exitCode, 0) << r.out;
    EXPECT_EQ(r.out.find("=== step 1 ==="), std::string::npos);
    EXPECT_NE(r.out.find("=== step 4 ==="), std::string::npos);
    EXPECT_EQ(cli({(dir / "a").string(), (dir / "b").string(), "--steps", "x"}).exitCode, 2);
}

// Steps that exist in neither run select nothing: "not compared", exit 2, never "identical".
TEST(Cli, StepsThatNoRunDumpedCompareNothingAndExit2) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0, 1});
    const std::string a = (dir / "a").string(), b = (dir / "b").string();
    const auto text = cli({a, b, "--steps", "7-9"});
    EXPECT_EQ(text.exitCode, 2) << text.out;
    EXPECT_NE(
        text.out.find("VERDICT: not compared: none of the selected steps is dumped in either run."),
        std::string::npos)
        << text.out;
    EXPECT_NE(
        text.err.find(
            "warning: none of the selected steps is dumped in either run (they have steps 0 to 1)"),
        std::string::npos)
        << text.err;
    const auto json = cli({a, b, "--steps", "7", "--json", "--report", (dir / "r.md").string()});
    EXPECT_EQ(json.exitCode, 2);
    EXPECT_NE(json.out.find("\"exit_code\": 2"), std::string::npos) << json.out;
    const auto j = nlohmann::json::parse(json.out);
    EXPECT_EQ(j["decision"]["case"], "not_compared"); // not the reference's all_equal
    EXPECT_EQ(j["decision"]["text"],
              "Not compared: none of the selected steps is dumped in either run.");
    std::ifstream md(dir / "r.md");
    const std::string report((std::istreambuf_iterator<char>(md)),
                             std::istreambuf_iterator<char>());
    EXPECT_NE(report.find("**Verdict:** nothing compared"), std::string::npos) << report;
    EXPECT_NE(report.find("decision case `not_compared`, exit code 2"), std::string::npos)
        << report;
    EXPECT_EQ(cli({a, b, "--steps", "1,7"}).exitCode, 0); // one selected step exists: compared
}

TEST(Cli, CustomSchemaAndItsErrors) {
    TempDir dir;
    dumpscope::test::writeDump(dir / "a", 0, "w_x", std::vector<std::int16_t>{1, 2});
    dumpscope::test::writeDump(dir / "b", 0, "w_x", std::vector<std::int16_t>{1, 3});
    dumpscope::test::writeText(
        dir / "s.json",
        R"js({"groups": [{"id": "W", "buffers": [{"name": "x", "file": "w_x", "dtype": "i16"}]}]})js");
    auto r =
        cli({(dir / "a").string(), (dir / "b").string(), "--schema", (dir / "s.json").string()});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.out.find("x [i16] DIVERGE (discrete) 1/2 differ"), std::string::npos) << r.out;

    dumpscope::test::writeText(dir / "bad.json", "{\"groups\": [\n  {\"id\": 5}]}");
    auto bad =
        cli({(dir / "a").string(), (dir / "b").string(), "--schema", (dir / "bad.json").string()});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("bad.json:"), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("\"id\" must be a non-empty string"), std::string::npos) << bad.err;
}

TEST(Cli, MakeDemoWritesAPairWithTheNoisyHead) {
    TempDir dir;
    auto made = cli({"--make-demo", (dir / "demo").string()});
    ASSERT_EQ(made.exitCode, 0) << made.err;
    auto r = cli({(dir / "demo" / "a").string(), (dir / "demo" / "b").string(), "--json"});
    EXPECT_EQ(r.exitCode, 1);
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["root_cause"]["buffers"], nlohmann::json{"q_logits"});
}

TEST(Cli, HelpVersionAndBadUsage) {
    auto help = cli({"--help"});
    EXPECT_EQ(help.exitCode, 0);
    for (const char* opt : {"--json", "--report", "--schema", "--steps", "--strict", "--quiet",
                            "--reference-compat", "--make-demo", "--version", "Examples:"})
        EXPECT_NE(help.out.find(opt), std::string::npos) << opt;
    auto version = cli({"--version"});
    EXPECT_EQ(version.exitCode, 0);
    EXPECT_EQ(version.out.rfind("dumpscope-cli ", 0), 0u);
    EXPECT_EQ(cli({}).exitCode, 2);
    EXPECT_EQ(cli({"--no-such-option"}).exitCode, 2);
}

TEST(Cli, NeverWritesInsideTheRunDirectories) {
    TempDir dir, out;
    dumpscope::test::writeRunPair(dir, {0, 1});
    dumpscope::test::perturb(dir, 1, "h_q_logits");
    auto before = [&] {
        std::vector<std::pair<std::string, fs::file_time_type>> v;
        for (auto& e : fs::recursive_directory_iterator(dir.path()))
            v.emplace_back(e.path().string(), e.last_write_time());
        std::sort(v.begin(), v.end());
        return v;
    };
    auto snapshot = before();
    cli({(dir / "a").string(), (dir / "b").string(), "--report", (out / "r.html").string()});
    cli({(dir / "a").string(), (dir / "b").string(), "--json"});
    EXPECT_EQ(before(), snapshot);
}

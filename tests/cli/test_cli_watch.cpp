// dumpscope-cli --watch on runs that are written while it runs: one line per completed step,
// the verdict and the usual exit code at --until-step or on SIGINT / SIGTERM.
#include "run_fixture.h"

#include <gtest/gtest.h>

#include <signal.h>

#include <filesystem>

using dumpscope::test::ProcessResult;
using dumpscope::test::TempDir;

namespace {

bool has(const std::string& text, const std::string& what) {
    return text.find(what) != std::string::npos;
}

// The lines of `text` that start with "step ".
std::vector<std::string> stepLines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const auto end = text.find('\n', pos);
        const std::string line =
            text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        if (line.rfind("step ", 0) == 0) lines.push_back(line);
        if (end == std::string::npos) break;
        pos = end + 1;
    }
    return lines;
}

ProcessResult watch(const TempDir& dir, std::vector<std::string> extra,
                    const std::function<void(int, const ProcessResult&)>& onOutput) {
    std::vector<std::string> args{DUMPSCOPE_CLI_PATH, (dir / "a").string(), (dir / "b").string(),
                                  "--watch"};
    args.insert(args.end(), extra.begin(), extra.end());
    return dumpscope::test::runProcess(args, {}, 120, onOutput);
}

} // namespace

// Steps 2 and 3 land while it runs, each after the previous step's line: the watcher reports
// them one by one and stops by itself once step 3 is reported.
TEST(CliWatch, ReportsStepsAsTheyLandUntilTheGivenStep) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {1});
    int written = 1;
    auto r =
        watch(dir, {"--until-step", "3", "--settle", "0.5"}, [&](int, const ProcessResult& soFar) {
            const auto lines = stepLines(soFar.out);
            if (written == 1 && lines.size() == 1) {
                dumpscope::test::writeRunPair(dir, {2});
                dumpscope::test::perturb(dir, 2, "h_q_logits", 5);
                written = 2;
            } else if (written == 2 && lines.size() == 2) {
                dumpscope::test::writeRunPair(dir, {3});
                written = 3;
            }
        });
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    const auto lines = stepLines(r.out);
    ASSERT_EQ(lines.size(), 3u) << r.out;
    EXPECT_EQ(lines[0], "step 1: equal  equal: G, H, I, J, K");
    EXPECT_EQ(
        lines[1],
        "step 2: DIVERGE  diverging: H  equal: G, I, J, K  first divergent: H/q_logits (rounding)");
    EXPECT_EQ(lines[2], "step 3: equal  equal: G, H, I, J, K");
    // Then the verdict over the steps reported, as the plain CLI's --quiet prints it.
    EXPECT_TRUE(has(r.out, "VERDICT (first divergent step = 2):\n  diverged group(s): H\n"))
        << r.out;
    EXPECT_TRUE(has(
        r.out, "ROOT CAUSE by dataflow (step 2): group H (head fwd outputs); buffer(s) q_logits"))
        << r.out;
    EXPECT_TRUE(has(r.err, "for completed steps (Ctrl+C to stop)")) << r.err;
}

// With a long settle time a step is complete only once a later step exists in both runs; the
// step that nothing follows is never reported, and SIGINT ends the watch with the verdict over
// what was reported and its exit code.
TEST(CliWatch, LaterStepCompletesAStepAndSigintEndsWithTheVerdict) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0, 1});
    bool wrote = false, interrupted = false;
    auto r = watch(dir, {"--settle", "600"}, [&](int pid, const ProcessResult& soFar) {
        const auto lines = stepLines(soFar.out);
        if (!wrote && lines.size() == 1) {
            dumpscope::test::writeRunPair(dir, {2});
            wrote = true;
        } else if (!interrupted && lines.size() == 2) {
            ::kill(pid, SIGINT);
            interrupted = true;
        }
    });
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto lines = stepLines(r.out);
    ASSERT_EQ(lines.size(), 2u) << r.out;
    EXPECT_EQ(lines[0], "step 0: equal  equal: G, H, I, J, K");
    EXPECT_EQ(lines[1], "step 1: equal  equal: G, H, I, J, K");
    EXPECT_TRUE(has(r.out, "VERDICT: all dumped backward-pipeline buffers match across")) << r.out;
}

TEST(CliWatch, SigtermAfterADivergenceExitsOne) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0, 1});
    dumpscope::test::perturb(dir, 0, "j_grad_h_t_q", 1);
    bool stopped = false;
    auto r = watch(dir, {"--settle", "600"}, [&](int pid, const ProcessResult& soFar) {
        if (!stopped && stepLines(soFar.out).size() == 1) {
            ::kill(pid, SIGTERM);
            stopped = true;
        }
    });
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_EQ(stepLines(r.out),
              std::vector<std::string>{"step 0: DIVERGE  diverging: J  equal: G, H, I, K  first "
                                       "divergent: J/grad_h_t_q (rounding)"});
    EXPECT_TRUE(has(r.out, "VERDICT (first divergent step = 0):")) << r.out;
}

// Interrupted before any step completed: nothing was compared, which is not "all equal".
TEST(CliWatch, NothingCompletedExitsTwo) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0});
    bool stopped = false;
    auto r = watch(dir, {"--settle", "600"}, [&](int pid, const ProcessResult& soFar) {
        if (!stopped && has(soFar.err, "(Ctrl+C to stop)\n")) {
            ::kill(pid, SIGINT);
            stopped = true;
        }
    });
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_TRUE(stepLines(r.out).empty()) << r.out;
    EXPECT_TRUE(has(r.err, "no step was complete in both runs")) << r.err;
}

TEST(CliWatch, RefusesJsonAndOptionsThatNeedIt) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0});
    const std::string a = (dir / "a").string(), b = (dir / "b").string();
    auto json = dumpscope::test::runProcess({DUMPSCOPE_CLI_PATH, a, b, "--watch", "--json"});
    EXPECT_EQ(json.exitCode, 2);
    EXPECT_TRUE(has(json.err, "--watch")) << json.err;
    auto until = dumpscope::test::runProcess({DUMPSCOPE_CLI_PATH, a, b, "--until-step", "3"});
    EXPECT_EQ(until.exitCode, 2);
    EXPECT_TRUE(has(until.err, "--watch")) << until.err;
    auto missing =
        dumpscope::test::runProcess({DUMPSCOPE_CLI_PATH, a, (dir / "nope").string(), "--watch"});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_TRUE(has(missing.err, "no such run directory")) << missing.err;
}

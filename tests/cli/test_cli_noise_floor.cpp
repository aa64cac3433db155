// dumpscope-cli with a measured noise floor: --floor RERUN… for a pair and for several
// candidates, and a rerun given as the first candidate, on runs with real reduction-order noise.
#include "noise_runs.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using dumpscope::test::NoiseRunSpec;
using dumpscope::test::ProcessResult;
using dumpscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

struct Runs {
    TempDir dir;
    Runs() { dumpscope::test::writeNoiseRun(base(), {}); }
    fs::path base() const { return dir / "base"; }
    std::string add(const std::string& name, const NoiseRunSpec& spec) {
        dumpscope::test::writeNoiseRun(dir / name, spec);
        return (dir / name).string();
    }
};

ProcessResult cli(std::vector<std::string> args) {
    args.insert(args.begin(), DUMPSCOPE_CLI_PATH);
    return dumpscope::test::runProcess(args);
}

NoiseRunSpec staleFrom2(std::uint32_t seed, const std::string& buffer) {
    NoiseRunSpec spec{seed};
    spec.staleFrom = 2;
    spec.staleBuffer = buffer;
    return spec;
}

const nlohmann::json& jsonBuffer(const nlohmann::json& doc, std::uint64_t step,
                                 const std::string& group, const std::string& name) {
    for (const auto& s : doc["steps"])
        if (s["step"] == step)
            for (const auto& g : s["groups"])
                if (g["id"] == group)
                    for (const auto& b : g["buffers"])
                        if (b["name"] == name) return b;
    throw std::runtime_error("no buffer " + name);
}

} // namespace

TEST(CliNoiseFloor, PairOverTheFloorNamesTheRealBugNotTheNoise) {
    Runs r;
    const auto r1 = r.add("r1", {1}), r2 = r.add("r2", {2});
    const auto cand = r.add("cand", staleFrom2(3, "q_logits"));
    const auto bitwise = cli({r.base().string(), cand, "--json"});
    ASSERT_EQ(bitwise.exitCode, 1) << bitwise.err;
    EXPECT_EQ(nlohmann::json::parse(bitwise.out)["root_cause"]["step"], 1);

    const auto res = cli({r.base().string(), cand, "--json", "--floor", r1, r2});
    ASSERT_EQ(res.exitCode, 1) << res.err;
    const auto doc = nlohmann::json::parse(res.out);
    EXPECT_EQ(doc["first_divergent_step"], 2);
    EXPECT_EQ(doc["root_cause"]["groups"], nlohmann::json::array({"H"}));
    EXPECT_EQ(doc["root_cause"]["buffers"], nlohmann::json::array({"q_logits"}));
    EXPECT_EQ(doc["noise_floor"]["reruns"], nlohmann::json::array({r1, r2}));
    EXPECT_EQ(doc["noise_floor"]["within_floor_buffers"], 3);
    const auto& noise = jsonBuffer(doc, 1, "I", "grad_ln_a_gain_per_row");
    EXPECT_EQ(noise["status"], "within_floor");
    EXPECT_EQ(noise["against_floor"]["within"], true);
    EXPECT_EQ(noise["against_floor"]["kind"], "rounding");
    EXPECT_LE(noise["against_floor"]["factor"].get<double>(), 4.0);
    EXPECT_GT(noise["against_floor"]["floor_max_abs_delta"].get<double>(), 0);
    const auto& bug = jsonBuffer(doc, 2, "H", "q_logits");
    EXPECT_EQ(bug["status"], "diverge");
    EXPECT_EQ(bug["against_floor"]["within"], false);
    EXPECT_TRUE(bug["against_floor"]["factor"].is_null()); // no rerun differs there
}

TEST(CliNoiseFloor, NoiseOnlyPairExitsZeroAndSaysWhatTheFloorHid) {
    Runs r;
    const auto r1 = r.add("r1", {4});
    const auto cand = r.add("cand", {5});
    EXPECT_EQ(cli({r.base().string(), cand}).exitCode, 1);
    const auto res = cli({r.base().string(), cand, "--floor", r1});
    EXPECT_EQ(res.exitCode, 0) << res.out << res.err;
    EXPECT_NE(res.out.find("grad_ln_a_gain_per_row [f32] WITHIN THE NOISE FLOOR (rounding)"),
              std::string::npos)
        << res.out;
    EXPECT_NE(res.out.find("against the floor: max|Δ| "), std::string::npos) << res.out;
    EXPECT_NE(res.out.find("NOISE FLOOR: 3 buffer(s) differ bitwise but within the noise floor "
                           "of 1 rerun(s)"),
              std::string::npos)
        << res.out;
}

TEST(CliNoiseFloor, RerunAsFirstCandidateReadsStaleRowsAsBeyondTheFloor) {
    // BASE RERUN CANDIDATE: the noise and the bug in the same buffer.
    Runs r;
    const auto rerun = r.add("rerun", {6});
    const auto cand = r.add("cand", staleFrom2(7, "grad_ln_a_gain_per_row"));
    const auto res = cli({r.base().string(), rerun, cand, "--json"});
    ASSERT_EQ(res.exitCode, 1) << res.err;
    const auto floor = nlohmann::json::parse(res.out)["summary"]["noise_floor"];
    EXPECT_EQ(floor["candidate"], 1);
    EXPECT_EQ(floor["margin"], 4.0);
    const auto& reading = floor["readings"][0];
    EXPECT_EQ(reading["reading"], "beyond_floor") << reading["text"];
    const auto& first = reading["beyond_floor"][0];
    EXPECT_EQ(first["step"], 2);
    EXPECT_EQ(first["group"], "I");
    EXPECT_EQ(first["buffer"], "grad_ln_a_gain_per_row");
    EXPECT_EQ(first["kind"], "numeric");
    EXPECT_EQ(first["floor_kinds"], nlohmann::json::array({"rounding"}));
    EXPECT_EQ(first["reruns_diverged"], 1);
    EXPECT_GT(first["factor"].get<double>(), 1e4);
    EXPECT_DOUBLE_EQ(first["factor"].get<double>(), first["max_abs_delta"].get<double>() /
                                                        first["floor_max_abs_delta"].get<double>());
    EXPECT_GT(first["max_ulp"].get<std::uint64_t>(), first["floor_max_ulp"].get<std::uint64_t>());
}

TEST(CliNoiseFloor, SeveralCandidatesAgainstSeveralReruns) {
    Runs r;
    const auto r1 = r.add("r1", {8}), r2 = r.add("r2", {9}), r3 = r.add("r3", {10});
    const auto noisy = r.add("noisy", {11});
    const auto buggy = r.add("buggy", staleFrom2(12, "grad_ln_a_gain_per_row"));
    const auto res = cli({r.base().string(), noisy, buggy, "--quiet", "--floor", r1, r2, r3});
    EXPECT_EQ(res.exitCode, 1) << res.err;
    EXPECT_NE(res.out.find("AGAINST THE NOISE FLOOR (the noise floor is the envelope of 3 "
                           "rerun(s) of the base's build"),
              std::string::npos)
        << res.out;
    EXPECT_NE(res.out.find("within_floor: candidate 1 (" + noisy + ")"), std::string::npos)
        << res.out;
    EXPECT_NE(res.out.find("beyond_floor: candidate 2 (" + buggy + ")"), std::string::npos)
        << res.out;

    const auto json = cli({r.base().string(), noisy, buggy, "--json", "--floor", r1, r2, r3});
    const auto floor = nlohmann::json::parse(json.out)["summary"]["noise_floor"];
    EXPECT_TRUE(floor["candidate"].is_null());
    EXPECT_EQ(floor["reruns"], nlohmann::json::array({r1, r2, r3}));
    ASSERT_EQ(floor["readings"].size(), 2u);
    EXPECT_EQ(floor["readings"][0]["reading"], "within_floor");
    EXPECT_EQ(floor["readings"][1]["beyond_floor"][0]["reruns_diverged"], 3);

    // Each section is what the pair prints with the same --floor; noise alone exits 0.
    const auto multi = cli({r.base().string(), noisy, buggy, "--floor", r1, r2, r3});
    const auto pair = cli({r.base().string(), buggy, "--floor", r1, r2, r3});
    EXPECT_EQ(pair.exitCode, 1);
    const auto from = multi.out.find('\n', multi.out.find("##### candidate 2 of 2:")) + 1;
    const auto to = multi.out.find("\nSUMMARY:");
    ASSERT_LT(from, to);
    EXPECT_EQ(multi.out.substr(from, to - from), pair.out);
    const auto quiet = cli({r.base().string(), noisy, noisy, "--quiet", "--floor", r1, r2, r3});
    EXPECT_EQ(quiet.exitCode, 0) << quiet.out;
}

TEST(CliNoiseFloor, BadFloorRunsAreRefusedWithExitTwo) {
    Runs r;
    const auto cand = r.add("cand", {13});
    const std::string missing = (r.dir / "no_such_rerun").string();
    for (const auto& extra : {std::vector<std::string>{}, std::vector<std::string>{cand}}) {
        std::vector<std::string> args{r.base().string(), cand};
        args.insert(args.end(), extra.begin(), extra.end());
        args.insert(args.end(), {"--floor", missing});
        const auto res = cli(args);
        EXPECT_EQ(res.exitCode, 2);
        EXPECT_NE(res.err.find("error: --floor " + missing + ": "), std::string::npos) << res.err;
        EXPECT_TRUE(res.out.empty()) << res.out;
    }
    const auto compat = cli({r.base().string(), cand, "--reference-compat", "--floor", cand});
    EXPECT_EQ(compat.exitCode, 2);
    EXPECT_NE(compat.err.find("--reference-compat reproduces the reference script, which has no "
                              "noise floor"),
              std::string::npos)
        << compat.err;
}

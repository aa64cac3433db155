// Tensor-parallel runs holding a LayerNorm weight on every rank, written by torch.save (Debian's
// /usr/bin/python3 with python3-torch, at test time), compared through the real dumpscope-cli
// with --replicated: a rank whose copy is not its peers' is a divergence of kind cross_rank that
// names the run, the rank and the first differing index; ranks that agree change nothing.
#include "script_written_runs.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <memory>

namespace fs = std::filesystem;
using dumpscope::test::ProcessResult;

namespace {

class CliReplicated : public dumpscope::test::ScriptWrittenRuns<CliReplicated> {
  public:
    static const char* script() { return "replicated/write_replicated_runs.py"; }

  protected:
    static nlohmann::json buffer(const nlohmann::json& doc, std::uint64_t step, std::uint64_t rank,
                                 const std::string& name) {
        for (const auto& s : doc["steps"])
            if (s["step"] == step)
                for (const auto& group : s["groups"])
                    for (const auto& b : group["buffers"])
                        if (b["name"] == name && b["rank"] == rank) return b;
        return {};
    }
    static std::size_t crossRankBuffers(const nlohmann::json& doc) {
        std::size_t n = 0;
        for (const auto& s : doc["steps"])
            for (const auto& group : s["groups"])
                for (const auto& b : group["buffers"])
                    n += !b["cross_rank"].is_null() || b["kind"] == "cross_rank";
        return n;
    }
};

const std::vector<std::string> kRules = {"--shard", "mlp\\.w:1", "--replicated", "ln\\.weight"};

std::vector<std::string> with(std::vector<std::string> args, const std::string& more) {
    args.push_back(more);
    return args;
}

} // namespace

TEST_F(CliReplicated, ARankThatDisagreesIsNamedWithTheFirstIndex) {
    const auto r = cli("tp2_bad", "tp1", kRules);
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("rank 1 ln.weight [f32] DIVERGE (cross_rank) rank 1 of run A differs from "
                         "rank 0 (1 of 2 ranks agree): 2 of 64 elements, first at index 37; run A "
                         "against run B at this rank: only_in_a"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("across ranks: 1 replicated buffer(s) held otherwise by a rank than by "
                         "its peers; the first at step 2: \"ln.weight\" rank 1 of run A"),
              std::string::npos)
        << r.out;

    const auto doc = nlohmann::json::parse(cli("tp2_bad", "tp1", with(kRules, "--json")).out);
    EXPECT_EQ(doc["first_divergent_step"], 2);
    const auto b = buffer(doc, 2, 1, "ln.weight");
    EXPECT_EQ(b["status"], "diverge") << b.dump();
    EXPECT_EQ(b["kind"], "cross_rank");
    ASSERT_EQ(b["cross_rank"].size(), 1u) << b.dump();
    const auto& d = b["cross_rank"][0];
    EXPECT_EQ(d["run"], "A");
    EXPECT_EQ(d["rank"], 1);
    EXPECT_EQ(d["reference_rank"], 0);
    EXPECT_EQ(d["first_index"], 37);
    EXPECT_EQ(d["n_diff"], 2);
    EXPECT_EQ(d["count"], 64);
    EXPECT_EQ(crossRankBuffers(doc), 1u) << "rank 0, and step 1, agree";
    EXPECT_FALSE(doc["cross_rank"].is_null());
}

TEST_F(CliReplicated, WithoutTheRuleTheDisagreeingRankIsOneSided) {
    const auto doc =
        nlohmann::json::parse(cli("tp2_bad", "tp1", {"--shard", "mlp\\.w:1", "--json"}).out);
    EXPECT_EQ(buffer(doc, 2, 1, "ln.weight")["status"], "only_in_a");
    EXPECT_EQ(crossRankBuffers(doc), 0u);
}

TEST_F(CliReplicated, RanksThatAgreeLeaveTheVerdictAsItWas) {
    const auto plain = cli("tp2", "tp1", {"--shard", "mlp\\.w:1"});
    const auto checked = cli("tp2", "tp1", kRules);
    EXPECT_EQ(checked.exitCode, plain.exitCode) << checked.out;
    EXPECT_EQ(checked.out, plain.out);
    EXPECT_EQ(checked.out.find("cross_rank"), std::string::npos) << checked.out;

    const auto doc = nlohmann::json::parse(cli("tp2", "tp2", with(kRules, "--json")).out);
    EXPECT_EQ(crossRankBuffers(doc), 0u);
    EXPECT_TRUE(doc["cross_rank"].is_null());
    EXPECT_EQ(cli("tp2", "tp2", kRules).exitCode, 0);
}

TEST_F(CliReplicated, BothRunsDisagreeingAlikeAreStillADivergence) {
    // Run A against run B at rank 1 is equal; each run's rank 1 is not its rank 0.
    const auto doc = nlohmann::json::parse(cli("tp2_bad", "tp2_bad", with(kRules, "--json")).out);
    const auto b = buffer(doc, 2, 1, "ln.weight");
    EXPECT_EQ(b["kind"], "cross_rank") << b.dump();
    ASSERT_EQ(b["cross_rank"].size(), 2u) << b.dump();
    EXPECT_EQ(b["cross_rank"][0]["run"], "A");
    EXPECT_EQ(b["cross_rank"][1]["run"], "B");
    EXPECT_EQ(b["cross_rank"][1]["pair_status"], "equal");
    EXPECT_EQ(cli("tp2_bad", "tp2_bad", kRules).exitCode, 1);
}

TEST_F(CliReplicated, TheMajorityOfRanksDecidesWhichOneIsNamed) {
    const auto r = cli("tp3_bad0", "tp1", {"--replicated", "ln\\.weight", "--json"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    const auto b = buffer(doc, 1, 0, "ln.weight");
    ASSERT_EQ(b["cross_rank"].size(), 1u) << b.dump();
    EXPECT_EQ(b["cross_rank"][0]["rank"], 0);
    EXPECT_EQ(b["cross_rank"][0]["reference_rank"], 1);
    EXPECT_EQ(b["cross_rank"][0]["agreeing_ranks"], 2);
    EXPECT_EQ(b["cross_rank"][0]["first_index"], 5);
    EXPECT_EQ(crossRankBuffers(doc), 1u) << "ranks 1 and 2 agree";
}

TEST_F(CliReplicated, ARuleThatIsNotARegularExpressionIsRefused) {
    const auto r = cli("tp2", "tp1", {"--replicated", "ln\\.(weight"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("error: --replicated \"ln\\.(weight\" is not a regular expression"),
              std::string::npos)
        << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

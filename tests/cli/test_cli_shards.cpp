// A tensor-parallel run (TP=2) against its TP=1 twin, written by torch.save (Debian's
// /usr/bin/python3 with python3-torch, at test time), compared through the real dumpscope-cli
// with --shard: the shards of each rank are joined along their axis and compared with the
// whole tensor, and a difference names the rank whose shard holds it and its index in the whole.
#include "script_written_runs.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <memory>

namespace fs = std::filesystem;
using dumpscope::test::ProcessResult;

namespace {

class CliShards : public dumpscope::test::ScriptWrittenRuns<CliShards> {
  public:
    static const char* script() { return "shards/write_shard_runs.py"; }

  protected:
    static nlohmann::json buffer(const nlohmann::json& doc, std::uint64_t step,
                                 const std::string& name) {
        for (const auto& s : doc["steps"])
            if (s["step"] == step)
                for (const auto& group : s["groups"])
                    for (const auto& b : group["buffers"])
                        if (b["name"] == name) return b;
        return {};
    }
};

const std::vector<std::string> kRules = {"--shard", "mlp\\.w:1", "--shard", ".*qkv:0"};

} // namespace

TEST_F(CliShards, WithoutARuleRankZerosShardIsNotTheWholeTensor) {
    const auto r = cli("tp2", "tp1", {"--json"});
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(buffer(doc, 1, "mlp.w")["status"], "length_mismatch") << r.out;
}

TEST_F(CliShards, TheJoinedShardsOfAnEqualRunEqualTheWholeTensor) {
    auto args = kRules;
    args.push_back("--json");
    const auto r = cli("tp2", "tp1", args);
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    for (std::uint64_t step : {1, 2})
        for (const char* name : {"mlp.w", "attn.qkv"}) {
            const auto b = buffer(doc, step, name);
            EXPECT_EQ(b["status"], "equal") << b.dump();
            EXPECT_EQ(b["shards"]["ranks_a"], nlohmann::json::array({0, 1}));
            EXPECT_EQ(b["shards"]["ranks_b"], nlohmann::json::array({0}));
        }
    EXPECT_EQ(buffer(doc, 1, "mlp.w")["n_a"], 64);
    EXPECT_EQ(buffer(doc, 1, "attn.qkv")["n_b"], 96000);
}

TEST_F(CliShards, APerturbedShardNamesItsRankAndTheIndexInTheWholeTensor) {
    auto args = kRules;
    args.push_back("--json");
    const auto r = cli("tp2_bad", "tp1", args);
    EXPECT_EQ(r.exitCode, 1) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["first_divergent_step"], 2);
    EXPECT_EQ(buffer(doc, 1, "mlp.w")["status"], "equal");

    const auto w = buffer(doc, 2, "mlp.w");
    EXPECT_EQ(w["status"], "diverge") << w.dump();
    EXPECT_EQ(w["n_diff"], 1);
    EXPECT_EQ(w["first_diff"], 43); // (2, 11) of [4, 16]: rank 1's (2, 3)
    EXPECT_EQ(w["shards"]["axis"], 1);
    EXPECT_EQ(w["shards"]["first_diff_rank_a"], 1);
    EXPECT_EQ(w["shards"]["first_diff_rank_b"], 0);

    const auto qkv = buffer(doc, 2, "attn.qkv");
    EXPECT_EQ(qkv["status"], "diverge") << qkv.dump();
    EXPECT_EQ(qkv["n_diff"], 1);
    EXPECT_EQ(qkv["first_diff"], 48805); // (6100, 5) of [12000, 8]: rank 1's (100, 5)
    EXPECT_EQ(qkv["shards"]["first_diff_rank_a"], 1);

    const auto text = cli("tp2_bad", "tp1", kRules);
    EXPECT_NE(text.out.find("ranks 0, 1 in A, rank 0 in B, joined along axis 1; the first "
                            "difference, index 43 of the whole tensor, is on rank 1 in A, rank 0 "
                            "in B"),
              std::string::npos)
        << text.out;
}

TEST_F(CliShards, TwoShardedRunsAreJoinedOnBothSides) {
    auto args = kRules;
    args.push_back("--json");
    const auto r = cli("tp2", "tp2_bad", args);
    const auto doc = nlohmann::json::parse(r.out);
    const auto w = buffer(doc, 2, "mlp.w");
    EXPECT_EQ(w["first_diff"], 43) << w.dump();
    EXPECT_EQ(w["shards"]["first_diff_rank_b"], 1);
}

TEST_F(CliShards, ABadRuleIsRefusedBeforeAnyRead) {
    for (const char* rule : {"mlp.w", "mlp.w:x", "(:0", ":1"}) {
        const auto r = cli("tp2", "tp1", {"--shard", rule});
        EXPECT_EQ(r.exitCode, 2) << rule;
        EXPECT_NE(r.err.find("error: --shard"), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
}

TEST_F(CliShards, AnAxisTheShardsDoNotHaveIsTheBuffersError) {
    const auto r = cli("tp2", "tp1", {"--shard", "mlp\\.w:2", "--json"});
    EXPECT_EQ(r.exitCode, 2);
    const auto w = buffer(nlohmann::json::parse(r.out), 1, "mlp.w");
    EXPECT_EQ(w["status"], "error");
    EXPECT_NE(w["error"].get<std::string>().find("no axis 2 to join its shards along"),
              std::string::npos)
        << w.dump();
}

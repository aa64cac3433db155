// Buffer-level dataflow through the real dumpscope-cli: every source named in the text and the
// JSON, the "cannot tell" line with the declaration that decides it, the half-precision note,
// a schema whose "inputs" are wrong refused (exit 2, file and line), and the H200 sample's root
// cause as before.
#include "dataflow_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

using namespace dumpscope::test;
using dumpscope::DType;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

ProcessResult cli(const TempDir& dir, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{
        DUMPSCOPE_CLI_PATH, (dir / "a").string(),           (dir / "b").string(),
        "--schema",         (dir / "schema.json").string(), "-q"};
    args.insert(args.end(), extra.begin(), extra.end());
    return runProcess(args);
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

const std::map<std::string, ToyChange> kTwoSources{{"sampled_log_pi_old", {2, Change::stale}},
                                                   {"cfc_grad_w_in_scratch", {2, Change::noise}}};

} // namespace

TEST(CliBufferDataflow, TwoSourcesWithDeclaredInputsAreBothNamed) {
    TempDir dir;
    writeToyPair(dir, kTwoSources, {{"cfc_grad_w_in_scratch", {"sampled_h_t", "J"}}});
    const auto text = cli(dir);
    EXPECT_EQ(text.exitCode, 1) << text.err;
    EXPECT_TRUE(has(text.out, "ROOT CAUSE by dataflow (step 2): group G (toy) and group I (toy); "
                              "buffer(s) sampled_log_pi_old, cfc_grad_w_in_scratch"))
        << text.out;
    EXPECT_TRUE(has(text.out, "  sources: G/sampled_log_pi_old (numeric), "
                              "I/cfc_grad_w_in_scratch (rounding)\n"))
        << text.out;
    EXPECT_FALSE(has(text.out, "note:")) << text.out;

    const auto r = cli(dir, {"--json"});
    const json root = json::parse(r.out)["root_cause"];
    EXPECT_EQ(root["groups"], json::array({"G", "I"}));
    ASSERT_EQ(root["sources"].size(), 2u);
    EXPECT_EQ(root["sources"][0]["buffer"], "sampled_log_pi_old");
    EXPECT_EQ(root["sources"][0]["kind"], "numeric");
    EXPECT_EQ(root["sources"][1]["buffer"], "cfc_grad_w_in_scratch");
    EXPECT_EQ(root["sources"][1]["kind"], "rounding");
    EXPECT_EQ(root["unclear_sources"], json::array());
}

TEST(CliBufferDataflow, GroupLevelDataflowSaysItCannotTellAndShowsTheDeclaration) {
    TempDir dir;
    writeToyPair(dir, kTwoSources);
    const auto text = cli(dir);
    EXPECT_EQ(text.exitCode, 1);
    EXPECT_TRUE(has(text.out, "ROOT CAUSE by dataflow (step 2): group G (toy); buffer(s) "
                              "sampled_log_pi_old"))
        << text.out;
    EXPECT_TRUE(has(text.out, "note: group I (toy) diverges, but by group-level dataflow its only "
                              "divergent input is G/sampled_log_pi_old: it cannot be told whether "
                              "it is a second source. If cfc_grad_w_in_scratch does not read "
                              "it, declare on it in the schema \"inputs\": [\"sampled_h_t\", "
                              "\"sampled_h_tp1\", \"sampled_rewards\", \"J\"]"))
        << text.out;
    const json root = json::parse(cli(dir, {"--json"}).out)["root_cause"];
    ASSERT_EQ(root["unclear_sources"].size(), 1u);
    EXPECT_EQ(root["unclear_sources"][0]["group"], "I");
    EXPECT_EQ(root["unclear_sources"][0]["divergent_inputs"],
              json::array({"G/sampled_log_pi_old"}));
    EXPECT_EQ(root["notes"].size(), 1u);
}

TEST(CliBufferDataflow, HalfPrecisionInputsAreNoted) {
    TempDir dir;
    writeToyPair(dir, {{"q_logits", {1, Change::stale}}}, {}, {{"sampled_h_t", DType::bf16}});
    const auto text = cli(dir);
    EXPECT_TRUE(has(text.out, "note: root buffer q_logits (f32) is computed from sampled_h_t "
                              "(bf16), equal only at half precision: differences below about 2^-8 "
                              "relative are invisible in those dumps, so the true source may be "
                              "upstream"))
        << text.out;
    const json root = json::parse(cli(dir, {"--json"}).out)["root_cause"];
    EXPECT_EQ(root["sources"][0]["half_precision_inputs"][0]["dtype"], "bf16");
}

TEST(CliBufferDataflow, WrongInputsAreRefusedWithTheFileAndLine) {
    const std::vector<std::pair<std::map<std::string, std::vector<std::string>>, std::string>>
        cases{
            {{{"q_logits", {"grad_h_t_q"}}}, "inputs make a cycle: "},
            {{{"q_logits", {"no_such_buffer"}}},
             "buffer \"q_logits\": \"inputs\" names unknown buffer or group \"no_such_buffer\""},
            {{{"q_logits", {"q_logits"}}},
             "buffer \"q_logits\": \"inputs\" names the buffer itself"},
        };
    for (const auto& [inputs, message] : cases) {
        SCOPED_TRACE(message);
        TempDir dir;
        writeToyPair(dir, {}, inputs, {}, {0});
        const auto r = cli(dir);
        EXPECT_EQ(r.exitCode, 2);
        EXPECT_EQ(r.out, "");
        EXPECT_EQ(r.err.rfind("error: schema refused: " + (dir / "schema.json").string() + ":", 0),
                  0u)
            << r.err;
        EXPECT_TRUE(has(r.err, message)) << r.err;
    }
}

// The default schema declares no "inputs": the sample's root cause stays H's q_logits, now also
// its single source.
TEST(CliBufferDataflow, NoisyHeadSampleKeepsItsRootCause) {
    TempDir dir;
    if (!unpackSample("h200-noisy-head.tar.xz", dir.path()))
        GTEST_SKIP() << "../shared/samples/h200-noisy-head.tar.xz is not beside the checkout";
    const fs::path a = dir / "s2_noisy_head" / "a", b = dir / "s2_noisy_head" / "b";
    const auto r = runProcess({DUMPSCOPE_CLI_PATH, a.string(), b.string(), "--json"});
    EXPECT_EQ(r.exitCode, 1);
    const json root = json::parse(r.out)["root_cause"];
    EXPECT_EQ(root["step"], 1);
    EXPECT_EQ(root["groups"], json::array({"H"}));
    EXPECT_EQ(root["buffers"], json::array({"q_logits"}));
    ASSERT_EQ(root["sources"].size(), 1u);
    EXPECT_EQ(root["sources"][0]["group"], "H");
    EXPECT_EQ(root["sources"][0]["half_precision_inputs"], json::array()); // float32 dumps
}

// Buffer-level dataflow: a buffer's "inputs" decide whether it is a source, the root cause names
// every source at the first divergent step, a group fed only through a few divergent buffers by
// group edges is said to be undecidable (with the declaration that decides it), and a source
// whose equal inputs are dumped at half precision is flagged.
#include "dumpscope/analyze.h"
#include "dumpscope/report.h"
#include "dumpscope/verdict.h"

#include "dataflow_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace dumpscope;
using dumpscope::test::Change;
using dumpscope::test::TempDir;
using dumpscope::test::ToyChange;
using json = nlohmann::json;

namespace {

Analysis analyzeToy(const TempDir& dir) {
    AnalyzeOptions options;
    options.schema = std::make_shared<const Schema>(loadSchemaFile(dir / "schema.json"));
    return analyze(dir / "a", dir / "b", options);
}

std::vector<std::string> sourceNames(const RootCause& rc) {
    std::vector<std::string> out;
    for (const auto& s : rc.sources)
        out.push_back(s.group + "/" + s.buffer);
    return out;
}

bool anyLineHas(const std::vector<std::string>& lines, const std::string& text) {
    return std::any_of(lines.begin(), lines.end(),
                       [&](const std::string& l) { return l.find(text) != std::string::npos; });
}

// The two independent sources at step 2: G's log-prob rebuild goes stale, I's split-K
// accumulation changes its order.
const std::map<std::string, ToyChange> kTwoSources{{"sampled_log_pi_old", {2, Change::stale}},
                                                   {"cfc_grad_w_in_scratch", {2, Change::noise}}};
// What cfc_grad_w_in_scratch reads: not the log-probs.
const std::map<std::string, std::vector<std::string>> kWInInputs{
    {"cfc_grad_w_in_scratch", {"sampled_h_t", "sampled_h_tp1", "J"}}};

} // namespace

TEST(BufferDataflow, TwoIndependentSourcesAtOneStepAreBothNamed) {
    TempDir dir;
    test::writeToyPair(dir, kTwoSources, kWInInputs);
    const Analysis an = analyzeToy(dir);
    const auto& v = an.verdict;
    ASSERT_EQ(v.firstDivergentStep, 2u);
    EXPECT_EQ(v.divergedGroups, (std::vector<std::string>{"G", "I"}));
    EXPECT_EQ(v.decisionCase, DecisionCase::i); // the reference's tree is unchanged
    EXPECT_EQ(v.rootCause.groups, (std::vector<std::string>{"G", "I"}));
    EXPECT_EQ(v.rootCause.buffers,
              (std::vector<std::string>{"sampled_log_pi_old", "cfc_grad_w_in_scratch"}));
    EXPECT_EQ(sourceNames(v.rootCause),
              (std::vector<std::string>{"G/sampled_log_pi_old", "I/cfc_grad_w_in_scratch"}));
    EXPECT_FALSE(v.rootCause.sources[0].declaredInputs);
    EXPECT_TRUE(v.rootCause.sources[1].declaredInputs);
    EXPECT_EQ(v.rootCause.sources[0].kind, Kind::numeric);  // stale rows: a bug
    EXPECT_EQ(v.rootCause.sources[1].kind, Kind::rounding); // the order of a sum
    EXPECT_TRUE(v.rootCause.unclearSources.empty());        // the declaration decided it
    EXPECT_TRUE(rootCauseNotes(an).empty());

    const json j = json::parse(reportJson(an));
    ASSERT_EQ(j["root_cause"]["sources"].size(), 2u);
    EXPECT_EQ(j["root_cause"]["sources"][1]["buffer"], "cfc_grad_w_in_scratch");
    EXPECT_EQ(j["root_cause"]["sources"][1]["declared_inputs"], true);
    EXPECT_EQ(j["root_cause"]["groups"], json::array({"G", "I"}));
    const std::string md = reportMarkdown(an);
    EXPECT_NE(md.find("`G/sampled_log_pi_old` (numeric), `I/cfc_grad_w_in_scratch` (rounding)"),
              std::string::npos)
        << md;
}

TEST(BufferDataflow, GroupEdgesAloneCannotTellASecondSourceAndShowTheDeclaration) {
    TempDir dir;
    test::writeToyPair(dir, kTwoSources);
    const Analysis an = analyzeToy(dir);
    const auto& rc = an.verdict.rootCause;
    EXPECT_EQ(rc.groups, std::vector<std::string>{"G"}); // I is fed by G at group level
    EXPECT_EQ(rc.buffers, std::vector<std::string>{"sampled_log_pi_old"});
    ASSERT_EQ(rc.unclearSources.size(), 1u);
    const auto& u = rc.unclearSources[0];
    EXPECT_EQ(u.group, "I");
    EXPECT_EQ(u.buffers, std::vector<std::string>{"cfc_grad_w_in_scratch"});
    EXPECT_EQ(u.divergentInputs, std::vector<std::string>{"G/sampled_log_pi_old"});
    EXPECT_EQ(u.declaration,
              (std::vector<std::string>{"sampled_h_t", "sampled_h_tp1", "sampled_rewards", "J"}));
    const auto notes = rootCauseNotes(an);
    EXPECT_TRUE(anyLineHas(notes, "cannot be told whether it is a second source")) << notes[0];
    EXPECT_TRUE(
        anyLineHas(notes, R"("inputs": ["sampled_h_t", "sampled_h_tp1", "sampled_rewards", "J"])"));
    EXPECT_NE(reportMarkdown(an).find("- **Note:** group I (toy) diverges"), std::string::npos);
    EXPECT_NE(reportHtml(an).find("<li><strong>Note:</strong> group I (toy) diverges"),
              std::string::npos);
    const json j = json::parse(reportJson(an));
    EXPECT_EQ(j["root_cause"]["unclear_sources"][0]["inputs_declaration"]["inputs"],
              json::array({"sampled_h_t", "sampled_h_tp1", "sampled_rewards", "J"}));

    // The declaration shown, put into the schema, decides it: I is the second source.
    test::writeToyPair(dir, kTwoSources, {{"cfc_grad_w_in_scratch", u.declaration}});
    const Analysis declared = analyzeToy(dir);
    EXPECT_EQ(declared.verdict.rootCause.groups, (std::vector<std::string>{"G", "I"}));
    EXPECT_TRUE(declared.verdict.rootCause.unclearSources.empty());
}

TEST(BufferDataflow, AGroupFedByManyDivergentBuffersIsNotCalledUnclear) {
    TempDir dir; // every G buffer diverges: I plainly reads a divergent input
    test::writeToyPair(dir, {{"sampled_h_t", {1, Change::stale}},
                             {"sampled_h_tp1", {1, Change::stale}},
                             {"sampled_rewards", {1, Change::stale}},
                             {"sampled_log_pi_old", {1, Change::stale}},
                             {"cfc_grad_w_rec_scratch", {1, Change::noise}}});
    const Analysis an = analyzeToy(dir);
    EXPECT_EQ(an.verdict.rootCause.groups, std::vector<std::string>{"G"});
    EXPECT_TRUE(an.verdict.rootCause.unclearSources.empty());
    EXPECT_TRUE(rootCauseNotes(an).empty());
}

TEST(BufferDataflow, ADownstreamBufferWhoseDeclaredInputDivergesIsNotNamed) {
    TempDir dir;
    // sampled_h_t goes stale; w_in reads it (declared), w_rec reads w_in (declared, same
    // group); both diverge and neither is a source.
    test::writeToyPair(dir,
                       {{"sampled_h_t", {1, Change::stale}},
                        {"cfc_grad_w_in_scratch", {1, Change::stale}},
                        {"cfc_grad_w_rec_scratch", {1, Change::noise}}},
                       {{"cfc_grad_w_in_scratch", {"sampled_h_t", "J"}},
                        {"cfc_grad_w_rec_scratch", {"cfc_grad_w_in_scratch"}}});
    const Analysis an = analyzeToy(dir);
    EXPECT_EQ(an.verdict.divergedGroups, (std::vector<std::string>{"G", "I"}));
    EXPECT_EQ(an.verdict.rootCause.groups, std::vector<std::string>{"G"});
    EXPECT_EQ(sourceNames(an.verdict.rootCause), std::vector<std::string>{"G/sampled_h_t"});
    EXPECT_TRUE(an.verdict.rootCause.unclearSources.empty()); // declared: nothing to ask
}

TEST(BufferDataflow, ADeclaredInputInTheSameGroupMakesOnlyTheFirstASource) {
    TempDir dir;
    test::writeToyPair(dir,
                       {{"cfc_grad_w_in_scratch", {1, Change::stale}},
                        {"cfc_grad_w_rec_scratch", {1, Change::noise}}},
                       {{"cfc_grad_w_rec_scratch", {"cfc_grad_w_in_scratch"}}});
    const Analysis an = analyzeToy(dir);
    EXPECT_EQ(an.verdict.rootCause.buffers, std::vector<std::string>{"cfc_grad_w_in_scratch"});
    // Without the declaration both are sources of group I, as group-level dataflow says.
    test::writeToyPair(dir, {{"cfc_grad_w_in_scratch", {1, Change::stale}},
                             {"cfc_grad_w_rec_scratch", {1, Change::noise}}});
    EXPECT_EQ(analyzeToy(dir).verdict.rootCause.buffers,
              (std::vector<std::string>{"cfc_grad_w_in_scratch", "cfc_grad_w_rec_scratch"}));
}

TEST(BufferDataflow, ADeclaredInputThatCouldNotBeJudgedLeavesItsBufferUndecided) {
    TempDir dir;
    test::writeToyPair(dir, {{"cfc_grad_w_in_scratch", {1, Change::stale}}},
                       {{"cfc_grad_w_in_scratch", {"q_logits"}}});
    std::filesystem::remove(dir / "a" / "step_1_h_q_logits.bin");
    const Analysis an = analyzeToy(dir);
    const auto& rc = an.verdict.rootCause;
    EXPECT_TRUE(rc.groups.empty());
    EXPECT_EQ(rc.undecidedGroups, std::vector<std::string>{"I"});
    ASSERT_EQ(rc.undecidedBuffers.size(), 1u);
    EXPECT_EQ(rc.undecidedBuffers[0].buffer, "cfc_grad_w_in_scratch");
    ASSERT_EQ(rc.undecidedBuffers[0].unjudgedInputs.size(), 1u);
    EXPECT_EQ(rc.undecidedBuffers[0].unjudgedInputs[0].name, "q_logits");
    const auto lines = undecidedRootLines(an);
    EXPECT_TRUE(anyLineHas(lines, "buffer cfc_grad_w_in_scratch of group I diverges and none of "
                                  "its declared inputs diverges: it is the source only if "
                                  "q_logits (only in run B) is equal"));
}

TEST(BufferDataflow, HalfPrecisionInputsOfAWiderSourceAreFlagged) {
    const std::map<DType, std::string> exponent = {
        {DType::bf16, "-8"}, {DType::f16, "-11"}, {DType::f8_e4m3, "-4"}, {DType::f8_e5m2, "-3"}};
    for (const DType half : {DType::bf16, DType::f16, DType::f8_e4m3, DType::f8_e5m2}) {
        SCOPED_TRACE(std::string(dtypeName(half)));
        TempDir dir;
        test::writeToyPair(dir, {{"q_logits", {1, Change::stale}}}, {},
                           {{"sampled_h_t", half}, {"sampled_h_tp1", half}});
        const Analysis an = analyzeToy(dir);
        const auto& rc = an.verdict.rootCause;
        ASSERT_EQ(sourceNames(rc), std::vector<std::string>{"H/q_logits"});
        ASSERT_EQ(rc.sources[0].halfPrecisionInputs.size(), 2u);
        EXPECT_EQ(rc.sources[0].halfPrecisionInputs[0].buffer, "sampled_h_t");
        EXPECT_EQ(rc.sources[0].halfPrecisionInputs[0].dtype, half);
        const auto notes = rootCauseNotes(an);
        EXPECT_TRUE(anyLineHas(notes, "2^" + exponent.at(half) + " relative are invisible"));
        EXPECT_TRUE(anyLineHas(notes, dtypeSize(half) == 1 ? "equal only at 8-bit precision"
                                                           : "equal only at half precision"));
        EXPECT_TRUE(anyLineHas(notes, "the true source may be upstream"));
        const json j = json::parse(reportJson(an));
        EXPECT_EQ(j["root_cause"]["sources"][0]["half_precision_inputs"][0]["relative_precision"],
                  relativePrecision(half));
    }
}

TEST(BufferDataflow, AllHalfPrecisionDumpsAreFlaggedAndFloat32InputsAreNot) {
    std::map<std::string, DType> allHalf;
    for (const auto& b : test::toyBuffers())
        allHalf[b.name] = DType::f16;
    TempDir dir;
    test::writeToyPair(dir, {{"q_logits", {1, Change::noise}}}, {}, allHalf);
    const Analysis an = analyzeToy(dir);
    ASSERT_EQ(sourceNames(an.verdict.rootCause), std::vector<std::string>{"H/q_logits"});
    EXPECT_EQ(an.verdict.rootCause.sources[0].halfPrecisionInputs.size(), 4u); // all of G
    EXPECT_TRUE(anyLineHas(rootCauseNotes(an), "2^-11"));

    TempDir wide; // the same divergence with float32 inputs: nothing hidden
    test::writeToyPair(wide, {{"q_logits", {1, Change::noise}}});
    const Analysis f32 = analyzeToy(wide);
    EXPECT_TRUE(f32.verdict.rootCause.sources[0].halfPrecisionInputs.empty());
    EXPECT_TRUE(rootCauseNotes(f32).empty());
}

TEST(BufferDataflow, AHalfPrecisionSourceIsFlaggedOnlyWhenABufferItFeedsIsWider) {
    const std::map<std::string, ToyChange> change{{"q_logits", {1, Change::noise}}};
    TempDir wideDownstream; // q_logits and its input bf16; J, which reads H, float32
    test::writeToyPair(wideDownstream, change, {},
                       {{"q_logits", DType::bf16}, {"sampled_h_t", DType::bf16}});
    const Analysis fed = analyzeToy(wideDownstream);
    ASSERT_EQ(sourceNames(fed.verdict.rootCause), std::vector<std::string>{"H/q_logits"});
    EXPECT_EQ(fed.verdict.rootCause.sources[0].halfPrecisionInputs.size(), 1u);

    TempDir halfDownstream; // J bf16 too, and G's other float32 dumps: nothing wider is fed
    test::writeToyPair(halfDownstream, change, {},
                       {{"q_logits", DType::bf16},
                        {"sampled_h_t", DType::bf16},
                        {"grad_h_t_q", DType::bf16},
                        {"grad_h_t_combined", DType::bf16}});
    const Analysis notFed = analyzeToy(halfDownstream);
    ASSERT_EQ(sourceNames(notFed.verdict.rootCause), std::vector<std::string>{"H/q_logits"});
    EXPECT_TRUE(notFed.verdict.rootCause.sources[0].halfPrecisionInputs.empty());
}

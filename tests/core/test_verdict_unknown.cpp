// Buffers without a pair result in the verdict: runs that share no buffer are not compared, a
// match over the buffers in both runs says how many were in one run only, and a group with a
// one-sided or unreadable buffer is "not judged" — neither equal nor blamable past.
#include "dumpscope/analyze.h"
#include "dumpscope/report.h"
#include "dumpscope/verdict.h"

#include "run_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <filesystem>

using namespace dumpscope;
using dumpscope::test::perturb;
using dumpscope::test::TempDir;
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

Analysis run(const TempDir& dir) {
    return analyze(dir / "a", dir / "b");
}

fs::path dump(const TempDir& dir, const char* run, std::uint64_t step, const std::string& rest) {
    return dir / run / ("step_" + std::to_string(step) + "_" + rest + ".bin");
}

// The noisy-head pattern on the fixture pair: at step 1 H diverges and so do I and J, which H
// feeds; by dataflow the root cause is H.
void writeNoisyHead(const TempDir& dir) {
    test::writeRunPair(dir, {0, 1, 2});
    perturb(dir, 1, "h_q_logits");
    perturb(dir, 1, "i_cfc_grad_b_scratch");
    perturb(dir, 1, "j_grad_h_t_q");
}

const CulpritRow& culprit(const Analysis& an, const std::string& group) {
    for (const auto& row : an.verdict.culprits)
        if (row.group == group) return row;
    throw std::runtime_error("no culprit row " + group);
}

// How run A's q_logits at step 1 is made unavailable. Each leaves run B's file in place.
enum class Loss { deleted, dangling_symlink, fifo, unreadable };

struct LossCase {
    const char* name;
    Loss loss;
};

class MissingCulprit : public ::testing::TestWithParam<LossCase> {};

} // namespace

TEST(VerdictUnknown, RunsThatShareNoBufferAreNotCompared) {
    TempDir dir;
    test::writeRunPair(dir, {0, 1});
    for (const auto& g : defaultSchema().groups)
        for (const auto& b : g.buffers) {
            fs::remove(dump(dir, "a", 1, b.file));
            fs::remove(dump(dir, "b", 0, b.file));
        }
    const Analysis an = run(dir);
    ASSERT_EQ(an.buffers.size(), 62u);
    EXPECT_EQ(an.verdict.decisionCase, DecisionCase::not_compared);
    EXPECT_EQ(an.verdict.exitCode, 2);
    EXPECT_EQ(notComparedReason(an), "no buffer is in both runs");
    EXPECT_EQ(an.verdict.text, "Not compared: no buffer is in both runs.");
    EXPECT_EQ(an.verdict.nOneSided, 62u);
}

TEST(VerdictUnknown, PairsThatAllFailToReadAreNotCompared) {
    TempDir dir;
    for (const char* r : {"a", "b"}) {
        fs::create_directories(dir / r);
        test::writeText(dump(dir, r, 0, "h_q_logits"), "123456"); // not a multiple of 4 bytes
    }
    const Analysis an = run(dir);
    ASSERT_EQ(an.buffers.size(), 1u);
    EXPECT_EQ(an.buffers[0].status, Status::error);
    EXPECT_EQ(an.verdict.decisionCase, DecisionCase::not_compared);
    EXPECT_EQ(an.verdict.exitCode, 2);
    EXPECT_EQ(notComparedReason(an), "no buffer in both runs could be read");
}

TEST(VerdictUnknown, AMatchOverPairedBuffersCountsTheOneSidedOnes) {
    TempDir dir;
    test::writeRunPair(dir, {0, 1});
    fs::remove(dump(dir, "b", 1, "j_grad_h_t_q"));
    fs::remove(dump(dir, "a", 0, "k_outcome_w"));
    const Analysis an = run(dir);
    EXPECT_EQ(an.verdict.decisionCase, DecisionCase::all_equal);
    EXPECT_EQ(an.verdict.exitCode, 0); // as documented: one-sided buffers alone keep exit 0
    EXPECT_EQ(an.verdict.nOneSided, 2u);
    EXPECT_EQ(oneSidedWarning(an.verdict), "2 buffer(s) in one run only were not compared: the "
                                           "verdict covers the buffers in both runs only");
}

TEST(VerdictUnknown, EveryBufferInBothRunsGivesNoOneSidedWarning) {
    TempDir dir;
    writeNoisyHead(dir);
    const Analysis an = run(dir);
    EXPECT_EQ(an.verdict.nOneSided, 0u);
    EXPECT_TRUE(oneSidedWarning(an.verdict).empty());
    for (const auto& row : an.verdict.culprits)
        EXPECT_TRUE(row.unjudged.empty()) << row.group;
    EXPECT_EQ(an.verdict.rootCause.groups, std::vector<std::string>{"H"});
    EXPECT_TRUE(an.verdict.rootCause.undecidedGroups.empty());
    EXPECT_TRUE(undecidedRootLines(an).empty());
}

TEST_P(MissingCulprit, LeavesItsGroupNotJudgedAndTheRootCauseOpen) {
    TempDir dir;
    writeNoisyHead(dir);
    const fs::path lost = dump(dir, "a", 1, "h_q_logits");
    fs::remove(lost);
    switch (GetParam().loss) {
    case Loss::deleted:
        break;
    case Loss::dangling_symlink:
        fs::create_symlink(dir / "nowhere.bin", lost);
        break;
    case Loss::fifo:
        ASSERT_EQ(::mkfifo(lost.c_str(), 0600), 0);
        break;
    case Loss::unreadable:
        if (test::runningAsRoot())
            GTEST_SKIP() << "running as root: chmod 000 does not stop reading (the pread fault "
                            "test in tests/core/io_fault covers an unreadable file as root)";
        fs::copy_file(dump(dir, "b", 1, "h_q_logits"), lost);
        fs::permissions(lost, fs::perms::none);
        break;
    }
    const Analysis an = run(dir);
    const Verdict& v = an.verdict;
    ASSERT_EQ(v.firstDivergentStep, 1u);
    EXPECT_EQ(v.divergedGroups, (std::vector<std::string>{"I", "J"}));

    const CulpritRow& h = culprit(an, "H");
    EXPECT_TRUE(notJudged(h));
    ASSERT_EQ(h.unjudged.size(), 1u);
    EXPECT_EQ(h.unjudged[0].name, "q_logits");
    const bool unreadable = GetParam().loss == Loss::unreadable;
    EXPECT_EQ(h.unjudged[0].status, unreadable ? Status::error : Status::only_in_b);
    EXPECT_EQ(unjudgedText(h), unreadable ? "q_logits unreadable" : "q_logits only in run B");
    EXPECT_FALSE(notJudged(culprit(an, "G")));
    EXPECT_FALSE(notJudged(culprit(an, "J")));

    // J's other inputs (G, K) are equal, but H feeds it and is unknown: J is not blamed.
    EXPECT_TRUE(v.rootCause.groups.empty());
    EXPECT_TRUE(v.rootCause.buffers.empty());
    EXPECT_TRUE(v.rootCause.kinds.empty());
    EXPECT_EQ(v.rootCause.undecidedGroups, std::vector<std::string>{"J"});
    EXPECT_EQ(v.rootCause.unjudgedInputs, std::vector<std::string>{"H"});
    const auto lines = undecidedRootLines(an);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0], "group H (head fwd outputs) could not be judged: " + unjudgedText(h));
    EXPECT_EQ(lines[1], "group J (per-head grad_h_t) diverges and no divergent group feeds it: "
                        "it is the source only if group H is equal");
}

INSTANTIATE_TEST_SUITE_P(VerdictUnknown, MissingCulprit,
                         ::testing::Values(LossCase{"Deleted", Loss::deleted},
                                           LossCase{"DanglingSymlink", Loss::dangling_symlink},
                                           LossCase{"Fifo", Loss::fifo},
                                           LossCase{"Chmod000", Loss::unreadable}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(VerdictUnknown, ANotJudgedGroupDownstreamOfTheRootLeavesItBlamed) {
    TempDir dir;
    writeNoisyHead(dir);
    fs::remove(dump(dir, "a", 1, "i_cfc_grad_b_scratch")); // I's only divergent buffer
    const Analysis an = run(dir);
    EXPECT_TRUE(notJudged(culprit(an, "I")));
    EXPECT_EQ(an.verdict.rootCause.groups, std::vector<std::string>{"H"});
    EXPECT_EQ(an.verdict.rootCause.buffers, std::vector<std::string>{"q_logits"});
    EXPECT_TRUE(an.verdict.rootCause.undecidedGroups.empty());
}

TEST(VerdictUnknown, ADivergentGroupNamesItsUnjudgedBuffersToo) {
    TempDir dir;
    writeNoisyHead(dir);
    fs::remove(dump(dir, "b", 1, "h_v_pred"));
    const Analysis an = run(dir);
    const CulpritRow& h = culprit(an, "H");
    EXPECT_FALSE(notJudged(h)); // it diverges: that much is known
    EXPECT_EQ(h.divergentBuffers, std::vector<std::string>{"q_logits"});
    EXPECT_EQ(unjudgedText(h), "v_pred only in run A");
    EXPECT_EQ(an.verdict.rootCause.groups, std::vector<std::string>{"H"});
}

TEST(VerdictUnknown, ASourceWithKnownInputsIsBlamedBesideAnUndecidedOne) {
    TempDir dir;
    test::writeRunPair(dir, {0, 1});
    perturb(dir, 1, "h_pi_logits");
    perturb(dir, 1, "k_outcome_w");
    perturb(dir, 1, "j_grad_h_t_pi");
    fs::remove(dump(dir, "b", 1, "g_sampled_rewards"));
    const Analysis an = run(dir);
    // K has no input: a source. H's only input G could not be judged. J is fed by both.
    EXPECT_EQ(an.verdict.rootCause.groups, std::vector<std::string>{"K"});
    EXPECT_EQ(an.verdict.rootCause.buffers, std::vector<std::string>{"outcome_w"});
    EXPECT_EQ(an.verdict.rootCause.undecidedGroups, std::vector<std::string>{"H"});
    EXPECT_EQ(an.verdict.rootCause.unjudgedInputs, std::vector<std::string>{"G"});
}

TEST(VerdictUnknown, JsonSaysWhatWasNotJudgedAndHashesNoAbsentSide) {
    TempDir dir;
    writeNoisyHead(dir);
    fs::remove(dump(dir, "a", 1, "h_q_logits"));
    fs::remove(dump(dir, "b", 2, "g_sampled_rewards"));
    const json j = json::parse(reportJson(run(dir)));
    EXPECT_EQ(j["one_sided_buffers"], 2);
    const json& h = j["culprits"][1];
    EXPECT_EQ(h["group"], "H");
    EXPECT_EQ(h["state"], "not_judged");
    EXPECT_EQ(h["not_judged"], json::parse(R"([{"buffer":"q_logits","status":"only_in_b",
                                                "reason":"only in run B"}])"));
    EXPECT_EQ(j["culprits"][0]["state"], "equal");
    EXPECT_EQ(j["culprits"][3]["state"], "diverge");
    EXPECT_EQ(j["root_cause"]["groups"], json::array());
    EXPECT_EQ(j["root_cause"]["undecided_groups"], json::array({"J"}));
    EXPECT_EQ(j["root_cause"]["unjudged_inputs"], json::array({"H"}));

    auto bufferAt = [&](std::size_t step, const char* group, const char* name) -> const json& {
        for (const auto& g : j["steps"][step]["groups"])
            if (g["id"] == group)
                for (const auto& b : g["buffers"])
                    if (b["name"] == name) return b;
        throw std::runtime_error(std::string("no buffer ") + name);
    };
    const json& onlyB = bufferAt(1, "H", "q_logits");
    EXPECT_EQ(onlyB["status"], "only_in_b");
    EXPECT_TRUE(onlyB["hash_a"].is_null());
    EXPECT_TRUE(onlyB["hash_b"].is_null()); // run B's side was never read either
    const json& onlyA = bufferAt(2, "G", "sampled_rewards");
    EXPECT_EQ(onlyA["status"], "only_in_a");
    EXPECT_TRUE(onlyA["hash_a"].is_null());
    EXPECT_TRUE(onlyA["hash_b"].is_null());
    const json& pair = bufferAt(1, "H", "pi_logits");
    EXPECT_EQ(pair["status"], "equal");
    EXPECT_EQ(pair["hash_a"].get<std::string>().size(), 16u);
    EXPECT_EQ(pair["hash_a"], pair["hash_b"]);
}

TEST(VerdictUnknown, MarkdownAndHtmlSayTheRootCauseIsNotDetermined) {
    TempDir dir;
    writeNoisyHead(dir);
    fs::remove(dump(dir, "a", 1, "h_q_logits"));
    const Analysis an = run(dir);
    const std::string md = reportMarkdown(an), html = reportHtml(an);
    EXPECT_NE(md.find("by dataflow: not determined: an input could not be judged."),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("- **Warning:** 1 buffer(s) in one run only"), std::string::npos) << md;
    EXPECT_NE(md.find("q\\_logits only in run B"), std::string::npos) << md;
    EXPECT_NE(html.find("upstream: not determined: an input could not be judged.</p>"),
              std::string::npos);
    EXPECT_NE(html.find("<li>group J (per-head grad_h_t) diverges and no divergent group feeds "
                        "it: it is the source only if group H is equal</li>"),
              std::string::npos)
        << html;
}

TEST(VerdictUnknown, NoisyHeadSampleWithoutItsCulpritDoesNotBlameJ) {
    TempDir dir;
    if (!test::unpackSample("h200-noisy-head.tar.xz", dir.path()))
        GTEST_SKIP() << "../shared/samples/h200-noisy-head.tar.xz is not beside the checkout";
    const fs::path a = dir / "s2_noisy_head" / "a", b = dir / "s2_noisy_head" / "b";
    fs::remove(a / "step_1_h_q_logits.bin");
    const Analysis an = analyze(a, b);
    EXPECT_EQ(an.verdict.firstDivergentStep, 1u);
    EXPECT_TRUE(notJudged(culprit(an, "H")));
    EXPECT_TRUE(an.verdict.rootCause.groups.empty());
    EXPECT_EQ(an.verdict.rootCause.undecidedGroups, std::vector<std::string>{"J"});
    EXPECT_EQ(an.verdict.rootCause.unjudgedInputs, std::vector<std::string>{"H"});
}

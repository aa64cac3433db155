#include "dumpscope/analyze.h"
#include "dumpscope/demo.h"

#include "test_support.h"

#include <gtest/gtest.h>

using namespace dumpscope;
using dumpscope::test::TempDir;

TEST(Demo, PlantsANoisyHeadFoundAtStepOne) {
    TempDir dir;
    makeDemo(dir.path());
    auto an = analyze(dir / "a", dir / "b");
    EXPECT_EQ(an.steps.size(), 4u);
    EXPECT_EQ(an.buffers.size(), 124u);
    EXPECT_EQ(an.verdict.exitCode, 1);
    EXPECT_EQ(*an.verdict.firstDivergentStep, 1u);
    EXPECT_EQ(an.verdict.divergedGroups, (std::vector<std::string>{"H", "I", "J"}));
    EXPECT_EQ(an.verdict.decisionCase, DecisionCase::h_without_g);
    EXPECT_EQ(an.verdict.rootCause.groups, std::vector<std::string>{"H"});
    EXPECT_EQ(an.verdict.rootCause.buffers, std::vector<std::string>{"q_logits"});
}

TEST(Demo, IsDeterministic) {
    TempDir one, two;
    makeDemo(one.path());
    makeDemo(two.path());
    auto a = analyze(one / "a", one / "b"), b = analyze(two / "a", two / "b");
    for (std::size_t i = 0; i < a.buffers.size(); ++i) {
        EXPECT_EQ(a.buffers[i].stats.hashA, b.buffers[i].stats.hashA);
        EXPECT_EQ(a.buffers[i].stats.hashB, b.buffers[i].stats.hashB);
    }
}

TEST(Samples, H200IdenticalIsAllEqual) {
    TempDir dir;
    if (!test::unpackSample("h200-identical.tar.xz", dir.path()))
        GTEST_SKIP() << "../shared/samples/h200-identical.tar.xz is not beside the checkout";
    auto an = analyze(dir / "s0_identical" / "a", dir / "s0_identical" / "b");
    EXPECT_EQ(an.buffers.size(), 124u);
    EXPECT_EQ(an.verdict.exitCode, 0);
    EXPECT_EQ(an.verdict.decisionCase, DecisionCase::all_equal);
}

TEST(Samples, H200NoisyHeadRootsInQLogitsAtStepOne) {
    TempDir dir;
    if (!test::unpackSample("h200-noisy-head.tar.xz", dir.path()))
        GTEST_SKIP() << "../shared/samples/h200-noisy-head.tar.xz is not beside the checkout";
    auto an = analyze(dir / "s2_noisy_head" / "a", dir / "s2_noisy_head" / "b");
    EXPECT_EQ(an.verdict.exitCode, 1);
    EXPECT_EQ(*an.verdict.firstDivergentStep, 1u);
    EXPECT_EQ(an.verdict.divergedGroups, (std::vector<std::string>{"H", "I", "J"}));
    EXPECT_EQ(an.verdict.decisionCase, DecisionCase::h_without_g);
    EXPECT_EQ(an.verdict.rootCause.buffers, std::vector<std::string>{"q_logits"});
    for (const auto& b : an.buffers) {
        if (b.step == 1 && b.name == "q_logits") {
            EXPECT_EQ(b.status, Status::diverge);
            EXPECT_EQ(b.stats.nA, 512u);
            EXPECT_GT(b.stats.nDiff, 5u);
            EXPECT_LT(b.stats.maxUlp, 1000u); // "a few ULP"
        }
    }
}

#include "dumpscope/analyze.h"
#include "dumpscope/growth.h"
#include "dumpscope/verdict.h"

#include "run_fixture.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace dumpscope;
using dumpscope::test::perturb;
using dumpscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

Analysis run(const TempDir& dir, const AnalyzeOptions& options = {}) {
    return analyze(dir / "a", dir / "b", options);
}

const BufferResult& find(const Analysis& an, std::uint64_t step, const std::string& name) {
    for (const auto& b : an.buffers)
        if (b.step == step && b.name == name) return b;
    throw std::runtime_error("no buffer " + name);
}

} // namespace

TEST(Analyze, IdenticalRunsAreAllEqual) {
    TempDir dir;
    test::writeRunPair(dir);
    auto an = run(dir);
    EXPECT_EQ(an.steps, (std::vector<std::uint64_t>{0, 1, 2, 3}));
    EXPECT_EQ(an.buffers.size(), 4u * 31u);
    for (const auto& b : an.buffers) {
        EXPECT_EQ(b.status, Status::equal) << b.fileName;
        EXPECT_FALSE(b.pending);
        EXPECT_EQ(b.stats.nA, 8u);
    }
    EXPECT_EQ(an.verdict.exitCode, 0);
    EXPECT_EQ(an.verdict.decisionCase, DecisionCase::all_equal);
    EXPECT_FALSE(an.verdict.firstDivergentStep);
    ASSERT_EQ(an.matrix.size(), 4u);
    ASSERT_EQ(an.matrix[0].cells.size(), 5u); // no "other" column without unclassified files
    EXPECT_EQ(an.matrix[2].cells[2].status, Status::equal);
    EXPECT_EQ(an.matrix[2].cells[2].buffers.size(), 11u);
}

TEST(Analyze, BuffersComeInStepThenSchemaOrder) {
    TempDir dir;
    test::writeRunPair(dir, {0, 1});
    auto an = run(dir);
    ASSERT_EQ(an.buffers.size(), 62u);
    EXPECT_EQ(an.buffers[0].name, "sampled_h_t");
    EXPECT_EQ(an.buffers[6].name, "q_logits");
    EXPECT_EQ(an.buffers[30].name, "outcome_b");
    EXPECT_EQ(an.buffers[31].step, 1u);
    EXPECT_EQ(an.buffers[31].fileName, "step_1_g_sampled_h_t.bin");
    EXPECT_EQ(an.buffers[31].group, "G");
}

TEST(Analyze, DivergenceIsLocatedWithItsStatistics) {
    TempDir dir;
    test::writeRunPair(dir);
    perturb(dir, 2, "h_q_logits", 5);
    auto an = run(dir);
    const auto& b = find(an, 2, "q_logits");
    EXPECT_EQ(b.status, Status::diverge);
    EXPECT_EQ(b.stats.nDiff, 1u);
    EXPECT_EQ(*b.stats.firstDiff, 5u);
    EXPECT_EQ(b.stats.maxUlp, 1u);
    EXPECT_EQ(an.verdict.exitCode, 1);
    EXPECT_EQ(*an.verdict.firstDivergentStep, 2u);
    EXPECT_EQ(an.verdict.divergedGroups, std::vector<std::string>{"H"});
    EXPECT_EQ(an.verdict.decisionCase, DecisionCase::h_without_g);
    const auto& cell = an.matrix[2].cells[1];
    EXPECT_EQ(cell.group, "H");
    EXPECT_EQ(cell.status, Status::diverge);
    EXPECT_EQ(cell.nDivergent, 1u);
    EXPECT_GT(cell.maxAbsDelta, 0.0);
}

struct TreeCase {
    const char* name;
    std::vector<std::string> files; // perturbed at step 1
    DecisionCase expected;
    std::vector<std::string> groups;
    std::vector<std::string> rootGroups;
    std::vector<std::string> rootBuffers;
};

class DecisionTree : public ::testing::TestWithParam<TreeCase> {};

TEST_P(DecisionTree, TakesTheReferencesBranchAndFindsTheRootCause) {
    const auto& c = GetParam();
    TempDir dir;
    test::writeRunPair(dir);
    for (const auto& f : c.files)
        perturb(dir, 1, f);
    perturb(dir, 3, "k_outcome_w"); // later divergences must not matter
    auto an = run(dir);
    const auto& v = an.verdict;
    ASSERT_TRUE(v.firstDivergentStep);
    EXPECT_EQ(*v.firstDivergentStep, 1u);
    EXPECT_EQ(v.decisionCase, c.expected);
    EXPECT_EQ(v.divergedGroups, c.groups);
    EXPECT_EQ(v.rootCause.step, 1u);
    EXPECT_EQ(v.rootCause.groups, c.rootGroups);
    EXPECT_EQ(v.rootCause.buffers, c.rootBuffers);
    EXPECT_EQ(v.text, decisionText(c.expected));
    EXPECT_EQ(v.exitCode, 1);
}

INSTANTIATE_TEST_SUITE_P(
    Branches, DecisionTree,
    ::testing::Values(
        TreeCase{"GOnly",
                 {"g_sampled_actions"},
                 DecisionCase::g_only,
                 {"G"},
                 {"G"},
                 {"sampled_actions"}},
        TreeCase{"HWithoutG",
                 {"h_q_logits", "h_v_pred"},
                 DecisionCase::h_without_g,
                 {"H"},
                 {"H"},
                 {"q_logits", "v_pred"}},
        TreeCase{"IOnly",
                 {"i_cfc_grad_b_scratch"},
                 DecisionCase::i,
                 {"I"},
                 {"I"},
                 {"cfc_grad_b_scratch"}},
        TreeCase{"JWithoutI", {"j_grad_h_t_q"}, DecisionCase::j, {"J"}, {"J"}, {"grad_h_t_q"}},
        TreeCase{"KOnlyIsUnexpected",
                 {"k_outcome_b"},
                 DecisionCase::unexpected,
                 {"K"},
                 {"K"},
                 {"outcome_b"}},
        TreeCase{"GAndHIsUnexpected",
                 {"g_sampled_h_t", "h_q_logits"},
                 DecisionCase::unexpected,
                 {"G", "H"},
                 {"G"},
                 {"sampled_h_t"}},
        // The reference blames I; the data came from G.
        TreeCase{"GIJBlamesGByDataflow",
                 {"g_sampled_h_t", "i_attn_grad_q_scratch", "j_grad_h_t_v"},
                 DecisionCase::i,
                 {"G", "I", "J"},
                 {"G"},
                 {"sampled_h_t"}},
        TreeCase{"HIJRootsInH",
                 {"h_q_logits", "i_vsn_grad_b_scratch", "j_grad_h_t_combined"},
                 DecisionCase::h_without_g,
                 {"H", "I", "J"},
                 {"H"},
                 {"q_logits"}},
        TreeCase{"KAndJRootsInK",
                 {"k_outcome_labels", "j_grad_h_t_outcome"},
                 DecisionCase::j,
                 {"J", "K"},
                 {"K"},
                 {"outcome_labels"}},
        // Two independent sources: H and K both feed J, neither is fed by a divergent group.
        TreeCase{"TwoRoots",
                 {"h_pi_logits", "k_outcome_w", "j_grad_h_t_pi"},
                 DecisionCase::h_without_g,
                 {"H", "J", "K"},
                 {"H", "K"},
                 {"pi_logits", "outcome_w"}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Analyze, CulpritTableListsEveryGroupAtTheFirstStep) {
    TempDir dir;
    test::writeRunPair(dir);
    perturb(dir, 1, "j_grad_h_t_q");
    fs::remove(dir / "a" / "step_1_k_outcome_b.bin");
    fs::remove(dir / "b" / "step_1_k_outcome_b.bin");
    fs::remove(dir / "a" / "step_1_k_outcome_w.bin");
    fs::remove(dir / "b" / "step_1_k_outcome_w.bin");
    fs::remove(dir / "a" / "step_1_k_outcome_labels.bin");
    fs::remove(dir / "b" / "step_1_k_outcome_labels.bin");
    auto an = run(dir);
    const auto& rows = an.verdict.culprits;
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_TRUE(rows[0].present);
    EXPECT_TRUE(rows[0].divergentBuffers.empty());
    EXPECT_EQ(rows[3].divergentBuffers, std::vector<std::string>{"grad_h_t_q"});
    EXPECT_FALSE(rows[4].present); // no K dumps at step 1
    EXPECT_EQ(an.matrix[1].cells[4].status, Status::missing);
}

TEST(Analyze, AllStepsAreComparedNotJustZeroToThree) {
    TempDir dir;
    test::writeRunPair(dir, {1, 3, 10, 250});
    perturb(dir, 250, "g_sampled_rewards");
    auto an = run(dir);
    EXPECT_EQ(an.steps, (std::vector<std::uint64_t>{1, 3, 10, 250}));
    EXPECT_EQ(*an.verdict.firstDivergentStep, 250u);
    EXPECT_EQ(an.verdict.decisionCase, DecisionCase::g_only);
}

TEST(Analyze, StepsOptionRestrictsTheComparison) {
    TempDir dir;
    test::writeRunPair(dir);
    perturb(dir, 1, "h_q_logits");
    AnalyzeOptions options;
    options.steps = std::set<std::uint64_t>{2, 3};
    auto an = run(dir, options);
    EXPECT_EQ(an.steps, (std::vector<std::uint64_t>{2, 3}));
    EXPECT_EQ(an.verdict.exitCode, 0);
}

TEST(Analyze, OneSidedBuffersAreReportedNotSkipped) {
    TempDir dir;
    test::writeRunPair(dir, {0});
    fs::remove(dir / "b" / "step_0_h_v_pred.bin");
    fs::remove(dir / "a" / "step_0_i_cfc_grad_b_scratch.bin");
    auto an = run(dir);
    EXPECT_EQ(find(an, 0, "v_pred").status, Status::only_in_a);
    EXPECT_EQ(find(an, 0, "v_pred").stats.nA, 8u);
    EXPECT_EQ(find(an, 0, "cfc_grad_b_scratch").status, Status::only_in_b);
    EXPECT_EQ(an.matrix[0].cells[1].status, Status::only_in_a);
    EXPECT_EQ(an.verdict.exitCode, 0); // one-sided is not divergence (--strict makes it 2)
}

// Nothing to compare is not "identical": a run folder without a single dump is that run's
// error (exit 2), and the folder above the runs names the subfolders that hold dumps.
TEST(Analyze, ARunFolderWithoutDumpsIsThatRunsErrorNotAMatch) {
    TempDir dir;
    test::writeRunPair(dir, {0});
    fs::create_directories(dir / "empty");
    std::ofstream(dir / "empty" / "notes.txt") << "not a dump";
    const Analysis oneEmpty = analyze(dir / "a", dir / "empty");
    EXPECT_TRUE(oneEmpty.errorA.empty());
    EXPECT_EQ(oneEmpty.errorB,
              (dir / "empty").string() +
                  ": no dump files (step_<step>_<group>_<name>.bin, or .npy, .npz, .safetensors, "
                  ".pt files by step) in this folder; nothing to compare");
    EXPECT_TRUE(oneEmpty.buffers.empty());
    EXPECT_EQ(oneEmpty.verdict.exitCode, 2);
    // Not the reference's all_equal: nothing was compared, which is never a match.
    EXPECT_EQ(oneEmpty.verdict.decisionCase, DecisionCase::not_compared);
    EXPECT_EQ(oneEmpty.verdict.text,
              "Not compared: a run could not be read: its directory is missing, unreadable or "
              "holds no dumps, or its capture log was refused (the error says why).");

    const Analysis above = analyze(dir.path(), dir / "b");
    EXPECT_NE(above.errorA.find("its subfolders a, b hold dumps: give a run's own folder"),
              std::string::npos)
        << above.errorA;
    EXPECT_EQ(above.verdict.exitCode, 2);
}

TEST(Analyze, LengthMismatchIsADivergence) {
    TempDir dir;
    test::writeRunPair(dir, {0});
    test::writeDump(dir / "b", 0, "h_pi_logits", std::vector<float>{1, 2, 3});
    auto an = run(dir);
    const auto& b = find(an, 0, "pi_logits");
    EXPECT_EQ(b.status, Status::length_mismatch);
    EXPECT_EQ(b.stats.nA, 8u);
    EXPECT_EQ(b.stats.nB, 3u);
    EXPECT_EQ(an.verdict.decisionCase, DecisionCase::h_without_g);
}

TEST(Analyze, RaggedFileIsAnErrorAndTheRestGoesOn) {
    TempDir dir;
    test::writeRunPair(dir, {0, 1});
    test::writeText(dir / "b" / "step_0_h_q_logits.bin", "abcdefg"); // 7 bytes
    perturb(dir, 1, "j_grad_h_t_v");
    auto an = run(dir);
    const auto& b = find(an, 0, "q_logits");
    EXPECT_EQ(b.status, Status::error);
    EXPECT_NE(
        b.error.find(
            "step_0_h_q_logits.bin: size 7 bytes is not a multiple of the element size 4 (f32)"),
        std::string::npos)
        << b.error;
    EXPECT_EQ(an.matrix[0].cells[1].status, Status::error);
    EXPECT_EQ(find(an, 1, "grad_h_t_v").status, Status::diverge); // analysis went on
    EXPECT_EQ(an.verdict.exitCode, 2);
    EXPECT_EQ(an.verdict.decisionCase, DecisionCase::j);
}

TEST(Analyze, EmptyFilesAreEqual) {
    TempDir dir;
    test::writeRunPair(dir, {0});
    test::writeText(dir / "a" / "step_0_h_q_logits.bin", "");
    test::writeText(dir / "b" / "step_0_h_q_logits.bin", "");
    auto an = run(dir);
    EXPECT_EQ(find(an, 0, "q_logits").status, Status::equal);
    EXPECT_EQ(find(an, 0, "q_logits").stats.nA, 0u);
}

TEST(Analyze, UnclassifiedFilesAreComparedButNotInTheTree) {
    TempDir dir;
    test::writeRunPair(dir, {0});
    test::writeDump(dir / "a", 0, "x_extra", std::vector<std::uint8_t>{1, 2, 3});
    test::writeDump(dir / "b", 0, "x_extra", std::vector<std::uint8_t>{1, 9, 3});
    auto an = run(dir);
    EXPECT_EQ(std::vector<std::string>(an.unclassified.begin(), an.unclassified.end()),
              std::vector<std::string>{"step_0_x_extra.bin"});
    const auto& b = find(an, 0, "x_extra");
    EXPECT_EQ(b.group, kOtherGroup);
    EXPECT_EQ(b.dtype, DType::u8);
    EXPECT_EQ(b.status, Status::diverge);
    EXPECT_EQ(*b.stats.firstDiff, 1u);
    ASSERT_EQ(an.matrix[0].cells.size(), 6u);
    EXPECT_EQ(an.matrix[0].cells[5].group, "other");
    EXPECT_EQ(an.verdict.decisionCase, DecisionCase::all_equal);
    EXPECT_FALSE(an.verdict.firstDivergentStep);
    EXPECT_EQ(an.verdict.exitCode, 1); // the runs are not identical
}

TEST(Analyze, MissingRunDirectoryIsExitTwo) {
    TempDir dir;
    test::writeRunPair(dir, {0});
    auto an = analyze(dir / "a", dir / "nope");
    EXPECT_TRUE(an.errorA.empty());
    EXPECT_NE(an.errorB.find("nope: no such run directory"), std::string::npos);
    EXPECT_EQ(an.verdict.exitCode, 2);
    EXPECT_TRUE(an.buffers.empty());
}

TEST(Analyze, SameDirectoryTwiceIsAllowedWithANote) {
    TempDir dir;
    test::writeRunPair(dir, {0});
    auto an = analyze(dir / "a", dir / "a");
    EXPECT_EQ(an.verdict.exitCode, 0);
    ASSERT_EQ(an.warnings.size(), 1u);
    EXPECT_NE(an.warnings[0].find("same directory"), std::string::npos);
}

TEST(Analyze, ThreadCountDoesNotChangeTheResult) {
    TempDir dir;
    test::writeRunPair(dir);
    perturb(dir, 1, "h_q_logits");
    perturb(dir, 2, "i_attn_grad_q_scratch", 7);
    AnalyzeOptions one, four;
    one.threads = 1;
    four.threads = 4;
    auto a = run(dir, one), b = run(dir, four);
    ASSERT_EQ(a.buffers.size(), b.buffers.size());
    for (std::size_t i = 0; i < a.buffers.size(); ++i) {
        EXPECT_EQ(a.buffers[i].fileName, b.buffers[i].fileName);
        EXPECT_EQ(a.buffers[i].status, b.buffers[i].status);
        EXPECT_EQ(a.buffers[i].stats.hashB, b.buffers[i].stats.hashB);
        EXPECT_EQ(a.buffers[i].stats.nDiff, b.buffers[i].stats.nDiff);
    }
    EXPECT_EQ(a.verdict.text, b.verdict.text);
}

TEST(Analyze, ProgressReportsEveryBufferAndCanCancel) {
    TempDir dir;
    test::writeRunPair(dir);
    std::size_t calls = 0, lastTotal = 0;
    analyze(dir / "a", dir / "b", {},
            [&](std::size_t, const BufferResult& r, std::size_t done, std::size_t total) {
                ++calls;
                EXPECT_FALSE(r.pending);
                EXPECT_EQ(done, calls);
                lastTotal = total;
                return true;
            });
    EXPECT_EQ(calls, 124u);
    EXPECT_EQ(lastTotal, 124u);

    AnalyzeOptions single;
    single.threads = 1;
    auto an = analyze(
        dir / "a", dir / "b", single,
        [&](std::size_t, const BufferResult&, std::size_t done, std::size_t) { return done < 10; });
    EXPECT_TRUE(an.cancelled);
    std::size_t pending = 0;
    for (const auto& b : an.buffers)
        pending += b.pending;
    EXPECT_EQ(pending, 124u - 10u);
}

TEST(Analyze, PlanListsTheWorkWithoutReadingIt) {
    TempDir dir;
    test::writeRunPair(dir, {0, 5});
    fs::remove(dir / "b" / "step_5_h_v_pred.bin");
    auto p = plan(dir / "a", dir / "b");
    EXPECT_EQ(p.steps, (std::vector<std::uint64_t>{0, 5}));
    EXPECT_EQ(p.buffers.size(), 62u);
    for (const auto& b : p.buffers)
        EXPECT_TRUE(b.pending);
    EXPECT_EQ(p.matrix[1].cells[1].nPending, 5u);
}

TEST(Growth, FollowsEachBufferAcrossSteps) {
    TempDir dir;
    test::writeRunPair(dir, {0, 1, 2});
    perturb(dir, 1, "h_q_logits", 1);
    perturb(dir, 2, "h_q_logits", 1);
    perturb(dir, 2, "h_q_logits", 4);
    fs::remove(dir / "a" / "step_2_k_outcome_b.bin");
    fs::remove(dir / "b" / "step_2_k_outcome_b.bin");
    auto an = run(dir);
    auto series = growthSeries(an);
    ASSERT_EQ(series.size(), 31u);
    const auto& q = series[6];
    EXPECT_EQ(q.name, "q_logits");
    ASSERT_EQ(q.points.size(), 3u);
    EXPECT_EQ(q.points[0].nDiff, 0u);
    EXPECT_EQ(q.points[1].nDiff, 1u);
    EXPECT_EQ(q.points[2].nDiff, 2u);
    EXPECT_EQ(q.points[2].status, Status::diverge);
    EXPECT_GT(q.points[1].maxAbsDelta, 0.0);
    EXPECT_TRUE(q.anyDifference());
    EXPECT_FALSE(series[0].anyDifference());
    EXPECT_EQ(series[30].name, "outcome_b");
    EXPECT_EQ(series[30].points[2].status, Status::missing);
}

TEST(Growth, OneBuffersSeriesFromItsResultsIsItsEntryInTheWholeSet) {
    TempDir dir;
    test::writeRunPair(dir, {0, 1, 2});
    perturb(dir, 1, "h_q_logits", 1);
    perturb(dir, 2, "h_q_logits", 4);
    fs::remove(dir / "a" / "step_1_k_outcome_b.bin");
    const auto an = run(dir);
    for (const auto& want : growthSeries(an)) {
        std::vector<std::size_t> results;
        for (std::size_t i = an.buffers.size(); i-- > 0;) // any order, others ignored
            results.push_back(i);
        const GrowthSeries got = growthSeriesOf(an, want.group, want.name, results);
        ASSERT_EQ(got.points.size(), want.points.size()) << want.name;
        for (std::size_t k = 0; k < want.points.size(); ++k) {
            EXPECT_EQ(got.points[k].step, want.points[k].step);
            EXPECT_EQ(got.points[k].status, want.points[k].status) << want.name << " " << k;
            EXPECT_EQ(got.points[k].nDiff, want.points[k].nDiff);
            EXPECT_EQ(got.points[k].maxAbsDelta, want.points[k].maxAbsDelta);
        }
    }
    EXPECT_EQ(growthSeriesOf(an, "H", "q_logits", {an.buffers.size() + 5}).points.size(), 3u)
        << "an index past the end is ignored";
}

// A base against several candidates: the per-candidate summary, the ranking, the noise-floor
// reading and the multi-run reports, on generated runs.
#include "dumpscope/multi_report.h"
#include "dumpscope/multi_run.h"

#include "multi_run_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using dumpscope::FloorReading;
using dumpscope::test::Candidates;
using dumpscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

dumpscope::MultiRunAnalysis analyze(const Candidates& c) {
    return dumpscope::analyzeCandidates(c.base(), c.runs());
}

} // namespace

TEST(MultiRun, FirstDivergencePerCandidateAndRankingByStep) {
    const Candidates c = dumpscope::test::threeCandidates();
    const auto m = analyze(c);
    ASSERT_EQ(m.pairs.size(), 3u);
    const auto& s = m.summary;
    ASSERT_EQ(s.candidates.size(), 3u);

    EXPECT_EQ(s.candidates[0].run, c.runs()[0]);
    EXPECT_EQ(s.candidates[0].exitCode, 0);
    EXPECT_FALSE(s.candidates[0].firstDivergentStep);
    EXPECT_EQ(s.candidates[0].divergentCells, 0u);
    EXPECT_EQ(s.candidates[0].rank, 0u);

    EXPECT_EQ(s.candidates[1].exitCode, 1);
    EXPECT_EQ(s.candidates[1].firstDivergentStep, 2u);
    EXPECT_EQ(s.candidates[1].divergedGroups, std::vector<std::string>{"H"});
    EXPECT_EQ(s.candidates[1].rootCause.groups, std::vector<std::string>{"H"});
    EXPECT_EQ(s.candidates[1].rootCause.buffers, std::vector<std::string>{"q_logits"});
    EXPECT_EQ(s.candidates[1].divergentCells, 1u);
    EXPECT_EQ(s.candidates[1].divergentBuffers, 1u);
    EXPECT_EQ(s.candidates[1].divergentSteps, 1u);
    EXPECT_EQ(s.candidates[1].rank, 2u);

    EXPECT_EQ(s.candidates[2].firstDivergentStep, 1u);
    EXPECT_EQ(s.candidates[2].divergedGroups, std::vector<std::string>{"G"});
    EXPECT_EQ(s.candidates[2].rootCause.buffers, std::vector<std::string>{"sampled_h_t"});
    EXPECT_EQ(s.candidates[2].rank, 1u);

    EXPECT_EQ(s.ranking, (std::vector<std::size_t>{2, 1, 0}));
    EXPECT_EQ(s.exitCode, 1);
    // Each pair is exactly what analyze() gives for it alone.
    const auto alone = dumpscope::analyze(c.base(), c.runs()[1]);
    EXPECT_EQ(m.pairs[1].verdict.firstDivergentStep, alone.verdict.firstDivergentStep);
    EXPECT_EQ(m.pairs[1].runA, c.base());
}

TEST(MultiRun, CleanNoiseFloorMakesEveryDivergenceTheChanges) {
    Candidates c;
    c.add({});
    c.add({{2, "h_q_logits"}});
    c.add({});
    const auto s = analyze(c).summary;
    ASSERT_EQ(s.againstFloor.size(), 2u);
    EXPECT_EQ(s.againstFloor[0].candidate, 1u);
    EXPECT_EQ(s.againstFloor[0].reading, FloorReading::floor_clean);
    EXPECT_NE(s.againstFloor[0].text.find("is bit-identical to the base"), std::string::npos);
    EXPECT_EQ(s.againstFloor[1].reading, FloorReading::equal);
    EXPECT_EQ(s.ranking, (std::vector<std::size_t>{1, 0, 2}));
}

TEST(MultiRun, NoisyFloorEarlierOtherBuffersWithinFloor) {
    Candidates c;
    c.add({{2, "h_q_logits"}});                       // the floor: rerun noise from step 2
    c.add({{1, "g_sampled_h_t"}, {2, "h_q_logits"}}); // earlier
    c.add({{2, "h_q_logits"}, {3, "j_grad_h_t_q"}});  // same step, one more buffer
    c.add({{2, "h_q_logits"}});                       // the same as the noise
    const auto s = analyze(c).summary;
    ASSERT_EQ(s.againstFloor.size(), 3u);

    EXPECT_EQ(s.againstFloor[0].reading, FloorReading::earlier);
    EXPECT_NE(s.againstFloor[0].text.find("EARLIER"), std::string::npos) << s.againstFloor[0].text;
    ASSERT_EQ(s.againstFloor[0].nBeyondFloor, 1u);
    EXPECT_EQ(s.againstFloor[0].beyondFloor.front(), (dumpscope::BufferAt{1, "G", "sampled_h_t"}));

    EXPECT_EQ(s.againstFloor[1].reading, FloorReading::other_buffers);
    EXPECT_NE(s.againstFloor[1].text.find("OTHER buffers"), std::string::npos)
        << s.againstFloor[1].text;
    ASSERT_EQ(s.againstFloor[1].beyondFloor.size(), 1u);
    EXPECT_EQ(s.againstFloor[1].beyondFloor.front(), (dumpscope::BufferAt{3, "J", "grad_h_t_q"}));

    EXPECT_EQ(s.againstFloor[2].reading, FloorReading::within_floor);
    EXPECT_EQ(s.againstFloor[2].nBeyondFloor, 0u);

    // Ties share a rank and keep the input order.
    EXPECT_EQ(s.ranking, (std::vector<std::size_t>{1, 0, 2, 3}));
    EXPECT_EQ(s.candidates[0].rank, 2u);
    EXPECT_EQ(s.candidates[3].rank, 2u);
}

TEST(MultiRun, MissingCandidateIsNotComparedExitsTwoAndRanksLast) {
    Candidates c;
    c.add({{2, "h_q_logits"}});
    c.add({});
    auto runs = c.runs();
    runs.push_back(*c.dirs.front() / "missing");
    const auto s = dumpscope::analyzeCandidates(c.base(), runs).summary;
    ASSERT_EQ(s.candidates.size(), 3u);
    EXPECT_EQ(s.candidates[2].exitCode, 2);
    EXPECT_NE(s.candidates[2].error.find("missing"), std::string::npos);
    EXPECT_EQ(s.againstFloor[1].reading, FloorReading::not_compared);
    EXPECT_EQ(s.ranking, (std::vector<std::size_t>{0, 1, 2}));
    EXPECT_EQ(s.exitCode, 2);
}

TEST(MultiRun, OneCandidateHasNoNoiseFloor) {
    Candidates c;
    c.add({{1, "g_sampled_h_t"}});
    const auto s = analyze(c).summary;
    EXPECT_TRUE(s.againstFloor.empty());
    EXPECT_EQ(s.exitCode, 1);
}

TEST(MultiRunReport, JsonHoldsEveryPairsDocumentAndTheSummary) {
    const Candidates c = dumpscope::test::threeCandidates();
    const auto m = analyze(c);
    const auto doc = nlohmann::json::parse(dumpscope::multiReportJson(m));
    EXPECT_EQ(doc["base"], c.base().string());
    EXPECT_EQ(doc["exit_code"], 1);
    ASSERT_EQ(doc["candidates"].size(), 3u);
    EXPECT_EQ(doc["candidates"][1]["run"], c.runs()[1].string());
    EXPECT_EQ(doc["candidates"][1]["run_a"], c.base().string());
    EXPECT_EQ(doc["candidates"][1]["first_divergent_step"], 2);
    EXPECT_EQ(doc["candidates"][2]["root_cause"]["buffers"][0], "sampled_h_t");
    const auto& ranking = doc["summary"]["ranking"];
    ASSERT_EQ(ranking.size(), 3u);
    EXPECT_EQ(ranking[0]["candidate"], 3);
    EXPECT_EQ(ranking[0]["first_divergent_step"], 1);
    EXPECT_EQ(ranking[0]["rank"], 1);
    EXPECT_EQ(ranking[2]["candidate"], 1);
    EXPECT_TRUE(ranking[2]["rank"].is_null());
    const auto& floor = doc["summary"]["noise_floor"];
    EXPECT_EQ(floor["candidate"], 1);
    EXPECT_EQ(floor["readings"][0]["reading"], "floor_clean");
}

TEST(MultiRunReport, MarkdownAndHtmlLeadWithTheRankedSummary) {
    Candidates c;
    c.add({{2, "h_q_logits"}});
    c.add({{1, "g_sampled_h_t"}});
    const auto m = analyze(c);
    const std::string md = dumpscope::multiReportMarkdown(m);
    const auto summary = md.find("## Summary: which candidate diverges first where");
    ASSERT_NE(summary, std::string::npos) << md;
    const auto first = md.find("| `1` | `2: " + c.runs()[1].string() + "` | `1` | `G` |");
    const auto second = md.find("| `2` | `1: " + c.runs()[0].string() + "` | `2` | `H` |");
    EXPECT_NE(first, std::string::npos) << md;
    EXPECT_LT(first, second);
    EXPECT_NE(md.find("- **earlier**: candidate 2"), std::string::npos) << md;
    // Each pair's report follows, its headings one level down.
    EXPECT_NE(md.find("\n# Candidate 2\n\n## dumpscope report\n"), std::string::npos) << md;
    EXPECT_EQ(md.find("\n# dumpscope report\n"), std::string::npos);

    const std::string html = dumpscope::multiReportHtml(m);
    EXPECT_NE(html.find("<h2>Against the noise floor</h2>"), std::string::npos);
    EXPECT_NE(html.find("<section id=\"candidate-2\">"), std::string::npos);
    EXPECT_EQ(html.find("<body>"), html.rfind("<body>")); // one document, not two glued
}

TEST(MultiRunReport, RefusedInsideAnyCandidate) {
    Candidates c;
    c.add({});
    c.add({});
    const auto m = analyze(c);
    EXPECT_THROW(dumpscope::writeMultiReport(m, c.runs()[1] / "r.md"), std::runtime_error);
    EXPECT_FALSE(fs::exists(c.runs()[1] / "r.md"));
    TempDir out;
    dumpscope::writeMultiReport(m, out / "r.json");
    const auto doc = nlohmann::json::parse(dumpscope::test::readFile(out / "r.json"));
    EXPECT_EQ(doc["candidates"].size(), 2u);
}

// dumpscope-cli BASE RUN1 RUN2 …: the real binary with several candidates.
#include "multi_run_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using dumpscope::test::Candidates;
using dumpscope::test::ProcessResult;
using dumpscope::test::TempDir;
using dumpscope::test::threeCandidates;

namespace {

ProcessResult cli(const Candidates& c, std::vector<std::string> options = {}) {
    std::vector<std::string> args{DUMPSCOPE_CLI_PATH, c.base().string()};
    for (const auto& run : c.runs())
        args.push_back(run.string());
    args.insert(args.end(), options.begin(), options.end());
    return dumpscope::test::runProcess(args);
}

} // namespace

TEST(CliMulti, TextHasOneSectionPerCandidateThenTheRankedSummary) {
    const Candidates c = threeCandidates();
    const auto r = cli(c, {"--quiet"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    const auto runs = c.runs();
    const auto s1 = r.out.find("##### candidate 1 of 3: " + runs[0].string() + " (base " +
                               c.base().string() + ")\n");
    const auto s2 = r.out.find("##### candidate 2 of 3: " + runs[1].string());
    const auto s3 = r.out.find("##### candidate 3 of 3: " + runs[2].string());
    const auto summary = r.out.find("SUMMARY: base " + c.base().string() + " against 3 candidates");
    ASSERT_NE(s1, std::string::npos) << r.out;
    ASSERT_NE(summary, std::string::npos) << r.out;
    EXPECT_LT(s1, s2);
    EXPECT_LT(s2, s3);
    EXPECT_LT(s3, summary);
    EXPECT_NE(r.out.find("VERDICT (first divergent step = 2):", s2), std::string::npos);
    EXPECT_NE(r.out.find("VERDICT (first divergent step = 1):", s3), std::string::npos);
    // Ranked: candidate 3 (step 1), candidate 2 (step 2), then the identical one.
    const std::string table = r.out.substr(summary);
    const auto first = table.find("  1     3: " + runs[2].string());
    const auto second = table.find("  2     2: " + runs[1].string());
    const auto last = table.find("  —     1: " + runs[0].string());
    EXPECT_NE(first, std::string::npos) << table;
    EXPECT_LT(first, second) << table;
    EXPECT_LT(second, last) << table;
    EXPECT_NE(table.find("G: sampled_h_t"), std::string::npos) << table;
    EXPECT_NE(
        table.find("floor_clean: candidate 2 (" + runs[1].string() + ") diverges from step 2"),
        std::string::npos)
        << table;
}

TEST(CliMulti, JsonParsesWithEveryPairAndTheSummary) {
    const Candidates c = threeCandidates();
    const auto r = cli(c, {"--json"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["base"], c.base().string());
    EXPECT_EQ(doc["exit_code"], 1);
    ASSERT_EQ(doc["candidates"].size(), 3u);
    for (std::size_t k = 0; k < 3; ++k) {
        EXPECT_EQ(doc["candidates"][k]["run"], c.runs()[k].string());
        EXPECT_EQ(doc["candidates"][k]["run_b"], c.runs()[k].string());
    }
    EXPECT_EQ(doc["candidates"][0]["exit_code"], 0);
    EXPECT_EQ(doc["candidates"][1]["diverged_groups"], nlohmann::json::array({"H"}));
    EXPECT_EQ(doc["candidates"][2]["first_divergent_step"], 1);
    const auto& ranking = doc["summary"]["ranking"];
    ASSERT_EQ(ranking.size(), 3u);
    EXPECT_EQ(ranking[0]["candidate"], 3);
    EXPECT_EQ(ranking[1]["candidate"], 2);
    EXPECT_EQ(ranking[1]["first_divergent_step"], 2);
    EXPECT_EQ(ranking[2]["candidate"], 1);
    EXPECT_EQ(doc["summary"]["noise_floor"]["readings"].size(), 2u);
}

TEST(CliMulti, ExitCodesZeroAllEqualTwoOnAMissingCandidate) {
    Candidates c;
    c.add({});
    c.add({});
    EXPECT_EQ(cli(c).exitCode, 0);
    const auto missing = cli(c, {(*c.dirs.front() / "missing").string()});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("candidate 3: error: "), std::string::npos) << missing.err;
    EXPECT_NE(missing.out.find("not compared"), std::string::npos) << missing.out;
}

TEST(CliMulti, TwoRunsPrintExactlyTheirSectionOfTheMultiRunText) {
    const Candidates c = threeCandidates();
    const auto multi = cli(c);
    const auto pair =
        dumpscope::test::runProcess({DUMPSCOPE_CLI_PATH, c.base().string(), c.runs()[1].string()});
    EXPECT_EQ(pair.exitCode, 1);
    EXPECT_EQ(pair.out.find("#####"), std::string::npos);
    EXPECT_EQ(pair.out.find("SUMMARY"), std::string::npos);
    const auto header = multi.out.find("##### candidate 2 of 3:");
    const auto from = multi.out.find('\n', header) + 1;
    const auto to = multi.out.find("\n##### candidate 3 of 3:");
    ASSERT_NE(header, std::string::npos);
    EXPECT_EQ(multi.out.substr(from, to - from), pair.out);
}

TEST(CliMulti, ReferenceCompatStaysTwoRunsOnly) {
    const Candidates c = threeCandidates();
    const auto r = cli(c, {"--reference-compat"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--reference-compat compares two runs only"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
}

TEST(CliMulti, ReportWritesTheMultiRunMarkdown) {
    const Candidates c = threeCandidates();
    TempDir out;
    const auto r = cli(c, {"--quiet", "--report", (out / "multi.md").string()});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    const std::string md = dumpscope::test::readFile(out / "multi.md");
    EXPECT_EQ(md.rfind("# dumpscope report: a base against 3 candidates\n", 0), 0u) << md;
    EXPECT_NE(md.find("## Against the noise floor"), std::string::npos);
    EXPECT_NE(md.find("# Candidate 3"), std::string::npos);
}

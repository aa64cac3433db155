// How the files of a run are found without options: the reference's flat step files, a
// directory per step, a directory per rank; and a user's --layout pattern. Raw dumps here; the
// self-describing formats have their own tests.
#include "dumpscope/analyze.h"
#include "dumpscope/rank_view.h"
#include "dumpscope/report.h"
#include "dumpscope/scan.h"

#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <utility>

using namespace dumpscope;
namespace fs = std::filesystem;

namespace {

void writeRaw(const fs::path& file, const std::vector<float>& values) {
    fs::create_directories(file.parent_path());
    test::writeArray(file, values);
}

std::vector<std::string> keys(const RunScan& scan) {
    std::vector<std::string> out;
    for (const auto& [key, file] : scan.files)
        out.push_back(std::to_string(key.step) + "/" + std::to_string(key.rank) + "/" + key.name +
                      "=" + file.fileName);
    return out;
}

} // namespace

TEST(Layouts, ADirectoryPerStepInAnySpelling) {
    test::TempDir dir;
    writeRaw(dir / "step_1/h_q_logits.bin", {1});
    writeRaw(dir / "step2/h_q_logits.bin", {1});
    writeRaw(dir / "step-3/h_q_logits.bin", {1});
    writeRaw(dir / "step_4/notes.txt", {1}); // not a dump
    writeRaw(dir / "stepx/h_q_logits.bin", {1});
    const RunScan scan = scanRun(dir.path());
    EXPECT_TRUE(scan.error.empty()) << scan.error;
    EXPECT_FALSE(scan.ranked);
    EXPECT_EQ(keys(scan), (std::vector<std::string>{"1/0/h_q_logits=step_1/h_q_logits.bin",
                                                    "2/0/h_q_logits=step2/h_q_logits.bin",
                                                    "3/0/h_q_logits=step-3/h_q_logits.bin"}));
}

TEST(Layouts, ADirectoryPerRankHoldsEachRanksOwnLayout) {
    test::TempDir dir;
    test::writeDump(dir / "rank0", 1, "h_q_logits", std::vector<float>{1});
    test::writeDump(dir / "rank_1", 1, "h_q_logits", std::vector<float>{1});
    writeRaw(dir / "rank-2/step_1/h_q_logits.bin", {1});
    const RunScan scan = scanRun(dir.path());
    EXPECT_TRUE(scan.error.empty()) << scan.error;
    EXPECT_TRUE(scan.ranked);
    EXPECT_EQ(keys(scan),
              (std::vector<std::string>{"1/0/h_q_logits=rank0/step_1_h_q_logits.bin",
                                        "1/1/h_q_logits=rank_1/step_1_h_q_logits.bin",
                                        "1/2/h_q_logits=rank-2/step_1/h_q_logits.bin"}));
}

TEST(Layouts, APatternNamesRankStepGroupAndName) {
    test::TempDir dir;
    writeRaw(dir / "node0/iter_000010/H/q_logits.bin", {1});
    writeRaw(dir / "node1/iter_000010/H/q_logits.bin", {1});
    writeRaw(dir / "node1/iter_x/H/q_logits.bin", {1});   // not a step
    writeRaw(dir / "node1/iter_000010/H/extra.txt", {1}); // not a dump
    ScanOptions options{"node{rank}/iter_{step}/{group}/{name}"};
    const RunScan scan = scanRun(dir.path(), options);
    EXPECT_TRUE(scan.error.empty()) << scan.error;
    EXPECT_TRUE(scan.ranked);
    // Zero-padded steps read as numbers under a pattern: iter_000010 is step 10.
    const std::vector<std::string> expected{"10/0/q_logits=node0/iter_000010/H/q_logits.bin",
                                            "10/1/q_logits=node1/iter_000010/H/q_logits.bin"};
    EXPECT_EQ(keys(scan), expected);
    options.layout = "node{rank}/iter_0000{step}/{group}/{name}.bin";
    const RunScan padded = scanRun(dir.path(), options);
    EXPECT_EQ(keys(padded), expected);
    EXPECT_EQ(padded.files.begin()->second.group, "H");
    EXPECT_EQ(keys(padded),
              (std::vector<std::string>{"10/0/q_logits=node0/iter_000010/H/q_logits.bin",
                                        "10/1/q_logits=node1/iter_000010/H/q_logits.bin"}));
}

TEST(Layouts, ABadPatternIsTheRunsErrorSayingWhy) {
    EXPECT_EQ(layoutPatternError("rank{rank}/{name}.pt"), "the layout pattern has no {step}");
    EXPECT_NE(layoutPatternError("{step}/{nmae}").find("unknown placeholder {nmae}"),
              std::string::npos);
    EXPECT_NE(layoutPatternError("/abs/{step}").find("relative"), std::string::npos);
    EXPECT_NE(layoutPatternError("a//{step}").find("empty"), std::string::npos);
    EXPECT_NE(layoutPatternError("{step").find("without its"), std::string::npos);
    EXPECT_EQ(layoutPatternError("step_{step}/{file}.bin"), "");
    test::TempDir dir;
    const RunScan scan = scanRun(dir.path(), ScanOptions{"{nope}"});
    EXPECT_NE(scan.error.find("--layout {nope}: "), std::string::npos) << scan.error;
}

TEST(Layouts, EveryRankIsComparedAndTheVerdictNamesTheFirstDivergentRanks) {
    test::TempDir dir;
    test::writeRankedPair(dir.path(), 3, 2,
                          [](int rank, int step) { return step == 2 && rank != 0; });
    const Analysis an = analyze(dir / "a", dir / "b");
    EXPECT_TRUE(an.ranked);
    ASSERT_EQ(an.buffers.size(), 6u); // 2 steps x 3 ranks
    std::size_t divergent = 0;
    for (const auto& b : an.buffers) {
        ASSERT_TRUE(b.rank);
        divergent += b.status == Status::diverge;
        EXPECT_EQ(b.status == Status::diverge, b.step == 2 && *b.rank != 0) << *b.rank;
    }
    EXPECT_EQ(divergent, 2u);
    EXPECT_EQ(an.verdict.firstDivergentStep, 2u);
    EXPECT_EQ(an.verdict.firstDivergentRank, 1u);
    EXPECT_EQ(an.verdict.rootCause.ranks, (std::vector<std::uint64_t>{1, 2}));
    // Rank 0's equal copy of the root buffer does not lend it its kind.
    EXPECT_EQ(an.verdict.rootCause.kinds, std::vector<Kind>{Kind::numeric});
    ASSERT_EQ(an.verdict.rootCause.sources.size(), 1u);
    EXPECT_EQ(an.verdict.rootCause.sources[0].kind, Kind::numeric);
    // One name per group in the culprit table, whatever the number of ranks.
    for (const auto& row : an.verdict.culprits) {
        if (row.group == "H") {
            EXPECT_EQ(row.divergentBuffers, std::vector<std::string>{"q_logits"});
        }
    }
    const auto json = nlohmann::json::parse(reportJson(an));
    EXPECT_EQ(json["first_divergent_rank"], 1);
    EXPECT_EQ(json["root_cause"]["rank"], 1);
    EXPECT_EQ(json["root_cause"]["ranks"], nlohmann::json::array({1, 2}));
    std::set<int> ranksSeen;
    for (const auto& step : json["steps"])
        for (const auto& group : step["groups"])
            for (const auto& b : group["buffers"])
                ranksSeen.insert(b["rank"].get<int>());
    EXPECT_EQ(ranksSeen, (std::set<int>{0, 1, 2}));
}

TEST(Layouts, WithoutRanksTheJsonSaysNull) {
    test::TempDir dir;
    test::writeDump(dir / "a", 1, "h_q_logits", std::vector<float>{1});
    test::writeDump(dir / "b", 1, "h_q_logits", std::vector<float>{2});
    const Analysis an = analyze(dir / "a", dir / "b");
    EXPECT_FALSE(an.ranked);
    const auto json = nlohmann::json::parse(reportJson(an));
    EXPECT_TRUE(json["first_divergent_rank"].is_null());
    EXPECT_TRUE(json["root_cause"]["rank"].is_null());
    EXPECT_TRUE(json["steps"][0]["groups"][1]["buffers"][0]["rank"].is_null())
        << json["steps"][0]["groups"][1].dump();
}

TEST(Layouts, ARanksViewAndTheStepByRankOverview) {
    test::TempDir dir;
    test::writeRankedPair(
        dir.path(), 2, 3, [](int rank, int step) { return rank == 1 && step >= 2; }, "rank_");
    test::writeDump(dir / "a" / "rank_1", 3, "h_pi_logits", std::vector<float>{1}); // A only
    const Analysis an = analyze(dir / "a", dir / "b");
    EXPECT_EQ(ranksOf(an), (std::vector<std::uint64_t>{0, 1}));

    const Analysis zero = rankView(an, 0);
    EXPECT_EQ(zero.buffers.size(), 3u);
    EXPECT_EQ(zero.verdict.exitCode, 0);
    EXPECT_FALSE(zero.verdict.firstDivergentStep);
    const Analysis one = rankView(an, 1);
    EXPECT_EQ(one.buffers.size(), 4u);
    EXPECT_EQ(one.verdict.firstDivergentStep, 2u);
    EXPECT_EQ(one.verdict.firstDivergentRank, 1u);
    for (const auto& b : one.buffers)
        EXPECT_EQ(b.rank, 1u);

    const RankOverview o = rankOverview(an);
    EXPECT_EQ(o.steps, (std::vector<std::uint64_t>{1, 2, 3}));
    EXPECT_EQ(o.ranks, (std::vector<std::uint64_t>{0, 1}));
    EXPECT_EQ(o.at(0, 1).status, Status::equal);
    EXPECT_EQ(o.at(1, 1).status, Status::diverge);
    EXPECT_EQ(o.at(1, 1).nDivergent, 1u);
    EXPECT_EQ(o.at(2, 0).status, Status::equal);
    // Step 3 of rank 1: a divergent buffer and a one-sided one; the cell shows the divergence.
    EXPECT_EQ(o.at(2, 1).status, Status::diverge);
    EXPECT_EQ(cellSeverity(Status::diverge), cellSeverity(Status::length_mismatch));
    EXPECT_GT(cellSeverity(Status::only_in_a), cellSeverity(Status::equal));
}

TEST(Layouts, AnOverviewBroughtUpToDateAsResultsComeIsTheOverviewOfTheResults) {
    test::TempDir dir;
    test::writeRankedPair(
        dir.path(), 3, 4, [](int rank, int step) { return rank != 0 && step >= rank + 1; },
        "rank_");
    test::writeDump(dir / "a" / "rank_2", 4, "h_pi_logits", std::vector<float>{1}); // A only
    Analysis live = plan(dir / "a", dir / "b");
    RankOverview kept = rankOverview(live);
    ASSERT_EQ(kept.ranks.size(), 3u);
    std::size_t pendingCells = 0;
    for (const auto& cell : kept.cells)
        pendingCells += cell.nPending > 0;
    EXPECT_EQ(pendingCells, kept.cells.size());
    // In batches of three, as a window's snapshots take them, and at each the same overview as
    // made anew from every buffer.
    std::vector<std::size_t> batch;
    int checks = 0;
    const Analysis result = analyzePlanned(
        live, {}, [&](std::size_t index, const BufferResult& r, std::size_t, std::size_t) {
            live.buffers[index] = r;
            batch.push_back(index);
            if (batch.size() == 3) {
                markCompared(kept, live, std::exchange(batch, {}));
                EXPECT_EQ(kept.cells, rankOverview(live).cells);
                ++checks;
            }
            return true;
        });
    markCompared(kept, live, batch);
    EXPECT_GT(checks, 2);
    EXPECT_EQ(kept.cells, rankOverview(result).cells);
    EXPECT_EQ(kept.at(3, 2).status, Status::diverge);
    EXPECT_EQ(kept.at(0, 1).status, Status::equal);
    for (const auto& cell : kept.cells)
        EXPECT_EQ(cell.nPending, 0u);
}

TEST(Layouts, WithoutHeadersASelfDescribingFileIsListedAsOneFile) {
    const fs::path run = test::testDataDir() / "formats" / "runs" / "torch" / "a";
    const RunScan files = scanRun(run, ScanOptions{{}, false});
    EXPECT_TRUE(files.error.empty()) << files.error;
    EXPECT_EQ(keys(files), (std::vector<std::string>{
                               "1/0/step_1.pt=rank0/step_1.pt", "1/1/step_1.pt=rank1/step_1.pt",
                               "2/0/step_2.pt=rank0/step_2.pt", "2/1/step_2.pt=rank1/step_2.pt"}));
    for (const auto& [key, file] : files.files) {
        EXPECT_FALSE(file.location);
        EXPECT_FALSE(file.described);
        EXPECT_EQ(file.size, fs::file_size(run / file.fileName));
    }
    // Read, each file is its eight tensors.
    EXPECT_EQ(scanRun(run).files.size(), 4u * 8);
}

// Buffers held as shards across ranks (--shard): the rules, and analyze() over per-rank .npy
// files joining each run's pieces, unevenly and differently many on each side.
#include "dumpscope/analyze.h"
#include "dumpscope/shards.h"

#include "test_support.h"

#include <gtest/gtest.h>

using namespace dumpscope;

namespace {

// A C-order .npy of f32 values with shape [rows, cols].
void writeMatrix(const std::filesystem::path& file, std::uint64_t rows, std::uint64_t cols,
                 const std::vector<float>& values) {
    test::writeNpyFile(file, "<f4", std::to_string(rows) + ", " + std::to_string(cols),
                       values.data(), values.size() * sizeof(float));
}

// The whole [rows, cols] tensor: element (r, c) is r * 100 + c.
float at(std::uint64_t r, std::uint64_t c) {
    return static_cast<float>(r * 100 + c);
}

// Columns [from, to) of the whole tensor, as one rank's shard along axis 1.
std::vector<float> columns(std::uint64_t rows, std::uint64_t from, std::uint64_t to) {
    std::vector<float> v;
    for (std::uint64_t r = 0; r < rows; ++r)
        for (std::uint64_t c = from; c < to; ++c)
            v.push_back(at(r, c));
    return v;
}

std::vector<float> rowsOf(std::uint64_t from, std::uint64_t to, std::uint64_t cols) {
    std::vector<float> v;
    for (std::uint64_t r = from; r < to; ++r)
        for (std::uint64_t c = 0; c < cols; ++c)
            v.push_back(at(r, c));
    return v;
}

std::vector<ShardRule> rules(const std::vector<std::string>& texts) {
    std::vector<ShardRule> out;
    for (const auto& t : texts) {
        std::string why;
        auto rule = parseShardRule(t, why);
        EXPECT_TRUE(rule) << why;
        if (rule) out.push_back(*rule);
    }
    return out;
}

} // namespace

TEST(Shards, ARuleIsANameRegexAndAnAxisSplitAtTheLastColon) {
    std::string why;
    const auto rule = parseShardRule("a:b\\.w:1", why);
    ASSERT_TRUE(rule) << why;
    EXPECT_EQ(rule->axis, 1u);
    EXPECT_TRUE(std::regex_match("a:b.w", rule->pattern));
    for (const char* bad : {"w", "w:", "w:-1", "w:1x", ":0", "w:65", "(:0"}) {
        why.clear();
        EXPECT_FALSE(parseShardRule(bad, why)) << bad;
        EXPECT_FALSE(why.empty()) << bad;
    }
}

TEST(Shards, UnevenShardsAlongColumnsAreJoinedAndTheFirstDifferenceNamesItsRank) {
    dumpscope::test::TempDir dir;
    // Run A: [3, 6] split 4 + 2 along axis 1; run B: whole on rank 0.
    auto right = columns(3, 4, 6);
    writeMatrix(dir / "a" / "rank0" / "step_1_w.npy", 3, 4, columns(3, 0, 4));
    writeMatrix(dir / "a" / "rank1" / "step_1_w.npy", 3, 2, right);
    writeMatrix(dir / "b" / "rank0" / "step_1_w.npy", 3, 6, columns(3, 0, 6));
    AnalyzeOptions options;
    options.shards = rules({"w:1"});
    const Analysis equal = analyze(dir / "a", dir / "b", options);
    ASSERT_EQ(equal.buffers.size(), 1u);
    EXPECT_EQ(equal.buffers[0].status, Status::equal) << equal.buffers[0].error;
    EXPECT_EQ(equal.buffers[0].stats.nA, 18u);
    ASSERT_TRUE(equal.buffers[0].shards());

    right[1 * 2 + 1] += 1; // (1, 1) of rank 1's shard: (1, 5) of the whole, index 11
    writeMatrix(dir / "a" / "rank1" / "step_1_w.npy", 3, 2, right);
    const Analysis an = analyze(dir / "a", dir / "b", options);
    ASSERT_EQ(an.buffers.size(), 1u);
    const BufferResult& b = an.buffers[0];
    EXPECT_EQ(b.status, Status::diverge) << b.error;
    EXPECT_EQ(b.stats.nDiff, 1u);
    EXPECT_EQ(b.stats.firstDiff, 11u);
    ASSERT_TRUE(b.shards());
    EXPECT_EQ(b.shards()->firstDiffRankA, 1u);
    EXPECT_EQ(b.shards()->firstDiffRankB, 0u);
    EXPECT_EQ(shardText(*b.shards(), b.stats.firstDiff),
              "ranks 0, 1 in A, rank 0 in B, joined along axis 1; the first difference, index "
              "11 of the whole tensor, is on rank 1 in A, rank 0 in B");

    // Without the rule, rank 0's shard meets the whole tensor and rank 1's is in run A alone.
    const Analysis plain = analyze(dir / "a", dir / "b");
    ASSERT_EQ(plain.buffers.size(), 2u);
    EXPECT_EQ(plain.buffers[0].status, Status::length_mismatch);
    EXPECT_EQ(plain.buffers[1].status, Status::only_in_a);
}

TEST(Shards, ThreeShardsAgainstTwoAlongRows) {
    dumpscope::test::TempDir dir;
    for (std::uint64_t r = 0; r < 3; ++r)
        writeMatrix(dir / "a" / ("rank" + std::to_string(r)) / "step_1_w.npy", 2, 4,
                    rowsOf(2 * r, 2 * r + 2, 4));
    auto second = rowsOf(3, 6, 4);
    second[2 * 4 + 3] = -1; // row 5 of the whole: rank 2's in A, rank 1's in B; index 23
    writeMatrix(dir / "b" / "rank0" / "step_1_w.npy", 3, 4, rowsOf(0, 3, 4));
    writeMatrix(dir / "b" / "rank1" / "step_1_w.npy", 3, 4, second);
    AnalyzeOptions options;
    options.shards = rules({"nothing:0", "w:0"});
    const Analysis an = analyze(dir / "a", dir / "b", options);
    ASSERT_EQ(an.buffers.size(), 1u);
    const BufferResult& b = an.buffers[0];
    EXPECT_EQ(b.status, Status::diverge) << b.error;
    EXPECT_EQ(b.stats.firstDiff, 23u);
    EXPECT_EQ(b.shape, (std::vector<std::uint64_t>{6, 4}));
    EXPECT_EQ(b.shards()->firstDiffRankA, 2u);
    EXPECT_EQ(b.shards()->firstDiffRankB, 1u);
}

TEST(Shards, PiecesThatAreNotOneTensorAreTheBuffersError) {
    dumpscope::test::TempDir dir;
    writeMatrix(dir / "a" / "rank0" / "step_1_w.npy", 2, 4, rowsOf(0, 2, 4));
    writeMatrix(dir / "a" / "rank1" / "step_1_w.npy", 2, 3, columns(2, 0, 3));
    writeMatrix(dir / "b" / "rank0" / "step_1_w.npy", 4, 4, rowsOf(0, 4, 4));
    AnalyzeOptions options;
    options.shards = rules({"w:0"});
    const Analysis an = analyze(dir / "a", dir / "b", options);
    ASSERT_EQ(an.buffers.size(), 1u);
    EXPECT_EQ(an.buffers[0].status, Status::error);
    EXPECT_NE(an.buffers[0].error.find("rank1/step_1_w.npy: tensor \"w\" on rank 1 does not "
                                       "have the shape of its shard on rank 0 off axis 0"),
              std::string::npos)
        << an.buffers[0].error;
    EXPECT_EQ(an.verdict.exitCode, 2);
}

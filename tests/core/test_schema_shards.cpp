// The schema's "shards" key: the rules --shard gives, read from the schema, refused at the
// schema's line and column when one is not a rule, and joining per-rank .npy shards in analyze().
#include "dumpscope/analyze.h"
#include "dumpscope/schema.h"

#include "test_support.h"

#include <gtest/gtest.h>

#include <memory>

using namespace dumpscope;

namespace {

SchemaError refused(const std::string& text) {
    try {
        parseSchema(text, "s.json");
    } catch (const SchemaError& e) {
        return e;
    }
    ADD_FAILURE() << "schema was accepted:\n" << text;
    return SchemaError("", 0, 0, "");
}

std::string schemaWith(const std::string& shards) {
    return "{\"groups\": [{\"id\": \"G\", \"buffers\": [\n"
           "  {\"name\": \"w\", \"file\": \"w\", \"dtype\": \"f32\"}]}],\n"
           " \"shards\": " +
           shards + "}";
}

// A C-order .npy of f32 values with shape [rows, cols].
void writeMatrix(const std::filesystem::path& file, std::uint64_t rows, std::uint64_t cols,
                 const std::vector<float>& values) {
    test::writeNpyFile(file, "<f4", std::to_string(rows) + ", " + std::to_string(cols),
                       values.data(), values.size() * sizeof(float));
}

} // namespace

TEST(SchemaShards, TheRulesAreParsedAsTheCommandLinesAre) {
    const Schema s = parseSchema(schemaWith(R"(["w:1", "layers\\.\\d+\\.mlp:0"])"), "s.json");
    ASSERT_EQ(s.shards.size(), 2u);
    EXPECT_EQ(s.shards[0].text, "w:1");
    EXPECT_EQ(s.shards[0].axis, 1u);
    EXPECT_EQ(s.shards[1].text, "layers\\.\\d+\\.mlp:0");
    EXPECT_TRUE(std::regex_match("layers.12.mlp", s.shards[1].pattern));
    EXPECT_TRUE(parseSchema(schemaWith("[]"), "s.json").shards.empty());
}

TEST(SchemaShards, ABadRuleIsRefusedAtItsLineAndColumn) {
    const SchemaError axis = refused(schemaWith(R"(["w:1", "w:x"])"));
    EXPECT_EQ(axis.line, 3);
    EXPECT_EQ(axis.column, 20) << axis.what();
    EXPECT_NE(
        std::string(axis.what())
            .find("s.json:3:20: shards: \"w:x\": the axis \"x\" is not a dimension index 0 to 64"),
        std::string::npos)
        << axis.what();

    const SchemaError pattern = refused(schemaWith(R"(["(w:1"])"));
    EXPECT_EQ(pattern.line, 3);
    EXPECT_NE(std::string(pattern.what()).find("the name pattern is not a regular expression"),
              std::string::npos)
        << pattern.what();

    const SchemaError noAxis = refused(schemaWith(R"(["w"])"));
    EXPECT_NE(std::string(noAxis.what()).find("shards: \"w\" is not NAME_REGEX:AXIS"),
              std::string::npos)
        << noAxis.what();

    const SchemaError notArray = refused(schemaWith(R"("w:1")"));
    EXPECT_EQ(notArray.line, 3);
    EXPECT_NE(std::string(notArray.what()).find("\"shards\" must be an array"), std::string::npos);
    const SchemaError notString = refused(schemaWith("[1]"));
    EXPECT_NE(std::string(notString.what()).find("each shard rule must be a string"),
              std::string::npos);
}

TEST(SchemaShards, TheSchemasRulesJoinShardsAsTheOptionsDo) {
    dumpscope::test::TempDir dir;
    // Run A: [2, 4] split 2 + 2 along axis 1; run B: whole on rank 0.
    writeMatrix(dir / "a" / "rank0" / "step_1_w.npy", 2, 2, {0, 1, 4, 5});
    writeMatrix(dir / "a" / "rank1" / "step_1_w.npy", 2, 2, {2, 3, 6, 9});
    writeMatrix(dir / "b" / "rank0" / "step_1_w.npy", 2, 4, {0, 1, 2, 3, 4, 5, 6, 7});
    AnalyzeOptions options;
    options.schema = std::make_shared<const Schema>(parseSchema(schemaWith(R"(["w:1"])"), "s"));
    const Analysis an = analyze(dir / "a", dir / "b", options);
    ASSERT_EQ(an.buffers.size(), 1u);
    const BufferResult& b = an.buffers[0];
    ASSERT_TRUE(b.shards()) << statusName(b.status) << " " << b.error;
    EXPECT_EQ(b.status, Status::diverge);
    EXPECT_EQ(b.stats.firstDiff, 7u); // (1, 3) of the whole tensor
    EXPECT_EQ(b.shards()->firstDiffRankA, 1u);

    // The command line's rule decides first: along axis 0 the pieces are not the whole tensor.
    std::string why;
    options.shards.push_back(*parseShardRule("w:0", why));
    const Analysis first = analyze(dir / "a", dir / "b", options);
    ASSERT_EQ(first.buffers.size(), 1u);
    ASSERT_TRUE(first.buffers[0].shards());
    EXPECT_EQ(first.buffers[0].shards()->axis, 0u);

    // Without the key, rank 0's shard meets the whole tensor.
    options.shards.clear();
    options.schema = std::make_shared<const Schema>(parseSchema(schemaWith("[]"), "s"));
    const Analysis plain = analyze(dir / "a", dir / "b", options);
    ASSERT_EQ(plain.buffers.size(), 2u);
    EXPECT_EQ(plain.buffers[0].status, Status::length_mismatch);
}

#include "dumpscope/analyze.h"
#include "dumpscope/shape.h"

#include "test_support.h"

#include <gtest/gtest.h>

using namespace dumpscope;

namespace {

Schema schemaWithDims() {
    return parseSchema(R"js({"dims": {"batch": {"length_of": "actions"}, "hidden": 4},
        "groups": [{"id": "A", "buffers": [
            {"name": "actions", "file": "a_actions", "dtype": "i32", "shape": ["batch"]},
            {"name": "h", "file": "a_h", "dtype": "f32", "shape": ["batch", "hidden"]},
            {"name": "s", "file": "a_s", "dtype": "f32", "shape": ["batch", "*"]}]}]})js",
                       "dims.json");
}

ResolvedShape resolve(const std::vector<std::string>& spec, std::uint64_t n,
                      std::optional<std::uint64_t> batch = 6) {
    static const Schema schema = schemaWithDims();
    return resolveShape(
        spec, schema, [&](const std::string&) { return batch; }, n);
}

} // namespace

TEST(Shape, ResolvesNumbersSymbolsAndTheRest) {
    EXPECT_EQ(resolve({"batch", "hidden"}, 24).dims, (std::vector<std::uint64_t>{6, 4}));
    EXPECT_EQ(resolve({"batch", "*"}, 60).dims, (std::vector<std::uint64_t>{6, 10}));
    EXPECT_EQ(resolve({"*", "3"}, 12).dims, (std::vector<std::uint64_t>{4, 3}));
    EXPECT_EQ(resolve({"2", "3", "2"}, 12).dims, (std::vector<std::uint64_t>{2, 3, 2}));
    EXPECT_TRUE(resolve({}, 12).dims.empty());
    EXPECT_TRUE(resolve({}, 12).error.empty());
}

TEST(Shape, AShapeThatDoesNotFitIsAClearError) {
    auto r = resolve({"batch", "*"}, 61);
    EXPECT_TRUE(r.dims.empty());
    EXPECT_EQ(r.error, "shape [batch, *] does not fit 61 elements (61 is not a multiple of 6)");
    EXPECT_EQ(resolve({"batch", "hidden"}, 25).error,
              "shape [batch, hidden] holds 24 elements, the buffer 25");
    EXPECT_NE(resolve({"batch"}, 6, std::nullopt)
                  .error.find("batch is the length of actions, which is not dumped"),
              std::string::npos);
    EXPECT_NE(resolve({"rows"}, 6).error.find("unknown dimension \"rows\""), std::string::npos);
    EXPECT_NE(resolve({"*", "*"}, 6).error.find("more than one"), std::string::npos);
}

TEST(Shape, SchemaRefusesBadShapesAndDims) {
    auto refused = [](const char* text) {
        try {
            parseSchema(text, "s.json");
        } catch (const SchemaError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(
        refused(
            R"js({"groups": [{"id": "A", "buffers": [{"name": "x", "file": "a_x", "dtype": "f32", "shape": ["rows"]}]}]})js")
            .find("unknown dimension \"rows\""),
        std::string::npos);
    EXPECT_NE(
        refused(
            R"js({"groups": [{"id": "A", "buffers": [{"name": "x", "file": "a_x", "dtype": "f32", "shape": [0]}]}]})js")
            .find("positive number"),
        std::string::npos);
    EXPECT_NE(
        refused(
            R"js({"dims": {"b": {"length_of": "nope"}}, "groups": [{"id": "A", "buffers": []}]})js")
            .find("unknown buffer \"nope\""),
        std::string::npos);
    EXPECT_NE(
        refused(
            R"js({"groups": [{"id": "A", "buffers": [{"name": "x", "file": "a_x", "dtype": "f32", "shape": ["*", "*"]}]}]})js")
            .find("at most one"),
        std::string::npos);
}

TEST(Shape, ParsesWhatAUserTypes) {
    EXPECT_EQ(parseShapeText("[batch, 32]"), (std::vector<std::string>{"batch", "32"}));
    EXPECT_EQ(parseShapeText("64x32"), (std::vector<std::string>{"64", "32"}));
    EXPECT_EQ(parseShapeText("batch x 32"), (std::vector<std::string>{"batch", "32"}));
    EXPECT_EQ(parseShapeText("(4, *)"), (std::vector<std::string>{"4", "*"}));
    EXPECT_TRUE(parseShapeText("4;5").empty());
    EXPECT_TRUE(parseShapeText("").empty());
}

TEST(Shape, IndicesReadAsTuples) {
    EXPECT_EQ(formatIndex(17 * 8 + 3, {64, 8}), "(17, 3)");
    EXPECT_EQ(formatIndex(11, {2, 3, 2}), "(1, 2, 1)");
    EXPECT_EQ(formatIndex(11, {}), "11");
    EXPECT_EQ(formatIndex(11, {12}), "11");
}

TEST(Shape, RowAndColumnCountsTellWholeRowsFromScatter) {
    const std::size_t rows = 20, cols = 5;
    std::vector<float> a(rows * cols, 1.0f), rowsB = a, scatterB = a;
    for (std::size_t c = 0; c < cols; ++c) {
        rowsB[3 * cols + c] = 2.0f;
        rowsB[17 * cols + c] = 2.0f;
    }
    scatterB[0] = scatterB[27] = scatterB[99] = 2.0f;
    auto stats = [&](const std::vector<float>& b) {
        StatsAccumulator acc(DType::f32);
        acc.setShape(rows, cols);
        acc.addPair(reinterpret_cast<const unsigned char*>(a.data()),
                    reinterpret_cast<const unsigned char*>(b.data()), a.size(), 0);
        return acc.finish();
    };
    auto whole = stats(rowsB);
    EXPECT_EQ(whole.rowDiffs[3], 5u);
    EXPECT_EQ(whole.rowDiffs[17], 5u);
    EXPECT_EQ(whole.rowDiffs[4], 0u);
    EXPECT_EQ(whole.colDiffs, (std::vector<std::uint32_t>(5, 2)));
    EXPECT_EQ(placementSummary(whole, {rows, cols}),
              "2 of 20 rows differ entirely (rows 3, 17), the others not at all");

    auto scattered = stats(scatterB);
    EXPECT_EQ(scattered.rowDiffs[0] + scattered.rowDiffs[5] + scattered.rowDiffs[19], 3u);
    EXPECT_EQ(scattered.colDiffs[0], 1u);
    EXPECT_EQ(scattered.colDiffs[2], 1u);
    EXPECT_EQ(scattered.colDiffs[4], 1u);
    EXPECT_EQ(
        placementSummary(scattered, {rows, cols}),
        "3 of 20 rows and 3 of 5 columns hold differences (3% of the elements); rows 0, 5, 19");
}

TEST(Shape, AnalysisResolvesTheDefaultSchemasShapesAndOverrides) {
    test::TempDir dir;
    for (const char* run : {"a", "b"}) {
        test::writeDump(dir / run, 0, "g_sampled_actions", std::vector<std::int32_t>(4, 1));
        test::writeDump(dir / run, 0, "h_q_logits", std::vector<float>(12, 1.0f));
        test::writeDump(dir / run, 0, "h_pi_logits", std::vector<float>(10, 1.0f));
    }
    test::writeDump(dir / "b", 0, "h_q_logits",
                    std::vector<float>{1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1});
    auto an = analyze(dir / "a", dir / "b");
    ASSERT_EQ(an.buffers.size(), 3u);
    EXPECT_EQ(an.buffers[0].shape, (std::vector<std::uint64_t>{4}));
    EXPECT_EQ(an.buffers[1].name, "q_logits");
    EXPECT_EQ(an.buffers[1].shape,
              (std::vector<std::uint64_t>{4, 3})); // batch = len(sampled_actions)
    EXPECT_EQ(an.buffers[1].stats.rowDiffs, (std::vector<std::uint32_t>{0, 0, 1, 0}));
    EXPECT_TRUE(an.buffers[2].shape.empty()); // 10 elements over a batch of 4
    EXPECT_EQ(an.buffers[2].shapeError,
              "shape [batch, *] does not fit 10 elements (10 is not a multiple of 4)");

    AnalyzeOptions typed;
    typed.shapes["q_logits"] = {"2", "*"};
    auto over = analyze(dir / "a", dir / "b", typed);
    EXPECT_EQ(over.buffers[1].shape, (std::vector<std::uint64_t>{2, 6}));
    EXPECT_EQ(over.buffers[1].stats.rowDiffs, (std::vector<std::uint32_t>{0, 1}));
}

TEST(Shape, IndicesTypedAsTheTableWritesThemReadBack) {
    const std::vector<std::uint64_t> dims{64, 16};
    for (const char* typed : {"(31, 8)", "31, 8", "31 8", "  (31,8) ", "(31 8)", "504"})
        EXPECT_EQ(parseIndex(typed, dims), 31u * 16 + 8) << typed;
    EXPECT_EQ(parseIndex("(1, 2, 1)", {2, 3, 2}), 11u);
    EXPECT_EQ(parseIndex("11", {}), 11u);
    for (std::uint64_t i : {0u, 17u, 1023u})
        EXPECT_EQ(parseIndex(formatIndex(i, dims), dims), i);
    std::string error;
    EXPECT_FALSE(parseIndex("(64, 0)", dims, &error));
    EXPECT_EQ(error, "coordinate 1 is 64, past its dimension of 64");
    EXPECT_FALSE(parseIndex("1, 2, 3", dims, &error));
    EXPECT_EQ(error, "3 coordinates for a buffer of 2 dimensions");
    EXPECT_FALSE(parseIndex("(3, 4)", {}, &error));
    EXPECT_EQ(error, "the buffer is flat: give one index, not 2");
    EXPECT_FALSE(parseIndex("(31, 8", dims, &error));
    EXPECT_EQ(error, "a '(' without its ')'");
    EXPECT_FALSE(parseIndex("", dims, &error));
    EXPECT_EQ(error, "no index");
    EXPECT_FALSE(parseIndex("31x8", dims, &error));
    EXPECT_EQ(error, "'x' where a number should be");
    EXPECT_FALSE(parseIndex("99999999999999999999", dims, &error));
    EXPECT_EQ(error, "a number too large");
}

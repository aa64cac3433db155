#include "dumpscope/schema.h"

#include "test_support.h"

#include <gtest/gtest.h>

using namespace dumpscope;

namespace {

// Runs parseSchema on `text` and returns the error, failing the test when it parses.
SchemaError refused(const std::string& text) {
    try {
        parseSchema(text, "s.json");
    } catch (const SchemaError& e) {
        return e;
    }
    ADD_FAILURE() << "schema was accepted:\n" << text;
    return SchemaError("", 0, 0, "");
}

} // namespace

TEST(Schema, DefaultSchemaIsTheReferences) {
    const Schema& s = defaultSchema();
    ASSERT_EQ(s.groups.size(), 5u);
    const char* labels[] = {"G (PER replay sample)", "H (head fwd outputs)",
                            "I (pre-reduce grad scratch)", "J (per-head grad_h_t)",
                            "K (outcome head inputs)"};
    const std::size_t counts[] = {6, 5, 11, 6, 3};
    std::size_t total = 0;
    for (std::size_t g = 0; g < 5; ++g) {
        EXPECT_EQ(s.groups[g].label, labels[g]);
        EXPECT_EQ(s.groups[g].id, std::string(1, labels[g][0]));
        EXPECT_EQ(s.groups[g].buffers.size(), counts[g]);
        total += s.groups[g].buffers.size();
    }
    EXPECT_EQ(total, 31u);
    // Order, file basenames and types as in the reference's tables.
    EXPECT_EQ(s.groups[0].buffers[0].name, "sampled_h_t");
    EXPECT_EQ(s.groups[0].buffers[0].file, "g_sampled_h_t");
    EXPECT_EQ(s.groups[0].buffers[2].dtype, DType::i32); // sampled_actions
    EXPECT_EQ(s.groups[2].buffers[10].name, "grad_ln_b_bias_per_row");
    EXPECT_EQ(s.groups[4].buffers[0].file, "k_outcome_labels");
    EXPECT_EQ(s.groups[4].buffers[0].dtype, DType::i32);
    EXPECT_EQ(s.groups[3].buffers[5].name, "grad_h_t_combined");
    auto where = s.findFile("h_q_logits");
    ASSERT_TRUE(where);
    EXPECT_EQ(where->first, 1u);
    EXPECT_EQ(where->second, 0u);
    EXPECT_FALSE(s.findFile("q_logits"));
}

TEST(Schema, DefaultDataflow) {
    const Schema& s = defaultSchema();
    std::vector<std::pair<std::string, std::string>> expected{{"G", "H"}, {"G", "J"}, {"G", "I"},
                                                              {"K", "J"}, {"H", "J"}, {"J", "I"}};
    EXPECT_EQ(s.dataflow, expected);
    EXPECT_EQ(s.upstreamOf("J"), (std::vector<std::string>{"G", "K", "H"}));
    EXPECT_EQ(s.upstreamOf("I"), (std::vector<std::string>{"G", "J"}));
    EXPECT_TRUE(s.upstreamOf("G").empty());
}

TEST(Schema, LoadsACustomSchemaFile) {
    test::TempDir dir;
    test::writeText(dir / "s.json", R"js({"groups": [
        {"id": "A", "label": "A (inputs)", "buffers": [{"name": "x", "file": "a_x", "dtype": "bf16"}]},
        {"id": "B", "buffers": [{"name": "y", "file": "b_y", "dtype": "u64"}]}],
        "dataflow": [["A", "B"]]})js");
    Schema s = loadSchemaFile(dir / "s.json");
    ASSERT_EQ(s.groups.size(), 2u);
    EXPECT_EQ(s.groups[0].buffers[0].dtype, DType::bf16);
    EXPECT_EQ(s.groups[1].label, "B"); // label defaults to the id
    EXPECT_EQ(s.upstreamOf("B"), std::vector<std::string>{"A"});
}

TEST(Schema, InvalidJsonNamesLineAndColumn) {
    auto e = refused("{\n  \"groups\": [\n    {\"id\": \"A\",, }\n  ]\n}");
    EXPECT_EQ(e.source, "s.json");
    EXPECT_EQ(e.line, 3);
    EXPECT_GT(e.column, 10);
    EXPECT_NE(std::string(e.what()).find("s.json:3:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("invalid JSON"), std::string::npos);
}

TEST(Schema, EmptyIsRefused) {
    auto e = refused("  \n");
    EXPECT_NE(std::string(e.what()).find("empty"), std::string::npos);
}

TEST(Schema, UnknownElementTypeIsRefusedWhereItStands) {
    auto e = refused("{\"groups\": [{\"id\": \"A\", \"buffers\": [\n"
                     "  {\"name\": \"x\", \"file\": \"a_x\", \"dtype\": \"f33\"}]}]}");
    EXPECT_EQ(e.line, 2);
    EXPECT_NE(std::string(e.what()).find("unknown element type \"f33\""), std::string::npos)
        << e.what();
}

TEST(Schema, DuplicatesAreRefused) {
    auto names = refused(R"js({"groups": [{"id": "A", "buffers": [
        {"name": "x", "file": "a_x", "dtype": "f32"},
        {"name": "x", "file": "a_y", "dtype": "f32"}]}]})js");
    EXPECT_NE(std::string(names.what()).find("duplicate buffer name \"x\""), std::string::npos);
    EXPECT_EQ(names.line, 3);
    auto files = refused(R"js({"groups": [{"id": "A", "buffers": [
        {"name": "x", "file": "a_x", "dtype": "f32"}]}, {"id": "B", "buffers": [
        {"name": "y", "file": "a_x", "dtype": "f32"}]}]})js");
    EXPECT_NE(std::string(files.what()).find("duplicate buffer file \"a_x\""), std::string::npos);
    auto groups =
        refused(R"js({"groups": [{"id": "A", "buffers": []}, {"id": "A", "buffers": []}]})js");
    EXPECT_NE(std::string(groups.what()).find("duplicate group id"), std::string::npos);
}

TEST(Schema, StructuralMistakesAreRefused) {
    EXPECT_NE(std::string(refused("[1, 2]").what()).find("must be a JSON object"),
              std::string::npos);
    EXPECT_NE(std::string(refused(R"js({"groups": []})js").what()).find("non-empty array"),
              std::string::npos);
    EXPECT_NE(
        std::string(refused(R"js({"groups": [{"buffers": []}]})js").what()).find("missing \"id\""),
        std::string::npos);
    EXPECT_NE(
        std::string(
            refused(R"js({"groups": [{"id": "A", "buffers": [{"name": "x", "dtype": "f32"}]}]})js")
                .what())
            .find("missing \"file\""),
        std::string::npos);
    EXPECT_NE(
        std::string(
            refused(R"js({"groups": [{"id": "A", "buffers": []}], "dataflow": [["A", "Z"]]})js")
                .what())
            .find("unknown group \"Z\""),
        std::string::npos);
    EXPECT_NE(
        std::string(refused(R"js({"groups": [{"id": "A", "buffers": []}], "colour": 1})js").what())
            .find("unknown key \"colour\""),
        std::string::npos);
    EXPECT_NE(std::string(refused(R"js({"groups": [{"id": "other", "buffers": []}]})js").what())
                  .find("reserved"),
              std::string::npos);
}

TEST(Schema, MissingFileIsRefusedWithItsName) {
    try {
        loadSchemaFile("/nonexistent/schema.json");
        FAIL() << "no error";
    } catch (const SchemaError& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/schema.json"), std::string::npos);
    }
}

// Found by fuzz_schema (tests/fuzz/corpus/schema/crash_number_overflow.json): a number beyond a
// double's range made nlohmann throw out_of_range, which escaped parseSchema as a bare
// exception instead of a SchemaError naming the file, line and column.
TEST(Schema, NumberBeyondDoubleRangeIsRefusedWhereItStands) {
    auto e = refused(" 1e400\n\t");
    EXPECT_EQ(e.line, 1);
    EXPECT_EQ(e.column, 2);
    e = refused("{\"groups\": [{\"id\": \"A\", \"buffers\": []}],\n \"version\": -1e400}");
    EXPECT_EQ(e.line, 2);
    EXPECT_EQ(e.column, 13); // the "-" of -1e400
    EXPECT_NE(
        std::string(e.what()).find("s.json:2:13: invalid JSON: number overflow parsing '-1e400'"),
        std::string::npos)
        << e.what();
}

// Around a cycle every group has a divergent upstream, so the root cause by dataflow would name
// none (the CLI printed an empty "ROOT CAUSE", the window "only unclassified files diverge").
TEST(Schema, ACyclicDataflowIsRefusedWithTheCycleNamedAtTheEdgeThatClosesIt) {
    auto e = refused(R"js({"groups": [
  {"id": "A", "buffers": []}, {"id": "B", "buffers": []},
  {"id": "C", "buffers": []}, {"id": "D", "buffers": []}],
 "dataflow": [["D", "A"], ["A", "B"], ["B", "C"], ["C", "A"]]})js");
    EXPECT_EQ(std::string(e.what()), "s.json:4:51: dataflow has a cycle: A → B → C → A");
    EXPECT_EQ(e.line, 4);
    EXPECT_EQ(e.column, 51); // the "[" of ["C", "A"]
}

TEST(Schema, ASelfEdgeIsACycle) {
    auto e = refused("{\"groups\": [{\"id\": \"A\", \"buffers\": []}],\n"
                     " \"dataflow\": [[ \"A\" ,\n \"A\" ]]}");
    EXPECT_EQ(std::string(e.what()), "s.json:2:15: dataflow has a cycle: A → A");
}

TEST(Schema, ACycleAwayFromTheFirstGroupIsNamedFromWhereItStarts) {
    // Ids that are not plain words are quoted, so a space or a quote in one stays visible.
    auto e = refused(R"js({"groups": [{"id": "A", "buffers": []}, {"id": "x y", "buffers": []},
  {"id": "z", "buffers": []}],
 "dataflow": [["A", "x y"], ["x y", "z"], ["z", "x y"]]})js");
    EXPECT_NE(std::string(e.what()).find(": dataflow has a cycle: \"x y\" → z → \"x y\""),
              std::string::npos)
        << e.what();
    EXPECT_EQ(e.line, 3);
}

TEST(Schema, ADiamondAndParallelPathsAreNoCycle) {
    const Schema s = parseSchema(R"js({"groups": [
        {"id": "A", "buffers": []}, {"id": "B", "buffers": []},
        {"id": "C", "buffers": []}, {"id": "D", "buffers": []}],
        "dataflow": [["A", "B"], ["A", "C"], ["B", "D"], ["C", "D"], ["A", "D"], ["A", "B"]]})js",
                                 "s.json");
    EXPECT_EQ(s.upstreamOf("D"), (std::vector<std::string>{"B", "C", "A"}));
}

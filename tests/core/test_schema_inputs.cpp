// A buffer's "inputs": buffer names and group ids, checked like the rest of the schema. An
// entry naming nothing, the buffer itself or its own group, or a name twice, and any cycle
// through the buffer-level graph (declared inputs, and group edges for the buffers that declare
// none) is refused with the file, the place and what is wrong.
#include "dumpscope/schema.h"

#include <gtest/gtest.h>

using namespace dumpscope;

namespace {

// Groups W (x, y) and V (z) with W → V, and `inputs` as given (JSON values, or empty for none).
std::string schemaWith(const std::string& xInputs, const std::string& yInputs = {},
                       const std::string& zInputs = {}) {
    const auto buffer = [](const char* name, const char* file, const std::string& inputs) {
        return std::string("{\"name\": \"") + name + "\", \"file\": \"" + file +
               "\", \"dtype\": \"f32\"" + (inputs.empty() ? "" : ", \"inputs\": " + inputs) + "}";
    };
    return "{\"groups\": [\n{\"id\": \"W\", \"buffers\": [\n" + buffer("x", "w_x", xInputs) +
           ",\n" + buffer("y", "w_y", yInputs) + "]},\n{\"id\": \"V\", \"buffers\": [\n" +
           buffer("z", "v_z", zInputs) + "]}],\n\"dataflow\": [[\"W\", \"V\"]]}";
}

std::string refusal(const std::string& text) {
    try {
        parseSchema(text, "s.json");
    } catch (const SchemaError& e) {
        return e.what();
    }
    ADD_FAILURE() << "schema was accepted:\n" << text;
    return {};
}

} // namespace

TEST(SchemaInputs, BufferNamesAndGroupIdsAreKept) {
    const Schema s = parseSchema(schemaWith(R"(["y"])", R"([])", R"(["x", "W"])"), "s.json");
    EXPECT_EQ(s.buffer("x")->inputs, (std::vector<std::string>{"y"}));
    EXPECT_EQ(s.buffer("y")->inputs, std::vector<std::string>{}); // fed by no dumped buffer
    EXPECT_EQ(s.buffer("z")->inputs, (std::vector<std::string>{"x", "W"}));
    EXPECT_TRUE(s.hasBufferInputs());
    EXPECT_FALSE(parseSchema(schemaWith(""), "s.json").buffer("x")->inputs.has_value());
    EXPECT_FALSE(defaultSchema().hasBufferInputs());
}

TEST(SchemaInputs, MistakenEntriesAreRefusedAtTheirBuffer) {
    const std::vector<std::pair<std::string, std::string>> cases{
        {schemaWith(R"(["q"])"), "s.json:3:2: buffer \"x\": \"inputs\" names unknown buffer or "
                                 "group \"q\""},
        {schemaWith(R"(["x"])"), "s.json:3:2: buffer \"x\": \"inputs\" names the buffer itself"},
        {schemaWith(R"(["W"])"), "s.json:3:2: buffer \"x\": \"inputs\" names the buffer's own "
                                 "group \"W\", which holds the buffer itself"},
        {schemaWith("", "", R"(["x", "x"])"), "s.json:6:2: buffer \"z\": \"inputs\" lists \"x\" "
                                              "twice"},
        {schemaWith(R"("y")"), "s.json:3:46: group W, buffer 1 (x): \"inputs\" must be an array "
                               "of buffer names and group ids"},
        {schemaWith(R"([""])"), "\"inputs\" must be an array of buffer names and group ids"},
        {schemaWith(R"([3])"), "\"inputs\" must be an array of buffer names and group ids"},
    };
    for (const auto& [text, message] : cases) {
        SCOPED_TRACE(text);
        EXPECT_NE(refusal(text).find(message), std::string::npos) << refusal(text);
    }
}

TEST(SchemaInputs, CyclesThroughBuffersAndGroupsAreRefusedNamed) {
    // Two declared buffers reading each other.
    EXPECT_NE(refusal(schemaWith(R"(["y"])", R"(["x"])")).find("inputs make a cycle: x → y → x"),
              std::string::npos);
    // x reads z, and z (no "inputs") reads all of W through the group edge W → V.
    EXPECT_NE(refusal(schemaWith(R"(["z"])")).find("inputs make a cycle: x → W → V → z → x"),
              std::string::npos)
        << refusal(schemaWith(R"(["z"])"));
    // x reads group V, z reads x.
    EXPECT_NE(refusal(schemaWith(R"(["V"])", "", R"(["x"])")).find("inputs make a cycle"),
              std::string::npos);
    // Reading within a group, and along the edges, is no cycle.
    EXPECT_NO_THROW(parseSchema(schemaWith(R"(["y"])", "", R"(["x", "W"])"), "s.json"));
}

TEST(SchemaInputs, AnEntryThatIsBothABufferAndAGroupIsRefused) {
    const std::string text = R"({"groups": [
{"id": "W", "buffers": [{"name": "V", "file": "w_v", "dtype": "f32"}]},
{"id": "V", "buffers": [{"name": "v", "file": "v_v", "dtype": "f32"}]},
{"id": "U", "buffers": [{"name": "z", "file": "u_z", "dtype": "f32", "inputs": ["V"]}]}]})";
    EXPECT_NE(refusal(text).find("entry \"V\" is both a buffer name and a group id"),
              std::string::npos)
        << refusal(text);
}

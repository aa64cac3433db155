// A malformed --schema is refused by the real dumpscope-cli with the file, the line
// and what is wrong (exit 2, nothing compared); a shape that does not fit is reported on its
// buffer, which is still compared flat.
#include "dumpscope/schema.h"

#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>

using namespace dumpscope::test;

namespace {

ProcessResult cli(std::vector<std::string> args) {
    args.insert(args.begin(), DUMPSCOPE_CLI_PATH);
    return runProcess(args);
}

struct Pair {
    TempDir dir;
    Pair() {
        writeDump(dir / "a", 0, "w_x", std::vector<float>{1, 2, 3, 4, 5});
        writeDump(dir / "b", 0, "w_x", std::vector<float>{1, 2, 3, 4, 6});
    }
    ProcessResult withSchema(const std::string& text, std::vector<std::string> extra = {}) {
        writeText(dir / "schema.json", text);
        std::vector<std::string> args{(dir / "a").string(), (dir / "b").string(), "--schema",
                                      (dir / "schema.json").string()};
        args.insert(args.end(), extra.begin(), extra.end());
        return cli(args);
    }
};

} // namespace

TEST(CliSchemaErrors, EachMalformedSchemaIsRefusedWithFileLineAndWhat) {
    struct Case {
        const char* what;
        std::string text;
        std::string where; // "schema.json:LINE:" (the column follows), or LINE:COLUMN:
        std::string message;
    };
    const std::vector<Case> cases{
        {"empty", "  \n", "schema.json:", "empty"},
        {"invalid JSON", "{\"groups\": [\n  {\"id\": \"W\",, }\n]}",
         "schema.json:2:", "invalid JSON"},
        {"unknown element type",
         "{\"groups\": [{\"id\": \"W\", \"buffers\": [\n  {\"name\": \"x\", \"file\": \"w_x\", "
         "\"dtype\": \"f33\"}]}]}",
         "schema.json:2:", "unknown element type \"f33\""},
        {"duplicate names",
         "{\"groups\": [{\"id\": \"W\", \"buffers\": [\n  {\"name\": \"x\", \"file\": \"w_x\", "
         "\"dtype\": \"f32\"},\n"
         "  {\"name\": \"x\", \"file\": \"w_y\", \"dtype\": \"f32\"}]}]}",
         "schema.json:3:", "duplicate buffer name \"x\""},
        {"a shape naming no dimension",
         "{\"groups\": [{\"id\": \"W\", \"buffers\": [\n  {\"name\": \"x\", \"file\": \"w_x\", "
         "\"dtype\": \"f32\",\n"
         "   \"shape\": [\"rows\"]}]}]}",
         "schema.json:", "unknown dimension \"rows\""},
        // A cycle was accepted and gave an empty "ROOT CAUSE … group ; buffer(s)".
        {"a cyclic dataflow",
         "{\"groups\": [{\"id\": \"W\", \"buffers\": [\n  {\"name\": \"x\", \"file\": \"w_x\", "
         "\"dtype\": \"f32\"}]},\n  {\"id\": \"V\", \"buffers\": []}],\n"
         " \"dataflow\": [[\"W\", \"V\"], [\"V\", \"W\"]]}",
         "schema.json:4:27:", "dataflow has a cycle: W → V → W"},
        {"a self-edge",
         "{\"groups\": [{\"id\": \"W\", \"buffers\": [\n  {\"name\": \"x\", \"file\": \"w_x\", "
         "\"dtype\": \"f32\"}]}],\n \"dataflow\": [[\"W\", \"W\"]]}",
         "schema.json:3:15:", "dataflow has a cycle: W → W"},
    };
    Pair pair;
    for (const auto& c : cases) {
        SCOPED_TRACE(c.what);
        const auto r = pair.withSchema(c.text);
        EXPECT_EQ(r.exitCode, 2);
        EXPECT_TRUE(r.out.empty()) << "nothing is compared with a refused schema:\n" << r.out;
        const std::string prefix = "error: schema refused: " + (pair.dir / c.where).string();
        EXPECT_EQ(r.err.rfind(prefix, 0), 0u) << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    }
}

TEST(CliSchemaErrors, AShapeThatDoesNotFitIsReportedOnItsBufferWhichIsStillCompared) {
    Pair pair;
    const auto r = pair.withSchema(
        R"js({"groups": [{"id": "W", "buffers": [{"name": "x", "file": "w_x", "dtype": "f32", "shape": [2, "*"]}]}]})js",
        {"--json"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    const auto x = nlohmann::json::parse(r.out)["steps"][0]["groups"][0]["buffers"][0];
    EXPECT_EQ(x["name"], "x");
    EXPECT_EQ(x["shape"], nullptr);
    EXPECT_NE(x["shape_error"].get<std::string>().find("does not fit 5 elements"),
              std::string::npos)
        << x;
    EXPECT_EQ(x["n_diff"], 1);
    EXPECT_EQ(x["first_diff"], 4);

    // The same through --shape, and in the text output.
    const auto text = pair.withSchema(
        R"js({"groups": [{"id": "W", "buffers": [{"name": "x", "file": "w_x", "dtype": "f32"}]}]})js",
        {"--shape", "x=3,2"});
    EXPECT_EQ(text.exitCode, 1);
    EXPECT_NE(text.out.find("shape not applied: shape [3, 2] holds 6 elements, the buffer 5"),
              std::string::npos)
        << text.out;
}

// What --schema names must be a regular file of at most 32 MiB: anything else is refused before
// a byte of it is read (a FIFO hung the CLI, /dev/zero made it abort on std::bad_alloc), with
// what it is and no line or column.
TEST(CliSchemaErrors, ASchemaThatIsNotARegularFileIsRefusedUnreadWithWhatItIs) {
    Pair pair;
    ASSERT_EQ(::mkfifo((pair.dir / "fifo.json").c_str(), 0600), 0);
    std::filesystem::create_directory(pair.dir / "schemas");
    std::string big(dumpscope::kMaxSchemaFileBytes + 1, ' ');
    writeText(pair.dir / "big.json", big);
    const std::string dir = pair.dir.path().string();
    const std::vector<std::pair<std::string, std::string>> cases{
        {dir + "/fifo.json", "the schema file is a FIFO, not a regular file"},
        {"/dev/zero", "the schema file is a character device, not a regular file"},
        {dir + "/schemas", "the schema file is a directory, not a regular file"},
        {dir + "/missing.json", "cannot open the schema file: No such file or directory"},
        {dir + "/big.json", "the schema file is too large: 33554433 bytes, more than the 32 MiB a "
                            "schema may have"},
    };
    for (const auto& [schema, message] : cases) {
        SCOPED_TRACE(schema);
        const auto r = runProcess({DUMPSCOPE_CLI_PATH, (pair.dir / "a").string(),
                                   (pair.dir / "b").string(), "--schema", schema},
                                  {}, 20);
        EXPECT_EQ(r.exitCode, 2) << r.err;
        EXPECT_EQ(r.out, "");
        EXPECT_EQ(r.err, "error: schema refused: " + schema + ": " + message + "\n");
    }
}

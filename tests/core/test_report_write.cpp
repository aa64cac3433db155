// writeReport: the report appears whole or not at all, never inside a run
// directory, and a destination that cannot be written fails with the file and the cause.

#include "dumpscope/analyze.h"
#include "dumpscope/report.h"

#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using dumpscope::test::listDir;
using dumpscope::test::readFile;
using dumpscope::test::TempDir;
using nlohmann::json;

namespace {

// A small divergent analysis with a name that needs escaping in every format.
dumpscope::Analysis smallAnalysis() {
    dumpscope::Analysis a;
    dumpscope::BufferResult b;
    b.step = 0;
    b.group = "G";
    b.name = "<script>alert(1)</script>";
    b.fileName = "step_0_g_x.bin";
    b.status = dumpscope::Status::diverge;
    b.pending = false;
    b.stats.nA = b.stats.nB = 1;
    b.stats.nDiff = 1;
    b.stats.firstDiff = b.stats.lastDiff = 0;
    b.stats.firstDiffs = {{0, 0x3f800000u, 0x40000000u, 1.0}};
    a.buffers = {b};
    dumpscope::GroupCell cell;
    cell.group = "G";
    cell.status = dumpscope::Status::diverge;
    cell.buffers = {0};
    cell.nDivergent = 1;
    a.matrix = {{0, {cell}}};
    a.verdict.exitCode = 1;
    a.verdict.firstDivergentStep = 0;
    a.verdict.divergedGroups = {"G"};
    a.verdict.decisionCase = dumpscope::DecisionCase::g_only;
    return a;
}

std::string writeError(const dumpscope::Analysis& a, const fs::path& p) {
    try {
        dumpscope::writeReport(a, p);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return {};
}

struct WriteFixture {
    TempDir tmp;
    dumpscope::Analysis analysis = smallAnalysis();
    WriteFixture() {
        fs::create_directories(tmp / "a");
        fs::create_directories(tmp / "b");
        fs::create_directories(tmp / "out");
        analysis.runA = tmp / "a";
        analysis.runB = tmp / "b";
    }
};

} // namespace

TEST(WriteReport, WritesEachFormatAndLeavesNoTemporaryFile) {
    WriteFixture f;
    const std::vector<std::pair<std::string, dumpscope::ReportFormat>> files = {
        {"r.json", dumpscope::ReportFormat::json},
        {"r.md", dumpscope::ReportFormat::markdown},
        {"r.html", dumpscope::ReportFormat::html}};
    for (const auto& [name, format] : files) {
        dumpscope::writeReport(f.analysis, f.tmp / "out" / name);
        const std::string written = readFile(f.tmp / "out" / name);
        EXPECT_FALSE(written.empty()) << name;
        EXPECT_EQ(written, dumpscope::renderReport(f.analysis, format)) << name;
    }
    EXPECT_TRUE(json::accept(readFile(f.tmp / "out" / "r.json")));
    EXPECT_EQ(listDir(f.tmp / "out"), (std::vector<std::string>{"r.html", "r.json", "r.md"}));
    EXPECT_TRUE(listDir(f.tmp / "a").empty());
    EXPECT_TRUE(listDir(f.tmp / "b").empty());
}

TEST(WriteReport, ReplacesAnExistingFileWhole) {
    WriteFixture f;
    const auto target = f.tmp / "out" / "r.md";
    dumpscope::test::writeText(target, std::string(100000, 'x'));
    dumpscope::writeReport(f.analysis, target);
    EXPECT_EQ(readFile(target), dumpscope::reportMarkdown(f.analysis));
    EXPECT_EQ(listDir(f.tmp / "out"), std::vector<std::string>{"r.md"});
}

TEST(WriteReport, RefusesEveryPathIntoARunDirectoryAndCreatesNothingThere) {
    WriteFixture f;
    fs::create_directories(f.tmp / "a" / "sub");
    fs::create_symlink(f.tmp / "a", f.tmp / "link-to-a");
    const std::vector<fs::path> inside = {
        f.tmp / "a" / "r.json",
        f.tmp / "b" / "r.html",
        f.tmp / "a" / "sub" / "r.md",
        f.tmp / "out" / ".." / "a" / "r.json", // spelled through ..
        f.tmp / "link-to-a" / "r.html",        // spelled through a symlink
        f.tmp / "a" / "new-dir" / "r.json",    // a directory that does not exist yet
    };
    for (const auto& p : inside) {
        const std::string err = writeError(f.analysis, p);
        EXPECT_NE(err.find("inside a run directory"), std::string::npos) << p << ": " << err;
        EXPECT_NE(err.find(p.string()), std::string::npos) << err;
    }
    EXPECT_EQ(listDir(f.tmp / "a"), std::vector<std::string>{"sub"});
    EXPECT_TRUE(listDir(f.tmp / "a" / "sub").empty());
    EXPECT_TRUE(listDir(f.tmp / "b").empty());
    // A sibling whose name merely starts like the run directory is not inside it.
    fs::create_directories(f.tmp / "ab");
    EXPECT_NO_THROW(dumpscope::writeReport(f.analysis, f.tmp / "ab" / "r.json"));
}

// A destination that is a symlink to a file in a run is inside the run: writing through it
// would replace that file.
TEST(WriteReport, RefusesADestinationThatIsASymlinkToAFileInARun) {
    WriteFixture f;
    dumpscope::test::writeText(f.tmp / "a" / "step_0_g_x.bin", "dump");
    fs::create_symlink(f.tmp / "a" / "step_0_g_x.bin", f.tmp / "out" / "r.json");
    const std::string err = writeError(f.analysis, f.tmp / "out" / "r.json");
    EXPECT_NE(err.find("inside a run directory"), std::string::npos) << err;
    EXPECT_EQ(readFile(f.tmp / "a" / "step_0_g_x.bin"), "dump");
    EXPECT_EQ(listDir(f.tmp / "a"), std::vector<std::string>{"step_0_g_x.bin"});
    EXPECT_EQ(listDir(f.tmp / "out"), std::vector<std::string>{"r.json"});
}

TEST(WriteReport, RefusesRelativePathIntoRunDirectory) {
    WriteFixture f;
    const fs::path old = fs::current_path();
    fs::current_path(f.tmp / "a");
    const std::string err = writeError(f.analysis, "report.json");
    fs::current_path(old);
    EXPECT_NE(err.find("inside a run directory"), std::string::npos) << err;
    EXPECT_TRUE(listDir(f.tmp / "a").empty());
}

TEST(WriteReport, UnwritableDestinationsFailWithFileAndCause) {
    WriteFixture f;
    dumpscope::test::writeText(f.tmp / "out" / "plain-file", "x");
    fs::create_directories(f.tmp / "out" / "dir.json");
    struct Case {
        fs::path path;
        std::string cause;
    };
    const std::vector<Case> cases = {
        {f.tmp / "missing-dir" / "r.json", "No such file or directory"},
        {f.tmp / "out" / "plain-file" / "r.json", "Not a directory"},
        {f.tmp / "out" / "dir.json", "Is a directory"},
        {f.tmp / "out" / "r.txt", "unknown report format"},
    };
    for (const auto& c : cases) {
        const std::string err = writeError(f.analysis, c.path);
        EXPECT_NE(err.find("cannot write report " + c.path.string()), std::string::npos) << err;
        EXPECT_NE(err.find(c.cause), std::string::npos) << err;
    }
    // Nothing half-written is left behind, and the directory in the way is untouched.
    EXPECT_EQ(listDir(f.tmp / "out"), (std::vector<std::string>{"dir.json", "plain-file"}));
    EXPECT_TRUE(listDir(f.tmp / "out" / "dir.json").empty());
}

TEST(WriteReport, ReadOnlyDirectoryFailsWithPermissionDenied) {
    WriteFixture f;
    fs::permissions(f.tmp / "out", fs::perms::owner_read | fs::perms::owner_exec);
    // root ignores directory permissions; the check would then prove nothing.
    std::ofstream probe(f.tmp / "out" / "probe");
    const bool bypass = probe.is_open();
    probe.close();
    if (bypass) {
        fs::remove(f.tmp / "out" / "probe");
        fs::permissions(f.tmp / "out", fs::perms::owner_all);
        GTEST_SKIP() << "running with permission bypass (root): read-only directory not testable";
    }
    const std::string err = writeError(f.analysis, f.tmp / "out" / "r.html");
    fs::permissions(f.tmp / "out", fs::perms::owner_all);
    EXPECT_NE(err.find("Permission denied"), std::string::npos) << err;
    EXPECT_TRUE(listDir(f.tmp / "out").empty());
}

TEST(WriteReport, HostileSchemaAndFileNamesStaySafeInEveryWrittenFile) {
    TempDir tmp;
    const std::string schemaJson = R"({"name": "<i>hostile</i>", "groups": [
        {"id": "G", "label": "<script>alert(1)</script>", "buffers": [
            {"name": "<script>alert(1)</script>", "file": "g_<b>x", "dtype": "f32"},
            {"name": "a&b\"c", "file": "g_a&b\"c", "dtype": "f32"}]}]})";
    auto schema = std::make_shared<const dumpscope::Schema>(
        dumpscope::parseSchema(schemaJson, "hostile.json"));
    using dumpscope::test::writeDump;
    writeDump(tmp / "a", 0, "g_<b>x", std::vector<float>{1, 2});
    writeDump(tmp / "b", 0, "g_<b>x", std::vector<float>{1, 3});
    writeDump(tmp / "a", 0, "g_a&b\"c", std::vector<float>{5});
    writeDump(tmp / "b", 0, "g_a&b\"c", std::vector<float>{6});
    const std::string unclassified = "\xff<i>&";
    writeDump(tmp / "a", 0, unclassified, std::vector<std::uint8_t>{1});
    writeDump(tmp / "b", 0, unclassified, std::vector<std::uint8_t>{2});

    dumpscope::AnalyzeOptions options;
    options.schema = schema;
    const auto a = dumpscope::analyze(tmp / "a", tmp / "b", options);
    fs::create_directories(tmp / "out");
    for (const char* name : {"r.html", "r.json", "r.md"})
        dumpscope::writeReport(a, tmp / "out" / name);

    const std::string html = readFile(tmp / "out" / "r.html");
    EXPECT_EQ(html.find("<script"), std::string::npos);
    EXPECT_EQ(html.find("<b>"), std::string::npos);
    EXPECT_EQ(html.find("<i>"), std::string::npos);
    EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
    EXPECT_NE(html.find("a&amp;b&quot;c"), std::string::npos);
    EXPECT_NE(html.find("step_0_\\xFF&lt;i&gt;&amp;.bin"), std::string::npos);
    EXPECT_NO_THROW((void)json(html).dump()) << "HTML is not valid UTF-8";

    json j;
    ASSERT_NO_THROW(j = json::parse(readFile(tmp / "out" / "r.json")));
    EXPECT_EQ(j["schema"], "<i>hostile</i>");
    EXPECT_EQ(j["unclassified"], json::array({"step_0_\\xFF<i>&.bin"}));
    const json& g = j["steps"][0]["groups"][0];
    EXPECT_EQ(g["buffers"][0]["name"], "<script>alert(1)</script>");
    EXPECT_EQ(g["buffers"][0]["file"], "step_0_g_<b>x.bin");
    EXPECT_EQ(g["buffers"][1]["name"], "a&b\"c");
    EXPECT_EQ(j["steps"][0]["groups"][1]["buffers"][0]["name"], "\\xFF<i>&");

    const std::string md = readFile(tmp / "out" / "r.md");
    EXPECT_NO_THROW((void)json(md).dump()) << "Markdown is not valid UTF-8";
    // 5 = 1.25 * 2^2 and 6 = 1.5 * 2^2: 0.25 * 2^23 = 2^21 ULP apart.
    EXPECT_NE(
        md.find(
            "| 0 | `G` | `a&b\"c` | f32 | numeric | 1/1 | `[0] 5 vs 6` | 1 | 0.167 | 2097152 |"),
        std::string::npos)
        << md;
    EXPECT_EQ(listDir(tmp / "out"), (std::vector<std::string>{"r.html", "r.json", "r.md"}));
}

// The streaming form behind writeReportText, which the window's CSV export calls directly.
namespace {
std::string streamError(const fs::path& path, const std::vector<fs::path>& runs,
                        const std::function<void(const dumpscope::WriteSink&)>& produce) {
    try {
        dumpscope::writeFileAtomically(path, runs, "CSV file", produce);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return {};
}
} // namespace

TEST(WriteFileAtomically, WritesThePiecesInOrderAndNamesTheFileByWhatItIs) {
    WriteFixture f;
    const std::vector<fs::path> runs = {f.analysis.runA, f.analysis.runB};
    const auto target = f.tmp / "out" / "x.csv";
    const std::string big(200000, '1');
    EXPECT_EQ(streamError(target, runs,
                          [&](const dumpscope::WriteSink& sink) {
                              sink("index\n");
                              sink("");
                              sink(big);
                              sink("\n");
                          }),
              "");
    EXPECT_EQ(readFile(target), "index\n" + big + "\n");
    EXPECT_EQ(listDir(f.tmp / "out"), std::vector<std::string>{"x.csv"});

    // Refused before the producer runs: nothing is computed for a file that cannot be written.
    bool produced = false;
    const auto inside = f.tmp / "b" / "x.csv";
    const std::string err =
        streamError(inside, runs, [&](const dumpscope::WriteSink&) { produced = true; });
    EXPECT_NE(
        err.find("cannot write CSV file " + inside.string() + ": it is inside a run directory"),
        std::string::npos)
        << err;
    EXPECT_FALSE(produced);
    EXPECT_TRUE(listDir(f.tmp / "b").empty());
}

TEST(WriteFileAtomically, AProducerThatThrowsLeavesTheOldFileAndNoTemporary) {
    WriteFixture f;
    const auto target = f.tmp / "out" / "x.csv";
    dumpscope::test::writeText(target, "old");
    const std::string err = streamError(target, {}, [](const dumpscope::WriteSink& sink) {
        sink("index\n");
        throw std::runtime_error("b/step_0_g_x.bin: read failed");
    });
    EXPECT_EQ(err, "b/step_0_g_x.bin: read failed"); // the producer's own message, unchanged
    EXPECT_EQ(readFile(target), "old");
    EXPECT_EQ(listDir(f.tmp / "out"), std::vector<std::string>{"x.csv"});
}

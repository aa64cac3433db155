// The real dumpscope-cli on runs read without a schema: a 12-layer model's 188 buffers a step,
// one feed-forward output diverging first. The quiet verdict fits a screen, --json has every
// buffer, --group-depth cuts the names where asked; and a run laid out by the schema that
// differs only outside it never starts with "match".
#include "cli_pair.h"
#include "model_run_fixture.h"
#include "run_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <sstream>
#include <utility>

using dumpscope::test::ProcessResult;
using dumpscope::test::TempDir;
using json = nlohmann::json;

namespace {

ProcessResult cli(const TempDir& dir, std::vector<std::string> extra = {}) {
    return dumpscope::test::cliOnPair(dir, std::move(extra));
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::size_t lines(const std::string& text) {
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

void writeModel(const TempDir& dir) {
    dumpscope::test::writeModelPair(dir.path(), 12, 4, 2, "layers.5.mlp.c_proj");
}

std::set<std::string> groupsOf(const json& doc) {
    std::set<std::string> ids;
    for (const auto& g : doc["steps"][0]["groups"])
        ids.insert(g["id"].get<std::string>());
    return ids;
}

} // namespace

TEST(CliOwnTerms, TheQuietVerdictFitsAScreenAndNamesTheRootAlone) {
    TempDir dir;
    writeModel(dir);
    const ProcessResult r = cli(dir, {"--quiet"});
    ASSERT_EQ(r.exitCode, 1) << r.err;
    EXPECT_LE(lines(r.out), 30u) << r.out;
    EXPECT_EQ(r.out.rfind("VERDICT (first divergent step = 2):\n", 0), 0u) << r.out;
    EXPECT_TRUE(has(r.out, "ROOT CAUSE in production order (step 2): buffer layers.5.mlp.c_proj\n"
                           "  (the first divergent buffer in production order: the order of the "
                           "keys in the dumped files)\n  kind: rounding\n"))
        << r.out;
    EXPECT_TRUE(has(r.out, "  downstream: 141 more divergent buffer(s) at step 2, produced after "
                           "it: layers.5.mlp, layers.5, layers.6.ln_1 … and 138 more (--json "
                           "lists them all)\n"))
        << r.out;
    EXPECT_TRUE(has(r.out, "… and 7 more (15 groups)")) << r.out;
    // Nothing of the reference's groups, tree or wording.
    for (const char* reference : {"Group G", "(no dump)", "unexpected", "Phase 2.6", "G/H/I/J"})
        EXPECT_FALSE(has(r.out, reference)) << reference << "\n" << r.out;
}

TEST(CliOwnTerms, TheDefaultTextsVerdictPartFitsAScreenToo) {
    TempDir dir;
    writeModel(dir);
    const ProcessResult r = cli(dir);
    ASSERT_EQ(r.exitCode, 1) << r.err;
    const auto verdict = r.out.find("\nVERDICT (first divergent step = 2):");
    ASSERT_NE(verdict, std::string::npos) << r.out.substr(0, 2000);
    EXPECT_LE(lines(r.out.substr(verdict + 1)), 30u) << r.out.substr(verdict);
    // Every buffer still has its line above it, and no group shows as "(no dump)".
    EXPECT_TRUE(has(r.out, "layers.11.ln_1.bias.grad [f32] DIVERGE")) << r.out.substr(0, 2000);
    EXPECT_FALSE(has(r.out, "(no dump)"));
}

TEST(CliOwnTerms, TheJsonHasEveryDownstreamBufferAndItsFormatVersion) {
    TempDir dir;
    writeModel(dir);
    const ProcessResult r = cli(dir, {"--json"});
    ASSERT_EQ(r.exitCode, 1) << r.err;
    const json doc = json::parse(r.out);
    EXPECT_EQ(doc["format_version"], 2);
    EXPECT_EQ(doc["terms"], "own");
    EXPECT_EQ(doc["decision"]["case"], "own_terms");
    EXPECT_EQ(doc["root_cause"]["buffers"], json::array({"layers.5.mlp.c_proj"}));
    EXPECT_EQ(doc["root_cause"]["downstream"].size(), 141u);
    EXPECT_EQ(doc["root_cause"]["downstream"].back(), "embed.weight.grad");
    std::set<std::string> expected{"embed", "ln_f", "head"};
    for (int l = 0; l < 12; ++l)
        expected.insert("layers." + std::to_string(l));
    EXPECT_EQ(groupsOf(doc), expected);
}

TEST(CliOwnTerms, GroupDepthCutsTheNamesWhereAsked) {
    TempDir dir;
    writeModel(dir);
    const ProcessResult one = cli(dir, {"--json", "--group-depth", "1"});
    ASSERT_EQ(one.exitCode, 1) << one.err;
    EXPECT_EQ(groupsOf(json::parse(one.out)),
              (std::set<std::string>{"embed", "layers", "ln_f", "head"}));
    const ProcessResult three = cli(dir, {"--json", "--group-depth", "3"});
    const json deep = json::parse(three.out);
    EXPECT_EQ(deep["group_depth"], 3);
    EXPECT_TRUE(groupsOf(deep).count("layers.5.mlp"));
    EXPECT_EQ(deep["root_cause"]["groups"], json::array({"layers.5.mlp"}));

    const ProcessResult bad = cli(dir, {"--group-depth", "65"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_TRUE(has(bad.err, "--group-depth")) << bad.err;
    EXPECT_TRUE(bad.out.empty()) << bad.out;
}

TEST(CliOwnTerms, ARunDifferingOnlyOutsideTheSchemaNeverSaysMatchFirst) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0});
    dumpscope::test::writeDump(dir / "a", 0, "x_extra", std::vector<std::uint8_t>{1, 2, 3});
    dumpscope::test::writeDump(dir / "b", 0, "x_extra", std::vector<std::uint8_t>{1, 9, 3});
    for (const char* quiet : {"--quiet", "--color=never"}) {
        const ProcessResult r = cli(dir, {quiet});
        EXPECT_EQ(r.exitCode, 1) << r.err;
        const auto verdict = r.out.find("VERDICT");
        ASSERT_NE(verdict, std::string::npos) << r.out;
        const std::string first = r.out.substr(verdict, r.out.find('\n', verdict) - verdict);
        EXPECT_EQ(first, "VERDICT: the runs differ: 1 unclassified file(s) diverge (compared "
                         "bytewise, outside the schema; see the lines above); the schema's "
                         "buffers all match.")
            << r.out;
        EXPECT_FALSE(has(first, "buffers match")) << first;
    }
}

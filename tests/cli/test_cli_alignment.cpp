// The real dumpscope-cli on two runs of one model saved by torch.save under two module trees
// (tests/data/alignment/write_alignment_runs.py): --align auto and --map pair the renamed
// buffers, list every pairing and every buffer left unpaired, and name the root in both runs'
// names; a bad map is refused before either run is read, at its line and column.
#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using dumpscope::test::ProcessResult;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string data(const char* name) {
    return (dumpscope::test::testDataDir() / "alignment" / name).string();
}

ProcessResult cli(const char* b, std::vector<std::string> extra) {
    std::vector<std::string> args{DUMPSCOPE_CLI_PATH, data("a"), data(b)};
    args.insert(args.end(), extra.begin(), extra.end());
    return dumpscope::test::runProcess(args);
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

constexpr const char* kRoot = "model.layers.1.mlp.up.out → layers.1.ffn.w1.out";

} // namespace

TEST(CliAlignment, ByNameARenamedRunIsStillNotCompared) {
    const ProcessResult r = cli("b_perturbed", {"--quiet"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_TRUE(has(r.out, "no buffer is in both runs")) << r.out;
    EXPECT_FALSE(has(r.out, "names paired")) << r.out;
}

TEST(CliAlignment, AutoListsEveryPairingAndNamesTheRootInBothNames) {
    const ProcessResult r = cli("b_perturbed", {"--align", "auto"});
    ASSERT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_EQ(r.out.rfind("names paired (--align auto), run A's name → run B's:\n", 0), 0u)
        << r.out.substr(0, 400);
    EXPECT_TRUE(has(r.out, "  model.layers.0.attn.q_proj.out → layers.0.attention.q.out  (auto: "
                           "order, type and shape, 3 steps/ranks)\n"))
        << r.out;
    EXPECT_TRUE(has(r.out, "  not paired, only in run A: model.rotary.cache\n")) << r.out;
    EXPECT_TRUE(has(r.out, "  not paired, only in run B: extra.scratch\n")) << r.out;
    EXPECT_TRUE(has(r.out, "VERDICT (first divergent step = 1)")) << r.out;
    EXPECT_TRUE(has(r.out, std::string("ROOT CAUSE in production order (step 1): buffer ") + kRoot))
        << r.out;
}

TEST(CliAlignment, AMapPairsTheSameAndSaysItsRule) {
    for (const char* map : {"map.txt", "map.json"}) {
        const ProcessResult r = cli("b_perturbed", {"--map", data(map), "--quiet"});
        ASSERT_EQ(r.exitCode, 1) << map << r.out << r.err;
        EXPECT_EQ(r.out.rfind("names paired (--align names with a name map): 9 pairs; not paired: "
                              "1 only in run A, 1 only in run B\n",
                              0),
                  0u)
            << r.out;
        EXPECT_TRUE(has(r.out, kRoot)) << r.out;
    }
    const ProcessResult full = cli("b_perturbed", {"--map", data("map.txt")});
    EXPECT_TRUE(has(full.out,
                    "  lm_head.out → head.out  (map " + data("map.txt") + ":7:1, 3 steps/ranks)\n"))
        << full.out;
}

TEST(CliAlignment, TheJsonHasThePairingAndTheRootInBothNames) {
    const ProcessResult r = cli("b_perturbed", {"--align", "auto", "--json"});
    ASSERT_EQ(r.exitCode, 1) << r.err;
    const json doc = json::parse(r.out);
    const json& al = doc["alignment"];
    EXPECT_EQ(al["mode"], "auto");
    EXPECT_EQ(al["map"], false);
    ASSERT_EQ(al["pairs"].size(), 9u);
    EXPECT_EQ(al["pairs"][0]["a"], "lm_head.out");
    EXPECT_EQ(al["pairs"][0]["b"], "head.out");
    EXPECT_EQ(al["pairs"][0]["by"], "order_type_shape");
    EXPECT_EQ(al["pairs"][0]["places"], 3);
    EXPECT_TRUE(al["pairs"][0]["rule"].is_null());
    EXPECT_EQ(al["unpaired_a"], json::array({"model.rotary.cache"}));
    EXPECT_EQ(al["unpaired_b"], json::array({"extra.scratch"}));
    EXPECT_EQ(doc["root_cause"]["buffers"], json::array({kRoot}));
    EXPECT_EQ(doc["first_divergent_step"], 1);
    // Without alignment the key is there, null.
    const ProcessResult plain = cli("b_perturbed", {"--json"});
    EXPECT_TRUE(json::parse(plain.out)["alignment"].is_null());
}

TEST(CliAlignment, IdenticalRenamedRunsExitZeroUnderAuto) {
    const ProcessResult r = cli("b_same", {"--align", "auto", "--quiet"});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_TRUE(has(r.out, "9 pairs; not paired: 1 only in run A, 1 only in run B")) << r.out;
}

TEST(CliAlignment, ABadMapIsRefusedAtItsLineAndColumnBeforeAnyRead) {
    struct Case {
        const char* map;
        std::string where;
    };
    for (const Case& c :
         {Case{"map_bad_regex.txt", ":3:1: "}, Case{"map_bad_columns.txt", ":2:18: "},
          Case{"map_bad_json.json", ":2:16: "}}) {
        // The runs do not exist: the map is refused before either is looked at.
        const ProcessResult r = dumpscope::test::runProcess(
            {DUMPSCOPE_CLI_PATH, "/nonexistent/a", "/nonexistent/b", "--map", data(c.map)});
        EXPECT_EQ(r.exitCode, 2) << c.map << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
        EXPECT_EQ(r.err.rfind("error: --map refused: " + data(c.map) + c.where, 0), 0u) << r.err;
    }
    const ProcessResult twoToOne = cli("b_same", {"--map", data("map_bad_two_to_one.txt")});
    EXPECT_EQ(twoToOne.exitCode, 2) << twoToOne.out;
    EXPECT_TRUE(has(twoToOne.out + twoToOne.err, data("map_bad_two_to_one.txt") + ":2:1: "))
        << twoToOne.out << twoToOne.err;
}

TEST(CliAlignment, BadCombinationsAreRefused) {
    const ProcessResult bogus = cli("b_same", {"--align", "fuzzy"});
    EXPECT_EQ(bogus.exitCode, 2);
    EXPECT_TRUE(has(bogus.err, "--align 'fuzzy' is not a way of pairing")) << bogus.err;
    const ProcessResult compat = cli("b_same", {"--align", "auto", "--reference-compat"});
    EXPECT_EQ(compat.exitCode, 2);
    EXPECT_TRUE(has(compat.err, "the script has no --align")) << compat.err;
    const ProcessResult floor = cli("b_same", {"--map", data("map.txt"), "--floor", data("a")});
    EXPECT_EQ(floor.exitCode, 2);
    EXPECT_TRUE(has(floor.err, "not with --floor")) << floor.err;
}

// dumpscope-cli on runs dumped by torch.save, safetensors, numpy's .npz and a directory of .npy
// files per step, each with two ranks and no schema (tests/data/formats/write_runs.py): the
// real binary finds the layout, reads types and shapes from the files, compares every rank and
// names the root in production order, the first divergent buffer produced, in the runs' own
// terms.
#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <iterator>
#include <map>

using dumpscope::test::ProcessResult;
namespace fs = std::filesystem;

namespace {

ProcessResult cli(std::vector<std::string> args) {
    args.insert(args.begin(), DUMPSCOPE_CLI_PATH);
    return dumpscope::test::runProcess(args);
}

fs::path committedRuns(const std::string& format) {
    return dumpscope::test::testDataDir() / "formats" / "runs" / format;
}

// The order write_runs.py produced the tensors in.
const char* const kProduced[] = {"embed.out", "layer1.attn", "layer1.out",  "head.logits",
                                 "tokens",    "mask",        "grads.slice", "grads.t"};

// A directory of .npy files keeps no order but the files' modification times, which a checkout
// does not keep: the copy here has them stamped in production order, a second apart.
fs::path runs(const std::string& format, const dumpscope::test::TempDir& copy) {
    if (format != "npy") return committedRuns(format);
    fs::copy(committedRuns(format), copy.path(), fs::copy_options::recursive);
    const auto start = fs::file_time_type::clock::now() - std::chrono::hours(1);
    for (const auto& entry : fs::recursive_directory_iterator(copy.path())) {
        if (!entry.is_regular_file()) continue;
        const std::string name = entry.path().stem().string();
        const auto at = std::find(std::begin(kProduced), std::end(kProduced), name);
        fs::last_write_time(entry.path(), start + std::chrono::seconds(at - std::begin(kProduced)));
    }
    return copy.path();
}

// Every buffer entry of the document by "step/rank/name".
std::map<std::string, nlohmann::json> buffersOf(const nlohmann::json& doc) {
    std::map<std::string, nlohmann::json> out;
    for (const auto& step : doc["steps"])
        for (const auto& group : step["groups"])
            for (const auto& b : group["buffers"]) {
                nlohmann::json entry = b;
                entry["group"] = group["id"];
                out[std::to_string(step["step"].get<int>()) + "/" +
                    std::to_string(b["rank"].get<int>()) + "/" + b["name"].get<std::string>()] =
                    entry;
            }
    return out;
}

class CliFormats : public ::testing::TestWithParam<std::string> {
  protected:
    // What production order was read from: the keys inside each file, or the .npy files' times.
    static std::string order() { return GetParam() == "npy" ? "mtime" : "file_keys"; }
    static std::string orderText() {
        return GetParam() == "npy" ? "the files' modification times"
                                   : "the order of the keys in the dumped files";
    }
    dumpscope::test::TempDir m_copy;
};

} // namespace

TEST_P(CliFormats, FindsRanksAndNamesTheRootInProductionOrder) {
    const fs::path dir = runs(GetParam(), m_copy);
    const ProcessResult r = cli({(dir / "a").string(), (dir / "b").string(), "--json"});
    ASSERT_EQ(r.exitCode, 1) << r.err << r.out.substr(0, 2000);
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["first_divergent_step"], 2);
    EXPECT_EQ(doc["first_divergent_rank"], 1);
    EXPECT_EQ(doc["root_cause"]["ranks"], nlohmann::json::array({1}));
    // head.logits sorts first by name, but layer1.out was produced before it: the root alone,
    // head.logits downstream of it.
    EXPECT_EQ(doc["terms"], "own");
    EXPECT_EQ(doc["decision"]["case"], "own_terms");
    EXPECT_EQ(doc["root_cause"]["buffers"], nlohmann::json::array({"layer1.out"}));
    EXPECT_EQ(doc["root_cause"]["downstream"], nlohmann::json::array({"head.logits"}));
    EXPECT_EQ(doc["root_cause"]["order"], order());
    EXPECT_EQ(doc["root_cause"]["earliest"], "layer1.out/layer1.out");
    EXPECT_EQ(doc["root_cause"]["earliest_rank"], 1);
    EXPECT_EQ(doc["root_cause"]["sources"][0]["rank"], 1);
    EXPECT_TRUE(doc["warnings"].empty()) << doc["warnings"].dump();

    const auto buffers = buffersOf(doc);
    // Both ranks, both steps, every tensor compared; only rank 1 at step 2 differs.
    for (const auto& [where, b] : buffers) {
        const bool differs = where == "2/1/layer1.out" || where == "2/1/head.logits";
        EXPECT_EQ(b["status"], differs ? "diverge" : "equal") << where;
    }
    EXPECT_EQ(buffers.at("2/1/layer1.out")["kind"], "rounding");
    EXPECT_EQ(buffers.at("2/1/layer1.out")["n_diff"], 1);
    EXPECT_EQ(buffers.at("2/1/layer1.out")["first_diff"], 2 * 8 + 5);
    EXPECT_EQ(buffers.at("2/1/head.logits")["n_diff"], 3);
    // Types and shapes from the files; groups from the names at the depth that gives the most
    // groups, here two components: each buffer its own.
    EXPECT_EQ(doc["group_depth"], 2);
    EXPECT_EQ(buffers.at("1/0/layer1.out")["dtype"], "f32");
    EXPECT_EQ(buffers.at("1/0/layer1.out")["group"], "layer1.out");
    EXPECT_EQ(buffers.at("1/0/layer1.out")["shape"], nlohmann::json::array({4, 8}));
    EXPECT_EQ(buffers.at("1/0/tokens")["dtype"], "i64");
    EXPECT_EQ(buffers.at("1/0/tokens")["group"], "tokens"); // shorter than the depth: its own
    EXPECT_EQ(buffers.at("1/0/mask")["dtype"], "u8");
    EXPECT_EQ(buffers.at("1/0/grads.t")["shape"], nlohmann::json::array({4, 3}));
    EXPECT_EQ(buffers.at("1/0/grads.slice")["n_a"], 10);
    const bool hasBf16 = GetParam() == "torch" || GetParam() == "safetensors";
    EXPECT_EQ(buffers.count("1/0/layer1.attn"), hasBf16 ? 1u : 0u);
    if (hasBf16) {
        EXPECT_EQ(buffers.at("1/0/layer1.attn")["dtype"], "bf16");
    }
    EXPECT_EQ(buffers.size(), (hasBf16 ? 8u : 7u) * 2 * 2);
}

TEST_P(CliFormats, TheTextOutputSaysTheRankTheRootAndWhatOrderedIt) {
    const fs::path dir = runs(GetParam(), m_copy);
    const ProcessResult r = cli({(dir / "a").string(), (dir / "b").string()});
    ASSERT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.out.find("rank 1 layer1.out [f32] DIVERGE (rounding)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("VERDICT (first divergent step = 2, rank 1):\n"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("ROOT CAUSE in production order (step 2): buffer layer1.out\n  (the "
                         "first divergent buffer in production order: " +
                         orderText() + ")\n  kind: rounding\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("  downstream: 1 more divergent buffer(s) at step 2, produced after it: "
                         "head.logits\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("the divergence appears first on rank 1 at step 2"), std::string::npos)
        << r.out;
    // Groups taken from the files are not the reference tree's: none of its words.
    for (const char* reference :
         {"unexpected finding", "Per-group culprit table", "decision tree", "(no dump)", "Group G"})
        EXPECT_EQ(r.out.find(reference), std::string::npos) << reference << "\n" << r.out;
}

TEST_P(CliFormats, AnExplicitLayoutReadsTheSameRuns) {
    const fs::path dir = runs(GetParam(), m_copy);
    const std::string layout = GetParam() == "npy"           ? "rank{rank}/step_{step}/{name}.npy"
                               : GetParam() == "torch"       ? "rank{rank}/step_{step}.pt"
                               : GetParam() == "safetensors" ? "rank{rank}/step_{step}.safetensors"
                                                             : "rank{rank}/step_{step}.npz";
    const ProcessResult found = cli({(dir / "a").string(), (dir / "b").string(), "--json"});
    const ProcessResult given =
        cli({(dir / "a").string(), (dir / "b").string(), "--json", "--layout", layout});
    ASSERT_EQ(given.exitCode, 1) << given.err;
    EXPECT_EQ(buffersOf(nlohmann::json::parse(given.out)),
              buffersOf(nlohmann::json::parse(found.out)));
}

TEST_P(CliFormats, ReadsTheRunsWithoutWritingAByteInThem) {
    const fs::path dir = runs(GetParam(), m_copy);
    const auto before = dumpscope::test::snapshotTree(dir);
    dumpscope::test::TempDir out;
    const ProcessResult r = cli(
        {(dir / "a").string(), (dir / "b").string(), "--report", (out / "report.html").string()});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_EQ(dumpscope::test::snapshotTree(dir), before);
    // The report shows the tensors by name, and the root in production order.
    const std::string html = dumpscope::test::readFile(out / "report.html");
    EXPECT_NE(html.find("layer1.out"), std::string::npos);
    EXPECT_NE(html.find("root buffers <code>layer1.out</code> (production order from the "),
              std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(EveryFormat, CliFormats,
                         ::testing::Values("torch", "safetensors", "npz", "npy"),
                         [](const auto& info) { return info.param; });

TEST(CliLayout, ABadPatternIsRefusedBeforeAnythingIsRead) {
    const fs::path dir = committedRuns("torch");
    const ProcessResult r =
        cli({(dir / "a").string(), (dir / "b").string(), "--layout", "rank{rank}/{name}.pt"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err, "error: --layout rank{rank}/{name}.pt: the layout pattern has no {step}\n");
    const ProcessResult compat = cli({(dir / "a").string(), (dir / "b").string(),
                                      "--reference-compat", "--layout", "step_{step}.pt"});
    EXPECT_EQ(compat.exitCode, 2);
    EXPECT_NE(compat.err.find("--reference-compat reads the reference's own layout only"),
              std::string::npos)
        << compat.err;
}

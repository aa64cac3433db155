// dumpscope-cli on runs dumped by torch.save, safetensors, numpy's .npz and a directory of .npy
// files per step, each with two ranks and no schema (tests/data/formats/write_runs.py): the
// real binary finds the layout, reads types and shapes from the files, compares every rank and
// names the earliest divergence in dump order.
#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>

using dumpscope::test::ProcessResult;
namespace fs = std::filesystem;

namespace {

ProcessResult cli(std::vector<std::string> args) {
    args.insert(args.begin(), DUMPSCOPE_CLI_PATH);
    return dumpscope::test::runProcess(args);
}

fs::path runs(const std::string& format) {
    return dumpscope::test::testDataDir() / "formats" / "runs" / format;
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
    static std::string earliest() {
        return GetParam() == "npy" ? "head/head.logits" : "layer1/layer1.out";
    }
};

} // namespace

TEST_P(CliFormats, FindsRanksAndNamesTheEarliestDivergenceInDumpOrder) {
    const fs::path dir = runs(GetParam());
    const ProcessResult r = cli({(dir / "a").string(), (dir / "b").string(), "--json"});
    ASSERT_EQ(r.exitCode, 1) << r.err << r.out.substr(0, 2000);
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["first_divergent_step"], 2);
    EXPECT_EQ(doc["first_divergent_rank"], 1);
    EXPECT_EQ(doc["root_cause"]["ranks"], nlohmann::json::array({1}));
    // head.logits sorts first by name, but layer1.out was dumped (computed) before it. A
    // directory of .npy files keeps no order but their names.
    EXPECT_EQ(doc["root_cause"]["earliest"], earliest());
    EXPECT_EQ(doc["root_cause"]["earliest_rank"], 1);
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
    // Types and shapes from the files, groups from the names' first component.
    EXPECT_EQ(buffers.at("1/0/layer1.out")["dtype"], "f32");
    EXPECT_EQ(buffers.at("1/0/layer1.out")["group"], "layer1");
    EXPECT_EQ(buffers.at("1/0/layer1.out")["shape"], nlohmann::json::array({4, 8}));
    EXPECT_EQ(buffers.at("1/0/tokens")["dtype"], "i64");
    EXPECT_EQ(buffers.at("1/0/tokens")["group"], "tensors");
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

TEST_P(CliFormats, TheTextOutputSaysTheRankAndTheEarliestBuffer) {
    const fs::path dir = runs(GetParam());
    const ProcessResult r = cli({(dir / "a").string(), (dir / "b").string()});
    ASSERT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.out.find("rank 1 layer1.out [f32] DIVERGE (rounding)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("the earliest divergence in dump order (the order of the keys in the "
                         "dumped files) is " +
                         earliest() + " on rank 1"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("the divergence appears first on rank 1 at step 2"), std::string::npos)
        << r.out;
    // Groups taken from the files are not the reference tree's "unexpected" set.
    EXPECT_EQ(r.out.find("unexpected finding"), std::string::npos) << r.out;
    const std::string groups = GetParam() == "npy" ? "head, layer1" : "layer1, head";
    EXPECT_NE(r.out.find("No decision tree applies: the divergent groups (" + groups +
                         ") are not in the schema's dataflow.\n  → Start at the earliest "
                         "divergence in dump order, " +
                         earliest() + " on rank 1"),
              std::string::npos)
        << r.out;
}

TEST_P(CliFormats, AnExplicitLayoutReadsTheSameRuns) {
    const fs::path dir = runs(GetParam());
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
    const fs::path dir = runs(GetParam());
    const auto before = dumpscope::test::snapshotTree(dir);
    dumpscope::test::TempDir out;
    const ProcessResult r = cli(
        {(dir / "a").string(), (dir / "b").string(), "--report", (out / "report.html").string()});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_EQ(dumpscope::test::snapshotTree(dir), before);
    // The report shows the tensors by name, with the note on the earliest divergence.
    const std::string html = dumpscope::test::readFile(out / "report.html");
    EXPECT_NE(html.find("layer1.out"), std::string::npos);
    EXPECT_NE(html.find("the earliest divergence in dump order"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(EveryFormat, CliFormats,
                         ::testing::Values("torch", "safetensors", "npz", "npy"),
                         [](const auto& info) { return info.param; });

TEST(CliLayout, ABadPatternIsRefusedBeforeAnythingIsRead) {
    const fs::path dir = runs("torch");
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

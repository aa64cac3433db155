// dumpscope-cli on captured runs: runs written by dumpscope/capture.h in full and hash mode, and
// a log whose fingerprints Python computed with its own integers beside the same tensors saved
// by torch.save (tests/data/formats/write_fingerprint_runs.py). A side known by its fingerprint
// alone is compared by the fingerprint of the other side's bytes.
#include "dumpscope/capture.h"
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

// "step name" -> the buffer's JSON entry.
std::map<std::string, nlohmann::json> buffersOf(const nlohmann::json& doc) {
    std::map<std::string, nlohmann::json> out;
    for (const auto& step : doc["steps"])
        for (const auto& group : step["groups"])
            for (const auto& b : group["buffers"])
                out[std::to_string(step["step"].get<int>()) + " " + b["name"].get<std::string>()] =
                    b;
    return out;
}

// Four steps of a small chain of buffers; `changedAt` alters "block.1.out" from that step on.
void capture(const fs::path& run, dumpscope::CaptureMode mode, int changedAt = -1) {
    dumpscope::Capture cap(run, {mode, std::nullopt, "test_cli_fingerprint"});
    for (int step = 0; step < 4; ++step) {
        std::vector<float> x(8), h(8), y(8);
        for (std::size_t i = 0; i < x.size(); ++i) {
            x[i] = static_cast<float>(i) * 0.5f + static_cast<float>(step);
            h[i] = x[i] * 3;
        }
        if (changedAt >= 0 && step >= changedAt) h[3] += 0.125f;
        for (std::size_t i = 0; i < y.size(); ++i)
            y[i] = h[i] - 1;
        std::vector<std::int64_t> ids = {1, 2, 3, step};
        const auto in = cap.add("block.0.out", x.data(), {2, 4});
        const auto mid = cap.add("block.1.out", h.data(), {2, 4}, {{in}});
        cap.add("head.out", y.data(), {8}, {{mid}});
        cap.add("tokens", ids.data(), {4}, std::vector<std::size_t>{});
        cap.step(static_cast<std::uint64_t>(step));
    }
}

TEST(CliFingerprint, AFullRunAgainstAHashRunDivergesAtTheChangedStepByFingerprint) {
    dumpscope::test::TempDir dir;
    capture(dir / "a", dumpscope::CaptureMode::full);
    capture(dir / "b", dumpscope::CaptureMode::hash, 2);
    const ProcessResult r = cli({(dir / "a").string(), (dir / "b").string(), "--json"});
    ASSERT_EQ(r.exitCode, 1) << r.err << r.out.substr(0, 2000);
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["first_divergent_step"], 2);
    const auto buffers = buffersOf(doc);
    ASSERT_EQ(buffers.size(), 16u);
    for (const auto& [key, b] : buffers) {
        const bool diverges = key == "2 block.1.out" || key == "2 head.out" ||
                              key == "3 block.1.out" || key == "3 head.out";
        EXPECT_EQ(b["status"], diverges ? "diverge" : "equal") << key;
        EXPECT_EQ(b["kind"], diverges ? "fingerprint_only" : "bit_identical") << key;
        EXPECT_TRUE(b["fingerprint_a"].is_null()) << key;
        EXPECT_EQ(b["fingerprint_b"].get<std::string>().size(), 16u) << key;
        EXPECT_TRUE(b["n_diff"].is_null()) << key;
        EXPECT_EQ(b["full_tensors_call"], "Capture(\"" + (dir / "b").string() +
                                              "\", mode=\"full\", steps={" + key.substr(0, 1) +
                                              "})")
            << key;
    }
    EXPECT_EQ(buffers.at("3 tokens")["dtype"], "i64");

    const ProcessResult text = cli({(dir / "a").string(), (dir / "b").string()});
    EXPECT_EQ(text.exitCode, 1);
    EXPECT_NE(text.out.find("block.1.out [f32] DIVERGE (fingerprint_only) fingerprints differ; "
                            "no element data without full tensors"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("block.0.out [f32] EQUAL (8 elements, by fingerprint)"),
              std::string::npos);
}

TEST(CliFingerprint, IdenticalCapturesAreIdenticalInEveryPairingOfModes) {
    dumpscope::test::TempDir dir;
    capture(dir / "full", dumpscope::CaptureMode::full);
    capture(dir / "hash", dumpscope::CaptureMode::hash);
    capture(dir / "hash2", dumpscope::CaptureMode::hash);
    for (const auto& [a, b] : std::vector<std::pair<std::string, std::string>>{
             {"full", "hash"}, {"hash", "full"}, {"hash", "hash2"}}) {
        const ProcessResult r = cli({(dir / a).string(), (dir / b).string(), "--quiet"});
        EXPECT_EQ(r.exitCode, 0) << a << " vs " << b << ": " << r.out << r.err;
    }
}

TEST(CliFingerprint, TwoHashRunsDivergeAtTheChangedStep) {
    dumpscope::test::TempDir dir;
    capture(dir / "a", dumpscope::CaptureMode::hash);
    capture(dir / "b", dumpscope::CaptureMode::hash, 1);
    const ProcessResult r = cli({(dir / "a").string(), (dir / "b").string(), "--json"});
    ASSERT_EQ(r.exitCode, 1) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["first_divergent_step"], 1);
    const auto b = buffersOf(doc).at("1 block.1.out");
    EXPECT_EQ(b["kind"], "fingerprint_only");
    EXPECT_NE(b["fingerprint_a"], b["fingerprint_b"]);
    EXPECT_EQ(buffersOf(doc).at("1 block.0.out")["status"], "equal");
}

TEST(CliFingerprint, ALogCutShortIsRefusedByFileAndLine) {
    dumpscope::test::TempDir dir;
    capture(dir / "a", dumpscope::CaptureMode::hash);
    capture(dir / "b", dumpscope::CaptureMode::hash);
    const fs::path log = dir / "b" / "dumpscope-fingerprints.jsonl";
    const std::string text = dumpscope::test::readFile(log);
    dumpscope::test::writeText(log, text.substr(0, text.size() - 3));
    const ProcessResult r = cli({(dir / "a").string(), (dir / "b").string()});
    EXPECT_EQ(r.exitCode, 2) << r.out;
    EXPECT_NE((r.out + r.err).find(log.string() + ": line 5: cut short"), std::string::npos)
        << r.out << r.err;
}

// Steps 0..2 logging `names` (four f32 each, from the name and step); `skip` is left out at step
// 1, as a mixture of experts' routing leaves an expert out.
void captureModel(const fs::path& run, dumpscope::CaptureMode mode,
                  const std::vector<std::string>& names, const std::string& skip = {}) {
    dumpscope::Capture cap(run, {mode, std::nullopt, "test_cli_fingerprint"});
    for (std::uint64_t step = 0; step < 3; ++step) {
        for (const std::string& name : names) {
            if (step == 1 && name == skip) continue;
            std::vector<float> x(4, static_cast<float>(name.size() * 7 + step));
            cap.add(name, x.data(), {4});
        }
        cap.step(step);
    }
}

std::vector<std::string> modelNames(const std::string& stem, int n) {
    std::vector<std::string> names = {"loss"};
    for (int i = 0; i < n; ++i)
        names.push_back(stem + std::to_string(i) + ".out");
    return names;
}

// Logs of a GPT and of a tiny transformer share "loss" alone: refused as a pair (exit 2), naming
// both logs and the line of step 0 in each, not compared as one divergent "loss" and the rest
// one-sided. The same model with one expert's output missing at a step is compared.
TEST(CliFingerprint, LogsOfAnotherModelAreRefusedAndAMissingExpertIsCompared) {
    dumpscope::test::TempDir dir;
    captureModel(dir / "gpt", dumpscope::CaptureMode::hash, modelNames("transformer.h.", 24));
    captureModel(dir / "tiny", dumpscope::CaptureMode::full, modelNames("blocks.", 4));
    const ProcessResult r = cli({(dir / "gpt").string(), (dir / "tiny").string()});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    for (const char* run : {"gpt", "tiny"})
        EXPECT_NE(r.err.find((dir / run / "dumpscope-fingerprints.jsonl").string() + ": line 2"),
                  std::string::npos)
            << r.err;
    EXPECT_NE(r.err.find("another model"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("\"blocks.0.out\""), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("DIVERGE"), std::string::npos) << r.out;

    const auto experts = modelNames("moe.expert.", 8);
    captureModel(dir / "a", dumpscope::CaptureMode::full, experts);
    captureModel(dir / "b", dumpscope::CaptureMode::hash, experts, "moe.expert.5.out");
    const ProcessResult moe = cli({(dir / "a").string(), (dir / "b").string(), "--json"});
    // Reported one-sided, which counts as no divergence unless --strict (docs/cli.md).
    ASSERT_EQ(moe.exitCode, 0) << moe.err << moe.out.substr(0, 2000);
    const auto buffers = buffersOf(nlohmann::json::parse(moe.out));
    EXPECT_EQ(buffers.size(), 27u);
    for (const auto& [key, b] : buffers)
        EXPECT_EQ(b["status"], key == "1 moe.expert.5.out" ? "only_in_a" : "equal") << key;

    EXPECT_EQ(cli({(dir / "a").string(), (dir / "b").string(), "--strict"}).exitCode, 2);

    captureModel(dir / "c", dumpscope::CaptureMode::hash, experts);
    const ProcessResult same = cli({(dir / "a").string(), (dir / "c").string(), "--quiet"});
    EXPECT_EQ(same.exitCode, 0) << same.out << same.err;
}

// The fingerprints Python computed from torch's bytes are those dumpscope computes from the
// tensors torch.save wrote: every type they share, views, NaN payloads and signed zeros.
TEST(CliFingerprint, TorchTensorsMatchTheFingerprintsPythonComputedFromThem) {
    const fs::path runs = dumpscope::test::testDataDir() / "formats" / "runs" / "fingerprint";
    const ProcessResult r = cli({(runs / "torch").string(), (runs / "log").string(), "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out.substr(0, 3000);
    const auto buffers = buffersOf(nlohmann::json::parse(r.out));
    EXPECT_EQ(buffers.size(), 17u);
    for (const char* name : {"0 float.bf16", "0 special.f32", "0 view.transpose", "0 view.slice",
                             "0 view.step", "0 view.bf16_transpose", "0 odd.u8", "0 scalar.f64"})
        EXPECT_EQ(buffers.at(name)["status"], "equal") << name;

    // One fingerprint changed in a copy of the log: that buffer alone diverges.
    dumpscope::test::TempDir dir;
    fs::create_directories(dir / "log");
    std::string log = dumpscope::test::readFile(runs / "log" / "dumpscope-fingerprints.jsonl");
    const auto at = log.find("\"view.slice\"");
    ASSERT_NE(at, std::string::npos);
    const auto fp = log.find(']', at) + 3; // after the shape's "],\"": the fingerprint
    log[fp] = log[fp] == '0' ? '1' : '0';
    dumpscope::test::writeText(dir / "log" / "dumpscope-fingerprints.jsonl", log);
    const ProcessResult changed =
        cli({(runs / "torch").string(), (dir / "log").string(), "--json"});
    ASSERT_EQ(changed.exitCode, 1) << changed.err;
    for (const auto& [key, b] : buffersOf(nlohmann::json::parse(changed.out)))
        EXPECT_EQ(b["status"], key == "0 view.slice" ? "diverge" : "equal") << key;
}

} // namespace

// Logs of two runs told apart by model (docs/reference/fingerprint.md, "How dumpscope reads a
// log"): runs written by dumpscope/capture.h whose logs share few names at a step are refused as
// a pair, naming both logs' lines; one buffer missing among many is a one-sided buffer.
#include "dumpscope/analyze.h"
#include "dumpscope/capture.h"
#include "dumpscope/scan.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using dumpscope::Capture;
using dumpscope::CaptureMode;
using dumpscope::Status;
using dumpscope::test::TempDir;

// A run whose steps 0..1 each log the buffers `names` (four f32 each, from the name and step),
// written by capture.h; `skip` is left out at step 1, as routing leaves an expert out.
void captureNames(const fs::path& run, CaptureMode mode, const std::vector<std::string>& names,
                  const std::string& skip = {}) {
    Capture cap(run, {mode, std::nullopt, "t"});
    for (std::uint64_t step = 0; step < 2; ++step) {
        for (const std::string& name : names) {
            if (step == 1 && name == skip) continue;
            std::vector<float> x(4, static_cast<float>(name.size() + step));
            cap.add(name, x.data(), {4});
        }
        cap.step(step);
    }
}

std::vector<std::string> numbered(const std::string& stem, int n) {
    std::vector<std::string> names;
    for (int i = 0; i < n; ++i)
        names.push_back(stem + std::to_string(i));
    return names;
}

TEST(FingerprintLog, EachLoggedBufferKeepsTheLineOfItsStep) {
    TempDir dir;
    captureNames(dir / "a", CaptureMode::full, {"x", "y"});
    captureNames(dir / "b", CaptureMode::hash, {"x", "y"});
    for (const char* run : {"a", "b"}) {
        const auto scan = dumpscope::scanRun(dir / run);
        ASSERT_EQ(scan.error, "");
        const auto& f = scan.files.at({1, "y", 0});
        ASSERT_TRUE(f.logLine) << run;
        EXPECT_EQ(*f.logLine, (dir / run / "dumpscope-fingerprints.jsonl").string() + ": line 3");
    }
}

// Logs of two models that share one name ("loss") are refused as a pair, naming both logs' lines
// of the first step, whichever mode each was captured in.
TEST(FingerprintLog, LogsOfTwoModelsAreRefusedNamingBothLinesAndSomeNames) {
    for (CaptureMode modeB : {CaptureMode::full, CaptureMode::hash}) {
        TempDir dir;
        auto gpt = numbered("transformer.h.", 9), tiny = numbered("blocks.", 4);
        gpt.push_back("loss");
        tiny.push_back("loss");
        captureNames(dir / "a", CaptureMode::hash, gpt);
        captureNames(dir / "b", modeB, tiny);
        const auto an = dumpscope::analyze(dir / "a", dir / "b");
        EXPECT_EQ(an.errorA, "");
        EXPECT_EQ(an.errorB,
                  "run B is a capture of another model than run A: at step 0, " +
                      (dir / "a" / "dumpscope-fingerprints.jsonl").string() +
                      ": line 2 lists 10 buffers and " +
                      (dir / "b" / "dumpscope-fingerprints.jsonl").string() +
                      ": line 2 lists 5, 1 of them by the same name (only in A: "
                      "\"transformer.h.0\", \"transformer.h.1\", \"transformer.h.2\" and 6 more; "
                      "only in B: \"blocks.0\", \"blocks.1\", \"blocks.2\" and 1 more); not "
                      "compared (the same model under other names pairs with --align auto or "
                      "--map)");
        EXPECT_TRUE(an.buffers.empty());
        EXPECT_EQ(an.verdict.exitCode, 2);
    }
}

// The rule: refused when fewer than half the longer list's names are shared, at any step.
TEST(FingerprintLog, HalfTheNamesSharedIsTheSameModel) {
    TempDir dir;
    captureNames(dir / "a", CaptureMode::hash, {"p", "q", "r", "s"});
    captureNames(dir / "b", CaptureMode::hash, {"p", "q", "x", "y"});
    captureNames(dir / "c", CaptureMode::hash, {"p", "x", "y", "z"});
    EXPECT_EQ(dumpscope::analyze(dir / "a", dir / "b").errorB, "");
    EXPECT_NE(dumpscope::analyze(dir / "a", dir / "c").errorB.find("1 of them by the same name"),
              std::string::npos);
    EXPECT_NE(dumpscope::analyze(dir / "c", dir / "a").errorB.find("1 of them by the same name"),
              std::string::npos);
}

// A mixture of experts whose routing leaves one expert out at step 1 in run B: the same model,
// that expert's output one-sided there, every other buffer compared.
TEST(FingerprintLog, OneBufferMissingAmongManyIsOneSidedNotAnotherModel) {
    TempDir dir;
    const auto experts = numbered("moe.expert.", 8);
    captureNames(dir / "a", CaptureMode::full, experts);
    captureNames(dir / "b", CaptureMode::hash, experts, "moe.expert.5");
    const auto an = dumpscope::analyze(dir / "a", dir / "b");
    ASSERT_EQ(an.errorA + an.errorB, "");
    ASSERT_EQ(an.buffers.size(), 16u);
    for (const auto& b : an.buffers) {
        SCOPED_TRACE(b.name + " at step " + std::to_string(b.step));
        const bool skipped = b.step == 1 && b.name == "moe.expert.5";
        EXPECT_EQ(b.status, skipped ? Status::only_in_a : Status::equal);
    }
    // A one-sided buffer is reported, not counted as a divergence (docs/cli.md's exit codes).
    EXPECT_EQ(an.verdict.exitCode, 0);
}

} // namespace

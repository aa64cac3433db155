// The fingerprint log (docs/reference/fingerprint.md): a strict reader that refuses by file and
// line, and the scan of runs written by dumpscope/capture.h: a log alone (hash mode) lists
// fingerprint-only buffers; a log with its step files gives their tensors the log's order and
// inputs.
#include "dumpscope/analyze.h"
#include "dumpscope/capture.h"
#include "dumpscope/result_cache.h"
#include "dumpscope/scan.h"
#include "dumpscope/step_completion.h"
#include "io/fingerprint_log.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using dumpscope::Capture;
using dumpscope::CaptureMode;
using dumpscope::Kind;
using dumpscope::Status;
using dumpscope::test::TempDir;

const std::string kHeader = R"({"format":"dumpscope-fingerprints","version":1,)"
                            R"("fingerprint":"dsfp1","mode":"hash","rank":null,"writer":"t"})"
                            "\n";
const std::string kStep0 =
    R"({"step":0,"file":null,"buffers":[["a","f32",[2],"0123456789abcdef",null],)"
    R"(["b","f32",[2],"fedcba9876543210",[0]]]})"
    "\n";

std::string refusal(const std::string& text) {
    std::string error;
    dumpscope::detail::parseFingerprintLog(text, "LOG", error);
    return error;
}

TEST(FingerprintLog, ReadsHeaderStepsBuffersAndInputs) {
    std::string error;
    const auto log = dumpscope::detail::parseFingerprintLog(kHeader + kStep0, "LOG", error);
    ASSERT_EQ(error, "");
    EXPECT_EQ(log.mode, "hash");
    EXPECT_FALSE(log.rank);
    ASSERT_EQ(log.steps.size(), 1u);
    EXPECT_EQ(log.steps[0].line, 2u);
    ASSERT_EQ(log.steps[0].buffers.size(), 2u);
    EXPECT_EQ(log.steps[0].buffers[0].fingerprint, 0x0123456789abcdefull);
    EXPECT_FALSE(log.steps[0].buffers[0].inputs);
    EXPECT_EQ(log.steps[0].buffers[1].inputs, (std::vector<std::size_t>{0}));
    EXPECT_EQ(log.steps[0].buffers[1].count, 2u);
}

TEST(FingerprintLog, RefusesEachBrokenLineByFileAndLine) {
    const std::string step1 = R"({"step":1,"file":null,"buffers":[)";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"", "LOG: line 1: empty"},
        {"[1]\n", "LOG: line 1: not a JSON object"},
        {kHeader + "{\"step\":\n", "LOG: line 2: not a JSON object"},
        {R"({"format":"other","version":1,"fingerprint":"dsfp1","mode":"hash","rank":null})"
         "\n",
         "LOG: line 1: not a dumpscope fingerprint log"},
        {R"({"format":"dumpscope-fingerprints","version":2,"fingerprint":"dsfp1","mode":"hash",)"
         R"("rank":null})"
         "\n",
         "LOG: line 1: version 2"},
        {R"({"format":"dumpscope-fingerprints","version":1,"fingerprint":"md5","mode":"hash",)"
         R"("rank":null})"
         "\n",
         "LOG: line 1: fingerprint \"md5\""},
        {kHeader + step1 + R"(["a","f32",[2],"0123456789ABCDEF",null]]})" + "\n",
         "LOG: line 2: buffer \"a\": the fingerprint \"0123456789ABCDEF\" is not 16"},
        {kHeader + step1 + R"(["a","f32",[2],"0123456789abcde",null]]})" + "\n",
         "LOG: line 2: buffer \"a\": the fingerprint"},
        {kHeader + kStep0 + kStep0, "LOG: line 3: step 0 is written twice (first on line 2)"},
        {kHeader + step1 + R"(["a","f32",[2],"0123456789abcdef",null],)" +
             R"(["a","f32",[2],"0123456789abcdef",null]]})" + "\n",
         "LOG: line 2: buffer \"a\" is written twice in the step"},
        {kHeader + step1 + R"(["a","f32",[2],"0123456789abcdef",[0]]]})" + "\n",
         "LOG: line 2: buffer \"a\": input 0 is not the index of an earlier buffer"},
        {kHeader + step1 + R"(["a","f32",[2],"0123456789abcdef",null],)" +
             R"(["b","f32",[2],"0123456789abcdef",[2]]]})" + "\n",
         "LOG: line 2: buffer \"b\": input 2 is not the index of an earlier buffer"},
        {kHeader + step1 + R"(["a","f32",[2],"0123456789abcdef",[-1]]]})" + "\n",
         "LOG: line 2: buffer \"a\": input -1"},
        {kHeader + kStep0.substr(0, kStep0.size() - 1), "LOG: line 2: cut short"},
        {kHeader + kStep0 + R"({"step":1,"file":null,"buf)", "LOG: line 3: cut short"},
        {kHeader + R"({"step":-1,"file":null,"buffers":[]})" + "\n",
         "LOG: line 2: \"step\" is not a non-negative integer"},
        {kHeader + R"({"step":1,"file":"../b/step_1.safetensors","buffers":[]})" + "\n",
         "LOG: line 2: \"file\" \"../b/step_1.safetensors\" leads out of the log's folder"},
        {kHeader + R"({"step":1,"file":"/etc/passwd","buffers":[]})" + "\n",
         "LOG: line 2: \"file\" \"/etc/passwd\" is not a path relative to the log"},
        {kHeader + step1 + R"(["a","f32",[2],"0123456789abcdef"]]})" + "\n",
         "LOG: line 2: buffer 0 is not [name, dtype, shape, fingerprint, inputs]"},
        {kHeader + step1 + R"(["a","f32",[4294967296,4294967296],"0123456789abcdef",null]]})" +
             "\n",
         "LOG: line 2: buffer \"a\": the shape's element count overflows 64 bits"},
    };
    for (const auto& [text, expected] : cases) {
        const std::string error = refusal(text);
        EXPECT_EQ(error.substr(0, expected.size()), expected) << text;
    }
}

// A run of three buffers over steps 0..2, written by capture.h; `changed` alters "mid" at step 2.
void capture(const fs::path& run, CaptureMode mode, bool changed) {
    Capture cap(run, {mode, std::nullopt, "test"});
    for (std::uint64_t step = 0; step < 3; ++step) {
        std::vector<float> in(6), mid(6), out(3);
        for (std::size_t i = 0; i < in.size(); ++i) {
            in[i] = static_cast<float>(i + step);
            mid[i] = in[i] * 2;
        }
        if (changed && step == 2) mid[4] += 1.0f;
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = mid[2 * i] + mid[2 * i + 1];
        const auto a = cap.add("model.in", in.data(), {2, 3});
        const auto b = cap.add("model.mid", mid.data(), {2, 3}, {{a}});
        cap.add("model.out", out.data(), {3}, {{b}});
        cap.step(step);
    }
}

TEST(FingerprintLog, ALogOnlyRunListsFingerprintOnlyBuffersInProductionOrder) {
    TempDir dir;
    capture(dir / "b", CaptureMode::hash, false);
    EXPECT_EQ(dumpscope::test::listDir(dir / "b"),
              (std::vector<std::string>{"dumpscope-fingerprints.jsonl"}));
    const auto scan = dumpscope::scanRun(dir / "b");
    ASSERT_EQ(scan.error, "");
    ASSERT_EQ(scan.files.size(), 9u);
    const auto& mid = scan.files.at({2, "model.mid", 0});
    EXPECT_TRUE(mid.fingerprintOnly);
    EXPECT_TRUE(mid.fingerprint);
    EXPECT_EQ(mid.order, 1u);
    EXPECT_EQ(mid.dtype, dumpscope::DType::f32);
    EXPECT_EQ(mid.shape, (std::vector<std::uint64_t>{2, 3}));
    EXPECT_EQ(mid.size, 24u);
    EXPECT_EQ(mid.inputs, (std::vector<std::string>{"model.in"}));
    EXPECT_FALSE(scan.files.at({2, "model.in", 0}).inputs);
}

TEST(FingerprintLog, AFullRunsTensorsTakeTheLogsOrderAndInputs) {
    TempDir dir;
    capture(dir / "a", CaptureMode::full, false);
    const auto scan = dumpscope::scanRun(dir / "a");
    ASSERT_EQ(scan.error, "");
    ASSERT_EQ(scan.files.size(), 9u);
    const auto& out = scan.files.at({1, "model.out", 0});
    EXPECT_FALSE(out.fingerprintOnly);
    EXPECT_TRUE(out.location);
    EXPECT_EQ(out.fileName, "step_1.safetensors");
    EXPECT_EQ(out.order, 2u);
    EXPECT_EQ(out.inputs, (std::vector<std::string>{"model.mid"}));
    EXPECT_EQ(out.error, "");
}

TEST(FingerprintLog, TensorsAndLogThatDisagreeAreErrorsNamingBoth) {
    TempDir dir;
    capture(dir / "a", CaptureMode::full, false);
    // A log that lists a buffer the file lacks, and lacks one the file holds.
    std::string log = dumpscope::test::readFile(dir / "a" / "dumpscope-fingerprints.jsonl");
    const auto at = log.find("\"model.out\"", log.find("\"step\":1"));
    ASSERT_NE(at, std::string::npos);
    log.replace(at, 11, "\"model.end\"");
    dumpscope::test::writeText(dir / "a" / "dumpscope-fingerprints.jsonl", log);
    const auto scan = dumpscope::scanRun(dir / "a");
    ASSERT_EQ(scan.error, "");
    const std::string logPath = (dir / "a" / "dumpscope-fingerprints.jsonl").string();
    EXPECT_EQ(scan.files.at({1, "model.end", 0}).error,
              logPath + ": line 3: lists \"model.end\" at step 1, which " + (dir / "a").string() +
                  "/step_1.safetensors does not hold");
    EXPECT_EQ(scan.files.at({1, "model.out", 0}).error,
              (dir / "a").string() + "/step_1.safetensors: holds \"model.out\" at step 1, which " +
                  logPath + ": line 3 does not list");
    EXPECT_EQ(scan.files.at({0, "model.out", 0}).error, "");
}

TEST(FingerprintLog, ARefusedLogIsTheRunsErrorAndALogOnlyRunIsARun) {
    TempDir dir;
    capture(dir / "a", CaptureMode::hash, false);
    const fs::path log = dir / "a" / "dumpscope-fingerprints.jsonl";
    const std::string text = dumpscope::test::readFile(log);
    dumpscope::test::writeText(log, text.substr(0, text.size() - 5));
    const auto scan = dumpscope::scanRun(dir / "a");
    EXPECT_EQ(scan.error, log.string() + ": line 4: cut short: the last line has no newline (a "
                                         "write was interrupted)");
    EXPECT_TRUE(scan.files.empty());
}

TEST(FingerprintLog, ARankedLogLiesInItsRanksFolder) {
    TempDir dir;
    Capture(dir / "a", {CaptureMode::hash, 1, "t"}).step(0);
    fs::rename(dir / "a" / "rank1", dir / "a" / "rank0");
    dumpscope::test::writeText(dir / "a" / "rank0" / "step_0_x.bin", "1234");
    const auto scan = dumpscope::scanRun(dir / "a");
    EXPECT_EQ(scan.error, (dir / "a" / "rank0" / "dumpscope-fingerprints.jsonl").string() +
                              ": line 1: the log is rank 1's, but lies in rank0/");
}

// Run A full, run B in either mode: one buffer changed at step 2 diverges there and nowhere
// else, with the fingerprint kind when a side has no bytes; identical runs are equal.
TEST(FingerprintLog, AFingerprintSideIsComparedByTheOtherSidesBytes) {
    for (CaptureMode modeA : {CaptureMode::full, CaptureMode::hash})
        for (CaptureMode modeB : {CaptureMode::full, CaptureMode::hash})
            for (bool changed : {false, true}) {
                TempDir dir;
                capture(dir / "a", modeA, false);
                capture(dir / "b", modeB, changed);
                auto cache = std::make_shared<dumpscope::ResultCache>();
                dumpscope::AnalyzeOptions options;
                options.cache = cache;
                for (int pass = 0; pass < 2; ++pass) { // the second from the cache
                    const auto an = dumpscope::analyze(dir / "a", dir / "b", options);
                    ASSERT_EQ(an.errorA + an.errorB, "");
                    ASSERT_EQ(an.buffers.size(), 9u);
                    const bool bytes = modeA == CaptureMode::full && modeB == CaptureMode::full;
                    for (const auto& b : an.buffers) {
                        const bool diverges = changed && b.step == 2 && b.name != "model.in";
                        SCOPED_TRACE(b.name + " at step " + std::to_string(b.step));
                        EXPECT_EQ(b.status, diverges ? Status::diverge : Status::equal);
                        if (!diverges)
                            EXPECT_EQ(b.kind, Kind::bit_identical);
                        else if (bytes)
                            EXPECT_EQ(b.kind, Kind::numeric);
                        else
                            EXPECT_EQ(b.kind, Kind::fingerprint_only);
                        EXPECT_EQ(b.stats.nA, b.name == "model.out" ? 3u : 6u);
                        EXPECT_EQ(b.loggedA != nullptr, modeA == CaptureMode::hash);
                        EXPECT_EQ(b.loggedB != nullptr, modeB == CaptureMode::hash);
                    }
                    EXPECT_EQ(an.buffers[1].inputs, (std::vector<std::string>{"model.in"}));
                    EXPECT_EQ(an.verdict.firstDivergentStep,
                              changed ? std::optional<std::uint64_t>(2) : std::nullopt);
                }
                // Fingerprints on both sides read no file: nothing to keep, nothing read.
                const bool noBytes = modeA == CaptureMode::hash && modeB == CaptureMode::hash;
                EXPECT_EQ(cache->stats().hits, noBytes ? 0u : 9u);
                if (noBytes) {
                    EXPECT_EQ(cache->stats().entries, 0u);
                }
            }
}

TEST(FingerprintLog, AnotherTypeOrShapeThanTheLoggedOneIsADivergence) {
    TempDir dir;
    capture(dir / "a", CaptureMode::full, false);
    {
        Capture b(dir / "b", {CaptureMode::hash, std::nullopt, "t"});
        for (std::uint64_t step = 0; step < 3; ++step) {
            std::vector<float> in(6), mid(6), out(3);
            for (std::size_t i = 0; i < in.size(); ++i) {
                in[i] = static_cast<float>(i + step);
                mid[i] = in[i] * 2;
            }
            for (std::size_t i = 0; i < out.size(); ++i)
                out[i] = mid[2 * i] + mid[2 * i + 1];
            b.add("model.in", in.data(),
                  step == 1 ? std::vector<std::uint64_t>{3, 2} : std::vector<std::uint64_t>{2, 3});
            // The same bytes under another type.
            b.add("model.mid", mid.data(), step == 2 ? "i32" : "f32", {2, 3});
            b.add("model.out", out.data(), {3});
            b.step(step);
        }
    }
    const auto an = dumpscope::analyze(dir / "a", dir / "b");
    ASSERT_EQ(an.errorA + an.errorB, "");
    std::vector<std::string> divergent;
    for (const auto& b : an.buffers)
        if (b.status != Status::equal)
            divergent.push_back(std::to_string(b.step) + " " + b.name + " " +
                                std::string(dumpscope::kindName(b.kind)));
    EXPECT_EQ(divergent, (std::vector<std::string>{"1 model.in fingerprint_only",
                                                   "2 model.mid fingerprint_only"}));
}

} // namespace

namespace {

// A watcher lists runs without reading headers: step files stay whole, logged steps without
// files are still listed, and nothing is an error for want of a merge.
TEST(FingerprintLog, AListingWithoutHeadersKeepsStepFilesWholeAndListsLoggedSteps) {
    TempDir dir;
    capture(dir / "a", CaptureMode::full, false);
    capture(dir / "b", CaptureMode::hash, false);
    dumpscope::ScanOptions options;
    options.readHeaders = false;
    const auto full = dumpscope::scanRun(dir / "a", options);
    ASSERT_EQ(full.error, "");
    ASSERT_EQ(full.files.size(), 3u);
    for (const auto& [key, f] : full.files) {
        EXPECT_EQ(f.fileName, "step_" + std::to_string(key.step) + ".safetensors");
        EXPECT_EQ(f.error, "");
        EXPECT_FALSE(f.fingerprintOnly);
    }
    const auto hash = dumpscope::scanRun(dir / "b", options);
    ASSERT_EQ(hash.error, "");
    EXPECT_EQ(hash.files.size(), 9u);
}

// A watch lists a run without reading headers; the plan reads them. Both list the same files, so a
// watch can take the plan's listing as its first: a self-describing file once, with its own size,
// whatever it holds; a log-only step by its log; a .bin holding a tensor format as a file.
TEST(FingerprintLog, AScanListsTheRunAlikeWhetherOrNotItReadHeaders) {
    TempDir dir;
    capture(dir / "a", CaptureMode::full, false);
    capture(dir / "b", CaptureMode::hash, false);
    dumpscope::test::writeNpyFile(dir / "a" / "step_3_extra.bin", "<f4", "2,",
                                  std::vector<float>{1, 2}.data(), 8);
    dumpscope::test::writeArray(dir / "b" / "step_3_extra.bin", std::vector<float>{1, 2});
    dumpscope::ScanOptions headerless;
    headerless.readHeaders = false;
    const auto withA = dumpscope::scanRun(dir / "a"), withB = dumpscope::scanRun(dir / "b");
    const auto listing = dumpscope::pairListing(withA, withB);
    EXPECT_EQ(listing, dumpscope::pairListing(dumpscope::scanRun(dir / "a", headerless),
                                              dumpscope::scanRun(dir / "b", headerless)));
    ASSERT_EQ(listing.steps.size(), 4u);
    const auto& step1 = listing.steps.at(1);
    ASSERT_EQ(step1.a.size(), 1u); // three tensors, one file
    EXPECT_EQ(step1.a[0].name, "step_1.safetensors");
    EXPECT_EQ(step1.a[0].size, fs::file_size(dir / "a" / "step_1.safetensors"));
    ASSERT_EQ(step1.b.size(), 1u); // three fingerprints, one log
    EXPECT_EQ(step1.b[0].name, "dumpscope-fingerprints.jsonl");
    EXPECT_EQ(step1.b[0].size, fs::file_size(dir / "b" / "dumpscope-fingerprints.jsonl"));
    EXPECT_EQ(listing.steps.at(3).a.size(), 1u);
    // A scan asked for no listing keeps none: a plain compare has no use for it.
    dumpscope::ScanOptions unlisted;
    unlisted.listFiles = false;
    EXPECT_TRUE(dumpscope::scanRun(dir / "a", unlisted).listed.empty());
    EXPECT_TRUE(dumpscope::scanRun(dir / "b", unlisted).listed.empty());

    // The plan keeps that listing when asked, and only then.
    dumpscope::AnalyzeOptions options;
    options.keepListing = true;
    const auto before = std::chrono::steady_clock::now();
    const auto planned = dumpscope::plan(dir / "a", dir / "b", options);
    ASSERT_TRUE(planned.listing);
    EXPECT_EQ(*planned.listing, listing);
    EXPECT_GE(planned.listedAt, before);
    EXPECT_FALSE(dumpscope::plan(dir / "a", dir / "b").listing);
}

// Ranks that hold only their logs make a ranked run, each buffer under its own rank.
TEST(FingerprintLog, RankFoldersHoldingOnlyLogsAreARankedRun) {
    TempDir dir;
    for (std::uint64_t rank : {0u, 1u}) {
        Capture cap(dir / "a", {CaptureMode::hash, rank, "t"});
        std::vector<float> x(4, static_cast<float>(rank));
        cap.add("x", x.data(), {4});
        cap.step(7);
    }
    const auto scan = dumpscope::scanRun(dir / "a");
    ASSERT_EQ(scan.error, "");
    EXPECT_TRUE(scan.ranked);
    ASSERT_EQ(scan.files.size(), 2u);
    EXPECT_EQ(scan.files.at({7, "x", 1}).fileName, "rank1/dumpscope-fingerprints.jsonl");
    EXPECT_NE(scan.files.at({7, "x", 0}).fingerprint, scan.files.at({7, "x", 1}).fingerprint);
}

} // namespace

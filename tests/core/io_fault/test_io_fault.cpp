// A file that fails mid-way (EIO) and files that change while being compared, made
// real by the pread interposer (io_fault.h) — in the core, and in the real dumpscope-cli loaded
// with the same library through LD_PRELOAD.
#include "io_fault.h"

#include "run_fixture.h"

#include "dumpscope/analyze.h"
#include "dumpscope/buffer_view.h"
#include "dumpscope/diff_index.h"
#include "dumpscope/divergence_map.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <string_view>

using namespace dumpscope;
using namespace dumpscope::test;
namespace fs = std::filesystem;
namespace fault = dumpscope::test::io_fault;

namespace {

constexpr std::size_t kBigElements = 3 << 18; // 3 MiB of f32: several of the reader's chunks
constexpr std::uint64_t kFaultAt = 1'572'868; // 1.5 MiB + one element, not a chunk boundary

// The default-schema pair of run_fixture.h at steps 0 and 1, with step 1's q_logits 3 MiB long
// (equal but for element 7), and a 1-ULP divergence in step 0's grad_h_t_q.
struct BigPair {
    TempDir dir;
    BigPair() {
        writeRunPair(dir, {0, 1});
        std::vector<float> values(kBigElements);
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = float(i % 1000) / 8.0f;
        writeDump(dir / "a", 1, "h_q_logits", values);
        values[7] += 1.0f;
        writeDump(dir / "b", 1, "h_q_logits", values);
        perturb(dir, 0, "j_grad_h_t_q", 1);
    }
    fs::path file(const char* run) const { return dir / run / "step_1_h_q_logits.bin"; }
};

const BufferResult& find(const Analysis& an, std::uint64_t step, const std::string& name) {
    for (const auto& b : an.buffers)
        if (b.step == step && b.name == name) return b;
    throw std::runtime_error("no buffer " + name);
}

// Every buffer but step 1's q_logits: all compared, the planted 1-ULP difference found.
void expectTheRestCompared(const Analysis& an) {
    EXPECT_FALSE(an.cancelled);
    EXPECT_GT(an.buffers.size(), 40u);
    for (const auto& b : an.buffers) {
        if (b.step == 1 && b.name == "q_logits") continue;
        EXPECT_FALSE(b.pending) << b.fileName;
        EXPECT_EQ(b.status, b.step == 0 && b.name == "grad_h_t_q" ? Status::diverge : Status::equal)
            << b.fileName;
    }
}

// A buffer whose comparison was abandoned carries no statistics of the part that was read.
void expectNoStatistics(const BufferResult& b) {
    EXPECT_EQ(b.stats.nDiff, 0u);
    EXPECT_FALSE(b.stats.firstDiff.has_value());
    EXPECT_TRUE(b.stats.firstDiffs.empty());
    EXPECT_EQ(b.stats.hashA, 0u);
    EXPECT_EQ(b.stats.hashB, 0u);
}

class IoFault : public ::testing::Test {
  protected:
    void TearDown() override { fault::disarm(); }
};

// The real CLI with the interposer preloaded and armed through its environment.
ProcessResult faultyCli(const std::vector<std::string>& args, const std::string& faultSpec) {
    std::vector<std::string> argv{DUMPSCOPE_CLI_PATH};
    argv.insert(argv.end(), args.begin(), args.end());
    // ASan (the --sanitize build) insists on coming first in the library list; the preloaded
    // interposer is built with it, so that check is turned off for this child only.
    std::string asan = std::getenv("ASAN_OPTIONS") ? std::getenv("ASAN_OPTIONS") : "";
    ::setenv("ASAN_OPTIONS",
             (asan + (asan.empty() ? "" : ":") + "verify_asan_link_order=0").c_str(), 1);
    auto r = runProcess(argv, {std::string("LD_PRELOAD=") + DUMPSCOPE_IO_FAULT_LIB,
                               "DUMPSCOPE_IO_FAULT=" + faultSpec});
    ::setenv("ASAN_OPTIONS", asan.c_str(), 1);
    return r;
}

nlohmann::json jsonBuffer(const nlohmann::json& report, std::uint64_t step,
                          const std::string& name) {
    for (const auto& s : report["steps"])
        if (s["step"] == step)
            for (const auto& g : s["groups"])
                for (const auto& b : g["buffers"])
                    if (b["name"] == name) return b;
    return nullptr;
}

} // namespace

TEST_F(IoFault, TheInterposerForwardsWhatItIsNotArmedFor) {
    BigPair pair;
    const Analysis clean = analyze(pair.dir / "a", pair.dir / "b");
    expectTheRestCompared(clean);
    const auto& q = find(clean, 1, "q_logits");
    EXPECT_EQ(q.status, Status::diverge);
    EXPECT_EQ(q.stats.nDiff, 1u);

    // Armed on another file, nothing changes.
    fault::arm(pair.dir / "a" / "step_9_nothing.bin", 0, fault::Action::eio);
    const Analysis again = analyze(pair.dir / "a", pair.dir / "b");
    EXPECT_FALSE(fault::fired());
    EXPECT_EQ(find(again, 1, "q_logits").stats.hashA, q.stats.hashA);
}

TEST_F(IoFault, AReadErrorMidFileIsThatBuffersErrorNamingFileAndOffset) {
    for (const char* run : {"a", "b"}) {
        BigPair pair;
        fault::arm(pair.file(run), kFaultAt, fault::Action::eio);
        const Analysis an = analyze(pair.dir / "a", pair.dir / "b");
        ASSERT_TRUE(fault::fired());
        const auto& q = find(an, 1, "q_logits");
        EXPECT_EQ(q.status, Status::error);
        EXPECT_EQ(q.error, pair.file(run).string() + ": read error at byte " +
                               std::to_string(kFaultAt) + ": Input/output error");
        expectNoStatistics(q);
        expectTheRestCompared(an);
        EXPECT_EQ(an.verdict.exitCode, 2);
        ASSERT_TRUE(an.verdict.firstDivergentStep.has_value());
        EXPECT_EQ(*an.verdict.firstDivergentStep, 0u);
    }
}

TEST_F(IoFault, AFileUnreadableFromItsFirstByteIsAnErrorToo) {
    BigPair pair;
    const fs::path small = pair.dir / "b" / "step_1_h_v_pred.bin";
    fault::arm(small, 0, fault::Action::eio);
    const Analysis an = analyze(pair.dir / "a", pair.dir / "b");
    const auto& v = find(an, 1, "v_pred");
    EXPECT_EQ(v.status, Status::error);
    EXPECT_EQ(v.error, small.string() + ": read error at byte 0: Input/output error");
    EXPECT_EQ(find(an, 1, "q_logits").status, Status::diverge);
}

TEST_F(IoFault, TheCliReportsTheReadErrorAndComparesTheRest) {
    BigPair pair;
    const std::string spec = fault::environmentValue(pair.file("b"), kFaultAt, fault::Action::eio);
    const std::string a = (pair.dir / "a").string(), b = (pair.dir / "b").string();
    const std::string message = pair.file("b").string() + ": read error at byte " +
                                std::to_string(kFaultAt) + ": Input/output error";

    const auto json = faultyCli({a, b, "--json"}, spec);
    EXPECT_EQ(json.exitCode, 2) << json.err;
    const auto report = nlohmann::json::parse(json.out);
    const auto q = jsonBuffer(report, 1, "q_logits");
    EXPECT_EQ(q["status"], "error");
    EXPECT_EQ(q["error"], message);
    EXPECT_EQ(q["n_diff"], 0);
    EXPECT_TRUE(q["first_diffs"].empty());
    EXPECT_EQ(jsonBuffer(report, 0, "grad_h_t_q")["status"], "diverge");
    EXPECT_EQ(jsonBuffer(report, 1, "pi_logits")["status"], "equal");
    EXPECT_EQ(report["first_divergent_step"], 0);
    EXPECT_EQ(report["exit_code"], 2);

    const auto text = faultyCli({a, b}, spec);
    EXPECT_EQ(text.exitCode, 2);
    EXPECT_NE(text.err.find(message), std::string::npos) << text.err;
    EXPECT_NE(text.out.find("grad_h_t_q [f32] DIVERGE"), std::string::npos) << text.out;
}

// The window reads the dumps again through BufferView (the element table, the diff index, the
// divergence map). A read failing there names the file and the byte, in the words of
// compareFiles, whichever way the view reads: a range, one element's page, a scan of the pair.
TEST_F(IoFault, ABufferViewReadErrorMidFileNamesFileAndOffsetAsTheComparisonDoes) {
    for (const char* run : {"a", "b"}) {
        SCOPED_TRACE(run);
        BigPair pair;
        const std::string message = pair.file(run).string() + ": read error at byte " +
                                    std::to_string(kFaultAt) + ": Input/output error";
        BufferView va, vb;
        ASSERT_TRUE(va.open(pair.file("a"), DType::f32)) << va.error();
        ASSERT_TRUE(vb.open(pair.file("b"), DType::f32)) << vb.error();
        const BufferView& failing = std::string_view(run) == "a" ? va : vb;
        fault::arm(pair.file(run), kFaultAt, fault::Action::eio);

        std::vector<unsigned char> out(kBigElements * 4);
        std::string error;
        EXPECT_EQ(failing.readRaw(0, kBigElements, out.data(), &error), 0u);
        ASSERT_TRUE(fault::fired());
        EXPECT_EQ(error, message);

        error.clear();
        EXPECT_FALSE(failing.bits(kFaultAt / 4, &error).has_value()); // the element at the byte
        EXPECT_EQ(error, message);
        error.clear();
        EXPECT_TRUE(failing.bits(0, &error).has_value()); // a page before it still reads
        EXPECT_EQ(error, "");

        const auto keepGoing = [](const unsigned char*, const unsigned char*, std::size_t,
                                  std::uint64_t) { return true; };
        EXPECT_EQ(forEachChunkPair(va, vb, kBigElements, 1 << 16, keepGoing), message);
        EXPECT_FALSE(DiffIndex::build(va, vb, {}, {}, &error).has_value());
        EXPECT_EQ(error, message);
        EXPECT_EQ(computeDivergenceMap(pair.file("a"), pair.file("b"), DType::f32, {}).error,
                  message);
        EXPECT_EQ(compareFiles(pair.file("a"), pair.file("b"), DType::f32).error, message);
    }
}

// A file truncated under the view: the range stops at the new end, and the message says where,
// as compareFiles says it of the same truncation.
TEST_F(IoFault, ABufferViewOfAFileThatShrinksSaysWhereItEnded) {
    BigPair pair;
    BufferView view;
    ASSERT_TRUE(view.open(pair.file("b"), DType::f32)) << view.error();
    fault::arm(pair.file("b"), kFaultAt, fault::Action::shrink);
    std::vector<unsigned char> out(kBigElements * 4);
    std::string error;
    EXPECT_EQ(view.readRaw(0, kBigElements, out.data(), &error), kFaultAt / 4);
    ASSERT_TRUE(fault::fired());
    EXPECT_EQ(error, pair.file("b").string() + ": ended at byte " + std::to_string(kFaultAt) +
                         " while being read (expected 3145728)");
    EXPECT_EQ(view.changedSinceOpen(), pair.file("b").string() +
                                           ": changed while being read (size 3145728 -> " +
                                           std::to_string(kFaultAt) + " bytes)");
}

// A job still dumping: the file grows, shrinks or is rewritten in place (only its modification
// time shows it) while dumpscope is half-way through it.
TEST_F(IoFault, AFileChangedWhileBeingComparedIsReportedNotMixed) {
    struct Case {
        fault::Action action;
        const char* run;
        std::string why;
    };
    const std::vector<Case> cases{
        {fault::Action::grow, "a", "changed while being read (size 3145728 -> 3149824 bytes)"},
        {fault::Action::shrink, "b", "ended at byte 1572868 while being read (expected 3145728)"},
        {fault::Action::touch, "a", "changed while being read (modification time moved)"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(std::string(fault::actionName(c.action)));
        BigPair pair;
        const auto sizeBefore = fs::file_size(pair.file(c.run));
        const auto timeBefore = fs::last_write_time(pair.file(c.run));
        fault::arm(pair.file(c.run), kFaultAt, c.action);
        const Analysis an = analyze(pair.dir / "a", pair.dir / "b");
        ASSERT_TRUE(fault::fired());
        // The file really changed under the comparison.
        EXPECT_TRUE(fs::file_size(pair.file(c.run)) != sizeBefore ||
                    fs::last_write_time(pair.file(c.run)) != timeBefore);
        const auto& q = find(an, 1, "q_logits");
        EXPECT_EQ(q.status, Status::changed_while_reading);
        EXPECT_EQ(q.error, pair.file(c.run).string() + ": " + c.why);
        expectNoStatistics(q);
        expectTheRestCompared(an);
        EXPECT_EQ(an.verdict.exitCode, 2);
    }
}

TEST_F(IoFault, TheCliReportsAFileChangedWhileBeingCompared) {
    for (auto action : {fault::Action::grow, fault::Action::shrink, fault::Action::touch}) {
        SCOPED_TRACE(std::string(fault::actionName(action)));
        BigPair pair;
        const auto r = faultyCli({(pair.dir / "a").string(), (pair.dir / "b").string(), "--json"},
                                 fault::environmentValue(pair.file("b"), kFaultAt, action));
        EXPECT_EQ(r.exitCode, 2) << r.err;
        const auto report = nlohmann::json::parse(r.out);
        const auto q = jsonBuffer(report, 1, "q_logits");
        EXPECT_EQ(q["status"], "changed_while_reading");
        EXPECT_NE(q["error"].get<std::string>().find(pair.file("b").string() + ": "),
                  std::string::npos)
            << q["error"];
        EXPECT_EQ(q["n_diff"], 0);
        EXPECT_EQ(q["kind"], nullptr);
        EXPECT_EQ(jsonBuffer(report, 0, "grad_h_t_q")["status"], "diverge");
    }
}

// The culprit's dump fails to read (as root too, where chmod 000 would not stop it): its group
// is not judged, and the group it feeds is not blamed in its place.
TEST_F(IoFault, AnUnreadableCulpritLeavesItsGroupNotJudgedAndTheRootCauseOpen) {
    TempDir dir;
    writeRunPair(dir, {0, 1});
    perturb(dir, 1, "h_q_logits");
    perturb(dir, 1, "j_grad_h_t_q");
    const fs::path culprit = dir / "b" / "step_1_h_q_logits.bin";

    fault::arm(culprit, 0, fault::Action::eio);
    const Analysis an = analyze(dir / "a", dir / "b");
    ASSERT_TRUE(fault::fired());
    fault::disarm();
    EXPECT_EQ(find(an, 1, "q_logits").status, Status::error);
    ASSERT_EQ(an.verdict.culprits.size(), 5u);
    const CulpritRow& h = an.verdict.culprits[1];
    EXPECT_TRUE(notJudged(h));
    ASSERT_EQ(h.unjudged.size(), 1u);
    EXPECT_EQ(h.unjudged[0].status, Status::error);
    EXPECT_TRUE(an.verdict.rootCause.groups.empty());
    EXPECT_EQ(an.verdict.rootCause.undecidedGroups, std::vector<std::string>{"J"});
    EXPECT_EQ(an.verdict.rootCause.unjudgedInputs, std::vector<std::string>{"H"});

    const auto text = faultyCli({(dir / "a").string(), (dir / "b").string(), "--quiet"},
                                fault::environmentValue(culprit, 0, fault::Action::eio));
    EXPECT_EQ(text.exitCode, 2) << text.err;
    EXPECT_NE(text.out.find("  Group H (head fwd outputs): NOT JUDGED — q_logits unreadable\n"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("ROOT CAUSE by dataflow (step 1): not determined: an input could "
                            "not be judged\n"),
              std::string::npos)
        << text.out;
    EXPECT_EQ(text.out.find("ROOT CAUSE by dataflow (step 1): group J"), std::string::npos)
        << text.out;
}

// Unit tests of the reference-compatible mode: Python's text forms, and runReferenceCompat on
// dumps written to a temp dir. Expected strings were taken from Python 3.11 (repr, format,
// pathlib) and from the reference script's f-strings; the byte-for-byte comparison against
// the script itself is tests/cli/test_parity.cpp.
#include "dumpscope/reference_text.h"
#include "reference_compat.h"

#include "test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace dumpscope {
namespace {

namespace fs = std::filesystem;
using test::TempDir;
using test::writeDump;

TEST(PythonFloatRepr, ShortestRoundTripInPythonsLayout) {
    EXPECT_EQ(pythonFloatRepr(0.1), "0.1");
    EXPECT_EQ(pythonFloatRepr(1.0), "1.0");
    EXPECT_EQ(pythonFloatRepr(100.0), "100.0");
    EXPECT_EQ(pythonFloatRepr(2.5), "2.5");
    EXPECT_EQ(pythonFloatRepr(0.0), "0.0");
    EXPECT_EQ(pythonFloatRepr(-0.0), "-0.0");
    EXPECT_EQ(pythonFloatRepr(0.00012345), "0.00012345");
    EXPECT_EQ(pythonFloatRepr(-2.75), "-2.75");
}

TEST(PythonFloatRepr, ExponentBelowMinusFourOrFromSixteen) {
    EXPECT_EQ(pythonFloatRepr(0.0001), "0.0001"); // exponent -4: still positional
    EXPECT_EQ(pythonFloatRepr(0.00005), "5e-05");
    EXPECT_EQ(pythonFloatRepr(1e-5), "1e-05");
    EXPECT_EQ(pythonFloatRepr(1e15), "1000000000000000.0");
    EXPECT_EQ(pythonFloatRepr(9999999999999998.0), "9999999999999998.0");
    EXPECT_EQ(pythonFloatRepr(1e16), "1e+16");
    EXPECT_EQ(pythonFloatRepr(1.5e16), "1.5e+16");
    EXPECT_EQ(pythonFloatRepr(123456789012345678.0), "1.2345678901234568e+17");
    EXPECT_EQ(pythonFloatRepr(1e22), "1e+22");
    EXPECT_EQ(pythonFloatRepr(5e-324), "5e-324");
    EXPECT_EQ(pythonFloatRepr(-1e-300), "-1e-300");
}

TEST(PythonFloatRepr, Float32ValuesWidenedToDouble) {
    EXPECT_EQ(pythonFloatRepr(static_cast<double>(0.1f)), "0.10000000149011612");
    EXPECT_EQ(pythonFloatRepr(static_cast<double>(1e-5f)), "9.999999747378752e-06");
    EXPECT_EQ(pythonFloatRepr(static_cast<double>(std::numeric_limits<float>::max())),
              "3.4028234663852886e+38");
    EXPECT_EQ(pythonFloatRepr(static_cast<double>(std::numeric_limits<float>::denorm_min())),
              "1.401298464324817e-45");
}

TEST(PythonFloatRepr, NonFinite) {
    EXPECT_EQ(pythonFloatRepr(std::numeric_limits<double>::infinity()), "inf");
    EXPECT_EQ(pythonFloatRepr(-std::numeric_limits<double>::infinity()), "-inf");
    EXPECT_EQ(pythonFloatRepr(std::numeric_limits<double>::quiet_NaN()), "nan");
    EXPECT_EQ(pythonFloatRepr(-std::numeric_limits<double>::quiet_NaN()), "nan");
}

TEST(PythonFormatG6, MatchesPythonFormatSpec) {
    EXPECT_EQ(pythonFormatG6(0.0), "0");
    EXPECT_EQ(pythonFormatG6(-0.0), "-0");
    EXPECT_EQ(pythonFormatG6(1.0), "1");
    EXPECT_EQ(pythonFormatG6(0.1), "0.1");
    EXPECT_EQ(pythonFormatG6(1e15), "1e+15");
    EXPECT_EQ(pythonFormatG6(123456.0), "123456");
    EXPECT_EQ(pythonFormatG6(1234567.0), "1.23457e+06");
    EXPECT_EQ(pythonFormatG6(0.0001), "0.0001");
    EXPECT_EQ(pythonFormatG6(0.00005), "5e-05");
    EXPECT_EQ(pythonFormatG6(5e-324), "4.94066e-324");
    EXPECT_EQ(pythonFormatG6(static_cast<double>(std::numeric_limits<float>::max())),
              "3.40282e+38");
    EXPECT_EQ(pythonFormatG6(4294967295.0), "4.29497e+09");
    EXPECT_EQ(pythonFormatG6(std::numeric_limits<double>::infinity()), "inf");
    EXPECT_EQ(pythonFormatG6(-std::numeric_limits<double>::quiet_NaN()), "nan");
}

TEST(PythonPathStr, NormalisesLikePathlib) {
    EXPECT_EQ(pythonPathStr(""), ".");
    EXPECT_EQ(pythonPathStr("."), ".");
    EXPECT_EQ(pythonPathStr("./"), ".");
    EXPECT_EQ(pythonPathStr("a/"), "a");
    EXPECT_EQ(pythonPathStr("a//b"), "a/b");
    EXPECT_EQ(pythonPathStr("./a/./b/"), "a/b");
    EXPECT_EQ(pythonPathStr("a/."), "a");
    EXPECT_EQ(pythonPathStr(".a/"), ".a");
    EXPECT_EQ(pythonPathStr("a/../b"), "a/../b");
    EXPECT_EQ(pythonPathStr(".."), "..");
    EXPECT_EQ(pythonPathStr("/"), "/");
    EXPECT_EQ(pythonPathStr("//"), "//");
    EXPECT_EQ(pythonPathStr("///"), "/");
    EXPECT_EQ(pythonPathStr("//a//"), "//a");
    EXPECT_EQ(pythonPathStr("///a"), "/a");
    EXPECT_EQ(pythonPathStr("/./a"), "/a");
}

TEST(PythonStrRepr, QuotesAndEscapesLikePython) {
    EXPECT_EQ(pythonStrRepr("q_logits"), "'q_logits'");
    EXPECT_EQ(pythonStrRepr("it's"), "\"it's\"");
    EXPECT_EQ(pythonStrRepr("a'b\"c"), "'a\\'b\"c'");
    EXPECT_EQ(pythonStrRepr("tab\there\\"), "'tab\\there\\\\'");
    EXPECT_EQ(pythonStrRepr(std::string("nul\0\x7f", 5)), "'nul\\x00\\x7f'");
    EXPECT_EQ(pythonStrRepr("Δ"), "'Δ'");
}

// Expectations from Python 3.11: repr(b.decode('utf-8', 'surrogateescape')).
TEST(PythonStrRepr, NonPrintableAndNonUtf8) {
    EXPECT_EQ(pythonStrRepr("\xc2\x85\xc2\xa0\xc2\xad\xe2\x80\xa8\xee\x80\x80\xf3\xb0\x80\x80"
                            "\xe2\x80\x8b\xe3\x80\x80\xef\xbb\xbfok\xc3\xa9"),
              "'\\x85\\xa0\\xad\\u2028\\ue000\\U000f0000\\u200b\\u3000\\ufeffok\xc3\xa9'");
    EXPECT_EQ(pythonStrRepr("x\xff\xe2\x82y\xed\xa0\x80\xc0\x80\xf4\x90\x80\x80"),
              "'x\\udcff\\udce2\\udc82y\\udced\\udca0\\udc80\\udcc0\\udc80"
              "\\udcf4\\udc90\\udc80\\udc80'");
    EXPECT_EQ(pythonStrRepr("\xf0\x9f\x98\x80"), "'\xf0\x9f\x98\x80'"); // U+1F600 is printable
}

TEST(PythonStderrText, EscapesOnlyBytesThatAreNotUtf8) {
    EXPECT_EQ(pythonStderrText("runs/a"), "runs/a");
    EXPECT_EQ(pythonStderrText("a\xff"), "a\\udcff");
    EXPECT_EQ(pythonStderrText("nope\xe2\x82x"), "nope\\udce2\\udc82x");
    EXPECT_EQ(pythonStderrText("\xc2\xa0\xce\x94"), "\xc2\xa0\xce\x94"); // valid: passed through
}

// Runs the mode on two directories and keeps what it wrote.
struct CompatRun {
    int code = -1;
    std::string out, err;
};
CompatRun run(const std::string& a, const std::string& b) {
    std::ostringstream out, err;
    CompatRun r;
    r.code = runReferenceCompat(a, b, out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}
bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

class ReferenceCompatRun : public ::testing::Test {
  protected:
    TempDir tmp;
    fs::path a = tmp / "a";
    fs::path b = tmp / "b";
    void SetUp() override {
        fs::create_directories(a);
        fs::create_directories(b);
    }
};

TEST_F(ReferenceCompatRun, MissingRunDirGoesToStderrWithExitTwo) {
    const auto r = run(a.string() + "/", (tmp / "nope").string() + "//");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err,
              "ERROR: run dirs missing: " + a.string() + " or " + (tmp / "nope").string() + "\n");
}

TEST_F(ReferenceCompatRun, MissingADoesNotLookAtB) {
    const std::string overlong(5000, 'y'); // stat() on it fails with ENAMETOOLONG
    const auto r = run((tmp / "nope").string(), overlong);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err,
              "ERROR: run dirs missing: " + (tmp / "nope").string() + " or " + overlong + "\n");
}

TEST_F(ReferenceCompatRun, UncaughtOSErrorExitsOneWithPythonsLastTracebackLine) {
    const std::string overlong(5000, 'x');
    const auto r = run(a.string(), overlong);
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "OSError: [Errno 36] File name too long: '" + overlong + "'\n");
}

TEST_F(ReferenceCompatRun, UnreadableDumpIsAPermissionErrorAfterWhatWasPrinted) {
    if (::geteuid() == 0) GTEST_SKIP() << "running as root: permissions are not enforced";
    writeDump(a, 0, "g_sampled_h_t", std::vector<float>{1.0f});
    writeDump(b, 0, "g_sampled_h_t", std::vector<float>{1.0f});
    test::writeText(b / "step_0_g_sampled_h_t.bin", "abcde"); // ragged, but A fails first
    fs::permissions(a / "step_0_g_sampled_h_t.bin", fs::perms::none);
    const auto r = run(a.string(), b.string());
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.out, "=== step 0 ===\n  -- group G (PER replay sample) --\n");
    EXPECT_EQ(r.err, "PermissionError: [Errno 13] Permission denied: '" + a.string() +
                         "/step_0_g_sampled_h_t.bin'\n");
}

TEST_F(ReferenceCompatRun, EmptyRunsPrintEverySkipAndTheAllEqualVerdict) {
    const auto r = run(a.string(), b.string());
    EXPECT_EQ(r.code, 0);
    std::string expected;
    for (int step = 0; step <= 3; ++step) {
        expected += "=== step " + std::to_string(step) + " ===\n";
        for (const char* label :
             {"G (PER replay sample)", "H (head fwd outputs)", "I (pre-reduce grad scratch)",
              "J (per-head grad_h_t)", "K (outcome head inputs)"})
            expected += std::string("  -- group ") + label +
                        " --\n    SKIP — no buffers dumped for this group/step\n";
        expected += "  SKIP — no buffers dumped for this step\n";
    }
    expected += "\n" + std::string(reference_text::allEqual()) + "\n";
    EXPECT_EQ(r.out, expected);
    EXPECT_EQ(r.err, "");
}

TEST_F(ReferenceCompatRun, ValueEqualityNanDivergesSignedZeroMatches) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    writeDump(a, 0, "h_v_pred", std::vector<float>{nan, 1.0f});
    writeDump(b, 0, "h_v_pred", std::vector<float>{nan, 1.0f});
    writeDump(a, 0, "h_q_logits", std::vector<float>{0.0f, -0.0f});
    writeDump(b, 0, "h_q_logits", std::vector<float>{-0.0f, 0.0f});
    const auto r = run(a.string(), b.string());
    EXPECT_EQ(r.code, 1);
    EXPECT_TRUE(contains(r.out, "    q_logits: EQUAL (2 elements)\n")) << r.out;
    EXPECT_TRUE(contains(
        r.out, "    v_pred: DIVERGE at idx 0 max|Δ|=0 (showing up to 3): [0]: A=nan B=nan\n"))
        << r.out;
    EXPECT_TRUE(contains(r.out, "  diverged group(s): ['H (head fwd outputs)']\n")) << r.out;
    EXPECT_TRUE(contains(r.out, "  Group H (head fwd outputs): DIVERGE in ['v_pred']\n"));
    EXPECT_TRUE(contains(r.out, "  Group G (PER replay sample): (no dump)\n"));
    EXPECT_TRUE(contains(r.out, std::string(reference_text::hWithoutG()) + "\n"));
}

TEST_F(ReferenceCompatRun, MaxDeltaOnlyOverTheFirstFiveDifferences) {
    writeDump(a, 2, "j_grad_h_t_q", std::vector<float>(8, 0.0f));
    writeDump(b, 2, "j_grad_h_t_q", std::vector<float>{0.5f, 0.25f, 1, 1, 1, 1000, 0, 0});
    const auto r = run(a.string(), b.string());
    EXPECT_EQ(r.code, 1);
    EXPECT_TRUE(contains(r.out, "    grad_h_t_q: DIVERGE at idx 0 max|Δ|=1 (showing up to 3): "
                                "[0]: A=0.0 B=0.5, [1]: A=0.0 B=0.25, [2]: A=0.0 B=1.0\n"))
        << r.out;
    EXPECT_TRUE(contains(r.out, "VERDICT (first divergent step = 2):\n"));
    EXPECT_TRUE(contains(r.out, std::string(reference_text::jWithoutI()) + "\n" +
                                    std::string(reference_text::crossCheck()) + "\n"));
}

TEST_F(ReferenceCompatRun, Int32ValuesPrintAsIntsAndDeltaInDouble) {
    const auto lo = std::numeric_limits<std::int32_t>::min();
    const auto hi = std::numeric_limits<std::int32_t>::max();
    writeDump(a, 1, "g_sampled_actions", std::vector<std::int32_t>{7, lo});
    writeDump(b, 1, "g_sampled_actions", std::vector<std::int32_t>{7, hi});
    const auto r = run(a.string(), b.string());
    EXPECT_EQ(r.code, 1);
    EXPECT_TRUE(contains(r.out, "    sampled_actions: DIVERGE at idx 1 max|Δ|=4.29497e+09 "
                                "(showing up to 3): [1]: A=-2147483648 B=2147483647\n"))
        << r.out;
    EXPECT_TRUE(contains(r.out, std::string(reference_text::gOnly()) + "\n"));
    EXPECT_FALSE(contains(r.out, "Cross-check")); // subcase (1) returns before it
}

TEST_F(ReferenceCompatRun, StreamsPastTheChunkSizeAndCountsAllElements) {
    std::vector<float> values(100000);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = static_cast<float>(i);
    writeDump(a, 0, "i_cfc_grad_b_scratch", values);
    writeDump(b, 0, "i_cfc_grad_b_scratch", values);
    writeDump(a, 0, "i_cfc_grad_tau_scratch", values);
    values[70000] = 1.0f;
    writeDump(b, 0, "i_cfc_grad_tau_scratch", values);
    const auto r = run(a.string(), b.string());
    EXPECT_TRUE(contains(r.out, "    cfc_grad_b_scratch: EQUAL (100000 elements)\n")) << r.out;
    EXPECT_TRUE(contains(r.out, "    cfc_grad_tau_scratch: DIVERGE at idx 70000 max|Δ|=69999 "
                                "(showing up to 3): [70000]: A=70000.0 B=1.0\n"))
        << r.out;
}

TEST_F(ReferenceCompatRun, RaggedFileStopsWithExitTwoNamingThePathAsPathlibPrintsIt) {
    writeDump(a, 0, "g_sampled_h_t", std::vector<float>{1.0f});
    writeDump(b, 0, "g_sampled_h_t", std::vector<float>{1.0f});
    writeDump(a, 1, "h_q_logits", std::vector<float>{1.0f});
    test::writeText(b / "step_1_h_q_logits.bin", "12345");
    writeDump(a, 2, "h_q_logits", std::vector<float>{1.0f});
    writeDump(b, 2, "h_q_logits", std::vector<float>{2.0f});
    const auto r = run(a.string(), b.string() + "//./");
    EXPECT_EQ(r.code, 2);
    const std::string tail = "    ERROR reading q_logits: " + b.string() +
                             "/step_1_h_q_logits.bin: size 5 not a multiple of 4\n";
    ASSERT_GE(r.out.size(), tail.size());
    EXPECT_EQ(r.out.substr(r.out.size() - tail.size()), tail) << r.out;
    EXPECT_FALSE(contains(r.out, "=== step 2 ==="));
}

TEST_F(ReferenceCompatRun, LengthMismatchAndOneSidedBuffers) {
    writeDump(a, 3, "k_outcome_w", std::vector<float>{1, 2, 3});
    writeDump(b, 3, "k_outcome_w", std::vector<float>{1, 2});
    writeDump(a, 3, "k_outcome_b", std::vector<float>{1}); // only in A: silently skipped
    writeDump(b, 5, "k_outcome_b", std::vector<float>{9}); // step beyond 3: never looked at
    const auto r = run(a.string(), b.string());
    EXPECT_EQ(r.code, 1);
    EXPECT_TRUE(contains(r.out, "    outcome_w: length mismatch A=3 B=2\n")) << r.out;
    EXPECT_FALSE(contains(r.out, "outcome_b"));
    EXPECT_TRUE(contains(r.out, "  Group K (outcome head inputs): DIVERGE in ['outcome_w']\n"));
    EXPECT_TRUE(contains(r.out, std::string(reference_text::unexpected()) + "\n"));
}

TEST_F(ReferenceCompatRun, FifosAndDirectoriesAreNotFilesButSymlinksAreFollowed) {
    ASSERT_EQ(::mkfifo((a / "step_0_h_v_pred.bin").c_str(), 0600), 0);
    ASSERT_EQ(::mkfifo((b / "step_0_h_v_pred.bin").c_str(), 0600), 0);
    fs::create_directory(a / "step_0_h_pi_logits.bin");
    fs::create_directory(b / "step_0_h_pi_logits.bin");
    writeDump(tmp.path(), 9, "target", std::vector<float>{4.0f});
    fs::create_symlink(tmp / "step_9_target.bin", a / "step_0_h_q_logits.bin");
    writeDump(b, 0, "h_q_logits", std::vector<float>{4.0f});
    const auto r = run(a.string(), b.string()); // must not block on the FIFOs
    EXPECT_EQ(r.code, 0);
    EXPECT_TRUE(contains(r.out, "  -- group H (head fwd outputs) --\n"
                                "    q_logits: EQUAL (1 elements)\n"
                                "  -- group I"))
        << r.out;
}

TEST_F(ReferenceCompatRun, GroupsIJWithGBlameIAndPrintSortedLabels) {
    for (const auto* rest : {"j_grad_h_t_v", "i_vsn_grad_w_scratch", "g_sampled_dones"}) {
        writeDump(a, 1, rest, std::vector<float>{1.0f});
        writeDump(b, 1, rest, std::vector<float>{1.5f});
    }
    const auto r = run(a.string(), b.string());
    EXPECT_EQ(r.code, 1);
    EXPECT_TRUE(contains(r.out, "  diverged group(s): ['G (PER replay sample)', "
                                "'I (pre-reduce grad scratch)', 'J (per-head grad_h_t)']\n"))
        << r.out;
    EXPECT_TRUE(contains(r.out, "  Group H (head fwd outputs): (no dump)\n"));
    EXPECT_TRUE(contains(r.out, "Next-step interpretation (per Phase 2.6 decision tree):\n" +
                                    std::string(reference_text::iDiverges()) + "\n" +
                                    std::string(reference_text::crossCheck()) + "\n"));
}

} // namespace
} // namespace dumpscope

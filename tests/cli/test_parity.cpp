// Parity with compare-backward-state.py: for every case a run pair is written to a temp dir,
// the reference script and the real dumpscope-cli both run on it, and
//  - `--reference-compat` must reproduce the script's stdout, stderr and exit code byte for byte;
//  - the default mode's exit code, first divergent step and groups must equal the script's
//    where the two semantics agree, and show the documented difference where they do not.
// Adding a case is one line in kCases (plus its builder when no existing one fits).
#include "parity_support.h"

#include "reference_compat.h"

#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace dumpscope::parity {
namespace {

using nlohmann::json;
using test::ProcessResult;

// How the default mode relates to the reference on a case.
enum class Semantics {
    agree,          // same exit code, first divergent step and groups
    nanBits,        // identical NaN bits: reference diverges, dumpscope equal
    signedZero,     // +0 vs -0: reference equal, dumpscope diverges
    beyondStep3,    // the reference never looks past step 3
    oneSided,       // the reference skips the buffer; dumpscope reports only_in_a / only_in_b
    nonRegular,     // FIFOs named like dumps: skipped by both, dumpscope also warns
    maxAfterFive,   // agree on the verdict; dumpscope's max|Δ| covers every element
    ragged,         // reference stops with 2; dumpscope marks the buffer error, goes on, exits 2
    missingDir,     // both exit 2
    referenceCrash, // an OSError kills the script (exit 1); dumpscope reports the run dir, exits 2
    unclassifiedEqual,  // agree; dumpscope lists the files the reference ignores
    unclassifiedDiffer, // reference 0; dumpscope exit 1 (runs not identical) but no step, no group
    noDumps,            // reference 0 ("all match"); dumpscope: nothing compared, exit 2
};

// Where the script dies with a traceback, only its last line can be reproduced: the frames
// name the interpreter's own files and lines.
enum class Stderr { exact, lastLineOfTraceback };

struct ParityCase {
    const char* name;
    std::function<void(Pair&)> build;
    Semantics semantics = Semantics::agree;
    Stderr stderrMatch = Stderr::exact;
};

// Names the case in failure messages instead of dumping its bytes.
void PrintTo(const ParityCase& c, std::ostream* os) {
    *os << c.name;
}

const float kNan = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

// Steps 0-3 all present and equal: the base most cases perturb.
void fullRun(Pair& p) {
    for (std::uint64_t s = 0; s <= 3; ++s)
        writeFullStep(p, s);
}
// Base plus a value divergence in each listed buffer at `step`.
std::function<void(Pair&)> divergeAt(std::uint64_t step, std::vector<std::string> rests) {
    return [step, rests](Pair& p) {
        fullRun(p);
        for (const auto& r : rests)
            nudgeB(p, step, r);
    };
}

const std::vector<ParityCase> kCases = {
    {"all_equal", fullRun},
    {"g_only", divergeAt(2, {"g_sampled_h_t", "g_sampled_actions"})},
    {"h_without_g", divergeAt(1, {"h_q_logits"})},
    {"i_only", divergeAt(0, {"i_cfc_grad_w_in_scratch", "i_grad_ln_b_bias_per_row"})},
    {"j_without_i", divergeAt(3, {"j_grad_h_t_combined"})},
    {"i_and_j", divergeAt(1, {"j_grad_h_t_q", "i_attn_grad_q_scratch"})},
    {"g_and_h", divergeAt(0, {"g_sampled_rewards", "h_v_pred"})},
    {"g_i_j", divergeAt(1, {"g_sampled_dones", "i_vsn_grad_b_scratch", "j_grad_h_t_pi"})},
    {"h_k", divergeAt(2, {"h_iqn_q_values", "k_outcome_labels"})},
    {"k_only", divergeAt(2, {"k_outcome_w"})},
    {"first_step_wins",
     [](Pair& p) { // H at step 1, G at step 2: the verdict is step 1's
         fullRun(p);
         nudgeB(p, 1, "h_pi_logits");
         nudgeB(p, 2, "g_sampled_h_tp1");
     }},
    {"nan_one_side",
     [](Pair& p) {
         fullRun(p);
         setBFloat(p, 2, "h_v_pred", 5, kNan);
     }},
    {"inf_values",
     [](Pair& p) { // inf == inf; inf vs -inf gives max|Δ|=inf
         fullRun(p);
         test::writeDump(p.a, 1, "j_grad_h_t_v", std::vector<float>{kInf, kInf, 1.0f});
         test::writeDump(p.b, 1, "j_grad_h_t_v", std::vector<float>{kInf, -kInf, 1.0f});
     }},
    {"int32_extremes",
     [](Pair& p) {
         fullRun(p);
         test::writeDump(p.a, 0, "g_sampled_actions",
                         std::vector<std::int32_t>{INT32_MIN, 0, INT32_MAX});
         test::writeDump(p.b, 0, "g_sampled_actions",
                         std::vector<std::int32_t>{INT32_MAX, 0, INT32_MIN});
     }},
    {"nan_identical_bits",
     [](Pair& p) {
         fullRun(p);
         test::writeDump(p.a, 1, "h_q_logits", std::vector<float>{kNan, 2.0f});
         test::writeDump(p.b, 1, "h_q_logits", std::vector<float>{kNan, 2.0f});
     },
     Semantics::nanBits},
    {"signed_zero",
     [](Pair& p) {
         fullRun(p);
         test::writeDump(p.a, 2, "i_cfc_grad_b_scratch", std::vector<float>{0.0f, 1.0f});
         test::writeDump(p.b, 2, "i_cfc_grad_b_scratch", std::vector<float>{-0.0f, 1.0f});
     },
     Semantics::signedZero},
    {"large_delta_after_fifth",
     [](Pair& p) {
         fullRun(p);
         test::writeDump(p.a, 1, "j_grad_h_t_frd", std::vector<float>(10, 1.0f));
         test::writeDump(p.b, 1, "j_grad_h_t_frd",
                         std::vector<float>{1.5f, 1.25f, 2, 2, 2, 1001, 1, 1, 1, 1});
     },
     Semantics::maxAfterFive},
    {"length_mismatch",
     [](Pair& p) {
         fullRun(p);
         test::writeDump(p.a, 0, "h_dueling_q_composed", std::vector<float>{1, 2, 3});
         test::writeDump(p.b, 0, "h_dueling_q_composed", std::vector<float>{1, 2, 3, 4});
     }},
    {"ragged_file",
     [](Pair& p) {
         fullRun(p);
         nudgeB(p, 3, "j_grad_h_t_q"); // dumpscope still reaches this; the reference does not
         test::writeText(dumpPath(p.b, 1, "i_cfc_grad_tau_scratch"), "abcdefg");
     },
     Semantics::ragged},
    {"ragged_path_spelling",
     [](Pair& p) { // pathlib's spelling of the path in the ERROR line
         fullRun(p);
         test::writeText(dumpPath(p.a, 0, "g_sampled_h_t"), "abcde");
         p.argA = p.a.string() + "//./";
         p.argB = p.b.string() + "/";
     },
     Semantics::ragged},
    {"missing_run_dir",
     [](Pair& p) {
         fullRun(p);
         p.argB = (p.root / "no_such_run").string() + "/";
     },
     Semantics::missingDir},
    {"missing_a_overlong_b",
     [](Pair& p) { // `or` short-circuits: B is never stat()ed
         fullRun(p);
         p.argA = (p.root / "no_such_run").string();
         p.argB = std::string(5000, 'x');
     },
     Semantics::missingDir},
    {"non_utf8_missing_dirs",
     [](Pair& p) { // stderr's backslashreplace: \\udcXX
         fullRun(p);
         p.argA = (p.root / "no_such_run\xff").string();
         p.argB = p.b.string() + "\xe2\x82x";
     },
     Semantics::missingDir},
    {"overlong_non_utf8_run_dir",
     [](Pair& p) { // the OSError's repr() of a surrogate
         fullRun(p);
         p.argB = "\xff" + std::string(5000, 'x');
     },
     Semantics::referenceCrash, Stderr::lastLineOfTraceback},
    {"overlong_run_dir_b",
     [](Pair& p) { // ENAMETOOLONG escapes pathlib's is_dir()
         fullRun(p);
         p.argB = std::string(5000, 'x');
     },
     Semantics::referenceCrash, Stderr::lastLineOfTraceback},
    {"one_sided_buffer",
     [](Pair& p) {
         fullRun(p);
         fs::remove(dumpPath(p.b, 2, "h_q_logits"));
         test::writeDump(p.b, 1, "x_not_in_a", std::vector<float>{1});
         fs::remove(dumpPath(p.a, 3, "k_outcome_b"));
     },
     Semantics::oneSided},
    {"steps_1_and_3_only",
     [](Pair& p) {
         writeFullStep(p, 1);
         writeFullStep(p, 3);
         nudgeB(p, 3, "i_grad_ln_a_gain_per_row");
     }},
    {"steps_beyond_3",
     [](Pair& p) {
         fullRun(p);
         writeFullStep(p, 4);
         writeFullStep(p, 12);
         nudgeB(p, 4, "h_q_logits");
         nudgeB(p, 12, "g_sampled_h_t");
     },
     Semantics::beyondStep3},
    {"unclassified_files_equal",
     [](Pair& p) {
         fullRun(p);
         test::writeDump(p.a, 0, "z_unknown", std::vector<float>{1});
         test::writeDump(p.b, 0, "z_unknown", std::vector<float>{1});
         test::writeDump(p.a, 1, "h_q_logits_extra", std::vector<float>{3});
         test::writeDump(p.b, 1, "h_q_logits_extra", std::vector<float>{3});
         test::writeText(p.a / "notes.txt", "not a dump");
     },
     Semantics::unclassifiedEqual},
    {"unclassified_files_differ",
     [](Pair& p) {
         fullRun(p);
         test::writeDump(p.a, 0, "z_unknown", std::vector<float>{1});
         test::writeDump(p.b, 0, "z_unknown", std::vector<float>{2});
         test::writeDump(p.a, 1, "h_q_logits_extra", std::vector<float>{1});
         test::writeDump(p.b, 1, "h_q_logits_extra", std::vector<float>{3});
         test::writeText(p.a / "notes.txt", "not a dump");
     },
     Semantics::unclassifiedDiffer},
    {"empty_files",
     [](Pair& p) {
         fullRun(p);
         test::writeText(dumpPath(p.a, 0, "h_pi_logits"), "");
         test::writeText(dumpPath(p.b, 0, "h_pi_logits"), "");
     }},
    {"empty_vs_nonempty",
     [](Pair& p) {
         fullRun(p);
         test::writeText(dumpPath(p.a, 3, "k_outcome_b"), "");
     }},
    {"empty_runs",
     [](Pair& p) {
         fs::create_directories(p.a);
         fs::create_directories(p.b);
     },
     Semantics::noDumps},
    {"fifo_and_dir_named_like_dumps",
     [](Pair& p) { // is_file() is false for both: skipped
         fullRun(p);
         fs::remove(dumpPath(p.a, 0, "h_v_pred"));
         fs::remove(dumpPath(p.b, 0, "h_v_pred"));
         ASSERT_EQ(::mkfifo(dumpPath(p.a, 0, "h_v_pred").c_str(), 0600), 0);
         ASSERT_EQ(::mkfifo(dumpPath(p.b, 0, "h_v_pred").c_str(), 0600), 0);
     },
     Semantics::nonRegular},
    {"sample_h200_identical",
     [](Pair& p) {
         ASSERT_TRUE(test::unpackSample("h200-identical.tar.xz", p.root));
         p.a = p.root / "s0_identical/a";
         p.b = p.root / "s0_identical/b";
         p.argA = p.a.string();
         p.argB = p.b.string();
     }},
    {"sample_h200_noisy_head",
     [](Pair& p) {
         ASSERT_TRUE(test::unpackSample("h200-noisy-head.tar.xz", p.root));
         p.a = p.root / "s2_noisy_head/a";
         p.b = p.root / "s2_noisy_head/b";
         p.argA = p.a.string();
         p.argB = p.b.string();
     }},
};

class Parity : public ::testing::TestWithParam<ParityCase> {
  protected:
    void SetUp() override {
        m_python = findOnPath("python3");
        if (m_python.empty())
            GTEST_SKIP() << "python3 not on PATH: parity with the reference untestable";
        if (!fs::is_regular_file(DUMPSCOPE_REFERENCE_SCRIPT))
            GTEST_SKIP() << "reference script absent: " << DUMPSCOPE_REFERENCE_SCRIPT;
        if (std::string(GetParam().name).rfind("sample_", 0) == 0 && test::sharedDir().empty())
            GTEST_SKIP() << "../shared absent: the real sample pairs are unavailable";
        m_pair.root = m_tmp.path();
        m_pair.a = m_tmp / "a";
        m_pair.b = m_tmp / "b";
        m_pair.argA = m_pair.a.string();
        m_pair.argB = m_pair.b.string();
        GetParam().build(m_pair);
    }
    // The script's stdout is UTF-8 whatever the caller's locale (dumpscope's always is).
    ProcessResult reference() const {
        return test::runProcess(
            {m_python.string(), DUMPSCOPE_REFERENCE_SCRIPT, m_pair.argA, m_pair.argB},
            {"PYTHONIOENCODING=utf-8"});
    }
    ProcessResult cli(std::vector<std::string> extra) const {
        std::vector<std::string> argv{DUMPSCOPE_CLI_PATH};
        argv.insert(argv.end(), extra.begin(), extra.end());
        return test::runProcess(argv);
    }

    test::TempDir m_tmp;
    Pair m_pair;
    fs::path m_python;
};

// The last line of `text` with its newline: a traceback's exception line.
std::string lastLine(const std::string& text) {
    if (text.empty()) return text;
    const auto start = text.rfind('\n', text.size() - 2);
    return start == std::string::npos ? text : text.substr(start + 1);
}

TEST_P(Parity, ReferenceCompatIsByteIdentical) {
    const ProcessResult ref = reference();
    const ProcessResult ours = cli({"--reference-compat", m_pair.argA, m_pair.argB});
    EXPECT_EQ(ours.exitCode, ref.exitCode);
    EXPECT_EQ(ours.out, ref.out);
    if (GetParam().stderrMatch == Stderr::exact) {
        EXPECT_EQ(ours.err, ref.err);
        // An unplanned crash of the script would make the comparison meaningless.
        EXPECT_EQ(ref.err.find("Traceback"), std::string::npos) << ref.err;
    } else {
        EXPECT_EQ(ref.err.rfind("Traceback (most recent call last):\n", 0), 0u) << ref.err;
        EXPECT_EQ(ours.err, lastLine(ref.err));
    }
}

const json* findBuffer(const json& doc, std::uint64_t step, const std::string& name) {
    for (const auto& s : doc.at("steps")) {
        if (s.at("step").get<std::uint64_t>() != step) continue;
        for (const auto& g : s.at("groups"))
            for (const auto& b : g.at("buffers"))
                if (b.at("name") == name) return &b;
    }
    return nullptr;
}

TEST_P(Parity, DefaultModeVerdictMatchesOrDiffersAsDocumented) {
    const ProcessResult ref = reference();
    const ReferenceFacts facts = parseReference(ref.out);
    const ProcessResult ours = cli({m_pair.argA, m_pair.argB, "--json"});
    const Semantics sem = GetParam().semantics;
    if (sem == Semantics::missingDir) {
        EXPECT_EQ(ref.exitCode, 2);
        EXPECT_EQ(ours.exitCode, 2) << ours.err;
        EXPECT_NE(ours.err.find("no_such_run"), std::string::npos) << ours.err;
        return;
    }
    if (sem == Semantics::noDumps) { // two empty folders are not two identical runs
        EXPECT_EQ(ref.exitCode, 0);
        EXPECT_EQ(ours.exitCode, 2) << ours.err;
        for (const std::string& run : {m_pair.argA, m_pair.argB})
            EXPECT_NE(ours.err.find(run + ": no dump files"), std::string::npos) << ours.err;
        return;
    }
    const json doc = json::parse(ours.out, nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << "not JSON:\n" << ours.out << ours.err;
    EXPECT_EQ(doc.at("exit_code").get<int>(), ours.exitCode);
    const json& first = doc.at("first_divergent_step");
    const auto groups = doc.at("diverged_groups").get<std::vector<std::string>>();
    switch (sem) {
    case Semantics::agree:
    case Semantics::maxAfterFive:
    case Semantics::unclassifiedEqual:
    case Semantics::oneSided:
    case Semantics::nonRegular:
        EXPECT_EQ(ours.exitCode, ref.exitCode);
        if (facts.step) {
            EXPECT_EQ(first, json(*facts.step));
        } else {
            EXPECT_TRUE(first.is_null()) << first;
        }
        EXPECT_EQ(groups, facts.groups);
        EXPECT_EQ(doc.at("decision").at("case"), facts.decisionCase);
        break;
    case Semantics::nanBits: // bitwise equal: nothing diverges
        EXPECT_EQ(ref.exitCode, 1);
        EXPECT_EQ(ours.exitCode, 0);
        EXPECT_TRUE(first.is_null()) << first;
        EXPECT_TRUE(groups.empty());
        break;
    case Semantics::signedZero: // the reference's -0.0 == 0.0 hides a real bit difference
        EXPECT_EQ(ref.exitCode, 0);
        EXPECT_EQ(ours.exitCode, 1);
        EXPECT_EQ(first, json(2));
        EXPECT_EQ(groups, std::vector<std::string>{"I"});
        if (const json* b = findBuffer(doc, 2, "cfc_grad_b_scratch")) {
            EXPECT_EQ(b->at("signed_zero_diffs"), json(1));
        } else {
            ADD_FAILURE() << "cfc_grad_b_scratch missing at step 2";
        }
        break;
    case Semantics::unclassifiedDiffer: // listed and counted, never part of the decision tree
        EXPECT_EQ(ref.exitCode, 0);
        EXPECT_EQ(ours.exitCode, 1);
        EXPECT_TRUE(first.is_null()) << first;
        EXPECT_TRUE(groups.empty());
        EXPECT_EQ(doc.at("decision").at("case"), "all_equal");
        break;
    case Semantics::beyondStep3:
        EXPECT_EQ(ref.exitCode, 0);
        EXPECT_EQ(ours.exitCode, 1);
        EXPECT_EQ(first, json(4));
        EXPECT_EQ(groups, std::vector<std::string>{"H"});
        break;
    case Semantics::ragged:
        EXPECT_EQ(ref.exitCode, 2);
        EXPECT_EQ(ours.exitCode, 2);
        break;
    case Semantics::referenceCrash:
        EXPECT_EQ(ref.exitCode, 1);
        EXPECT_EQ(ours.exitCode, 2);
        EXPECT_NE(ours.err.find("File name too long"), std::string::npos) << ours.err;
        break;
    case Semantics::missingDir:
    case Semantics::noDumps:
        break;
    }
    // The extra facts each documented difference promises.
    if (sem == Semantics::maxAfterFive) {
        const json* b = findBuffer(doc, 1, "grad_h_t_frd");
        ASSERT_NE(b, nullptr);
        EXPECT_NE(ref.out.find("grad_h_t_frd: DIVERGE at idx 0 max|Δ|=1 "), std::string::npos);
        EXPECT_EQ(b->at("max_abs_delta"), json(1000.0));
        EXPECT_EQ(b->at("max_abs_delta_index"), json(5));
        EXPECT_EQ(b->at("n_diff"), json(6));
    }
    if (sem == Semantics::ragged) {
        bool sawError = false, sawLaterDivergence = false;
        for (const auto& s : doc.at("steps"))
            for (const auto& g : s.at("groups"))
                for (const auto& b : g.at("buffers")) {
                    if (b.at("status") == "error") {
                        sawError = true;
                        EXPECT_NE(b.at("error").get<std::string>().find("size"), std::string::npos)
                            << b.at("error");
                    }
                    if (b.at("status") == "diverge" && s.at("step") == 3) sawLaterDivergence = true;
                }
        EXPECT_TRUE(sawError);
        if (std::string(GetParam().name) == "ragged_file") {
            EXPECT_TRUE(sawLaterDivergence);
        }
    }
    if (sem == Semantics::oneSided) {
        const json* onlyA = findBuffer(doc, 2, "q_logits");
        const json* onlyB = findBuffer(doc, 3, "outcome_b");
        ASSERT_TRUE(onlyA && onlyB);
        EXPECT_EQ(onlyA->at("status"), "only_in_a");
        EXPECT_EQ(onlyB->at("status"), "only_in_b");
    }
    if (sem == Semantics::nonRegular) {
        const std::string warnings = doc.at("warnings").dump();
        EXPECT_NE(warnings.find("step_0_h_v_pred.bin"), std::string::npos) << warnings;
    }
    if (sem == Semantics::unclassifiedEqual || sem == Semantics::unclassifiedDiffer) {
        const auto listed = doc.at("unclassified").get<std::vector<std::string>>();
        for (const char* f : {"step_0_z_unknown.bin", "step_1_h_q_logits_extra.bin"})
            EXPECT_NE(std::find(listed.begin(), listed.end(), f), listed.end()) << f;
        EXPECT_EQ(std::find(listed.begin(), listed.end(), "notes.txt"), listed.end());
    }
}

// pythonFloatRepr / pythonFormatG6 against the interpreter itself on many values the parity
// cases cannot reach one by one: random float32 bit patterns (denormals, huge, tiny, NaN
// payloads) widened to double as struct.unpack('<f') does, and differences of two of them
// (doubles that are not float32 values) as the reference's max|Δ| is.
TEST(PythonTextForms, FloatReprAndG6MatchPythonOnRandomValues) {
    const fs::path python = findOnPath("python3");
    if (python.empty()) GTEST_SKIP() << "python3 not on PATH";
    test::TempDir tmp;
    std::vector<std::uint32_t> bits = {0x00000000u, 0x80000000u, 0x00000001u, 0x007fffffu,
                                       0x00800000u, 0x7f7fffffu, 0x7f800000u, 0xff800000u,
                                       0x7fc00000u, 0xffc00001u, 0x3f800000u, 0x3dcccccdu};
    std::uint64_t h = 0x9e3779b97f4a7c15ull;
    while (bits.size() < 60000) {
        h ^= h << 13; // xorshift64: a fixed sequence reaching any bit pattern
        h ^= h >> 7;
        h ^= h << 17;
        bits.push_back(static_cast<std::uint32_t>(h >> 16));
    }
    test::writeArray(tmp / "bits.bin", bits);
    const std::string script =
        "import struct,sys\n"
        "d=open(sys.argv[1],'rb').read()\n"
        "v=struct.unpack('<%df'%(len(d)//4),d)\n"
        "out=[]\n"
        "for i,x in enumerate(v):\n"
        "    y=v[i-1]\n"
        "    out.append('%r %s %s'%(x,format(x,'.6g'),format(abs(x-y),'.6g')))\n"
        "sys.stdout.write('\\n'.join(out)+'\\n')\n";
    const ProcessResult py =
        test::runProcess({python.string(), "-c", script, (tmp / "bits.bin").string()});
    ASSERT_EQ(py.exitCode, 0) << py.err;
    std::string ours;
    for (std::size_t i = 0; i < bits.size(); ++i) {
        const double x = static_cast<double>(test::floatFromBits(bits[i]));
        const double y =
            static_cast<double>(test::floatFromBits(bits[(i + bits.size() - 1) % bits.size()]));
        ours += pythonFloatRepr(x) + " " + pythonFormatG6(x) + " " +
                pythonFormatG6(std::fabs(x - y)) + "\n";
    }
    // Compare line by line so a failure names the value, not a 2 MB blob.
    std::size_t posA = 0, posB = 0, mismatches = 0;
    for (std::size_t i = 0; i < bits.size() && mismatches < 10; ++i) {
        const auto endA = ours.find('\n', posA), endB = py.out.find('\n', posB);
        ASSERT_NE(endB, std::string::npos) << "python printed fewer lines";
        const std::string a = ours.substr(posA, endA - posA), b = py.out.substr(posB, endB - posB);
        if (a != b) {
            ++mismatches;
            ADD_FAILURE() << "bits 0x" << std::hex << bits[i] << std::dec << ": ours '" << a
                          << "' python '" << b << "'";
        }
        posA = endA + 1;
        posB = endB + 1;
    }
}

INSTANTIATE_TEST_SUITE_P(Reference, Parity, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<ParityCase>& info) {
                             return std::string(info.param.name);
                         });

} // namespace
} // namespace dumpscope::parity

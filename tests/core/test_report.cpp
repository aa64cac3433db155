// The report writers (issue 2 section 6, issue 6 section 3): JSON that parses back for every
// input, Markdown tables, self-contained and escaped HTML, and the atomic writer that never
// writes into a run directory.

#include "dumpscope/report.h"
#include "dumpscope/schema.h"
#include "dumpscope/version.h"

#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <bit>
#include <cmath>
#include <limits>

namespace fs = std::filesystem;
using dumpscope::test::TempDir;
using nlohmann::json;

namespace {

constexpr const char* kScript = "<script>alert(1)</script>";
constexpr const char* kAmp = "a&b\"c";
const std::string kBadUtf8 = "bad\xff\xfe";
const std::string kPipeTick = "p|q`r";

std::uint64_t bits(float f) {
    return std::bit_cast<std::uint32_t>(f);
}

dumpscope::BufferResult buffer(const std::string& group, const std::string& name,
                               dumpscope::Status status) {
    dumpscope::BufferResult b;
    b.step = 3;
    b.group = group;
    b.name = name;
    b.fileName = "step_3_" + name + ".bin";
    b.status = status;
    b.pending = false;
    b.stats.nA = b.stats.nB = 4;
    return b;
}

dumpscope::GroupCell cell(const std::string& group, dumpscope::Status status,
                          std::vector<std::size_t> buffers, std::size_t nDivergent,
                          double maxAbsDelta) {
    dumpscope::GroupCell c;
    c.group = group;
    c.status = status;
    c.buffers = std::move(buffers);
    c.nDivergent = nDivergent;
    c.maxAbsDelta = maxAbsDelta;
    return c;
}

// Hostile names from a schema and from file names, and every non-finite statistic.
dumpscope::Analysis hostileAnalysis() {
    using dumpscope::Status;
    auto schema = std::make_shared<dumpscope::Schema>();
    schema->name = "hostile <schema>";
    schema->groups.push_back({"G",
                              "G <b>label</b>",
                              {{kScript, "g_x", dumpscope::DType::f32, {}},
                               {kAmp, "g_y", dumpscope::DType::f32, {}},
                               {kPipeTick, "g_z", dumpscope::DType::f32, {}}}});

    dumpscope::Analysis a;
    a.runA = "/tmp/runs/a\xff";
    a.runB = "/tmp/runs/b";
    a.schema = schema;
    a.steps = {3};

    auto script = buffer("G", kScript, Status::diverge);
    auto& s = script.stats;
    s.nDiff = 2;
    s.firstDiff = 1;
    s.lastDiff = 3;
    s.maxAbsDelta = std::numeric_limits<double>::infinity();
    s.maxAbsDeltaIndex = 3;
    s.maxRelDelta = std::nan("");
    s.maxUlp = 5;
    s.nanB = 1;
    s.infB = 1;
    s.hashA = 0x1234;
    s.hashB = 0xdeadbeefcafef00dull;
    s.firstDiffs = {{1, bits(1.0f), 0x7fc00000u, std::nan("")},
                    {3, bits(-2.5f), bits(-INFINITY), INFINITY}};
    s.largestDiffs = {s.firstDiffs[1], s.firstDiffs[0]};
    s.deltaHistogram.counts[static_cast<std::size_t>(-7 - dumpscope::DeltaHistogram::kMinDecade)] =
        3;
    s.deltaHistogram.counts[static_cast<std::size_t>(2 - dumpscope::DeltaHistogram::kMinDecade)] =
        1;
    s.deltaHistogram.zero = 1;
    s.deltaHistogram.nan = 1;
    s.ulpHistogram.counts[0] = 2;
    s.ulpHistogram.counts[5] = 1;
    s.ulpHistogram.undefined = 1;

    script.kind = dumpscope::Kind::nan_inf_mismatch;
    auto amp = buffer("G", kAmp, Status::only_in_a);
    auto pipe = buffer("G", kPipeTick, Status::within_tolerance);
    pipe.kind = dumpscope::Kind::numeric;
    pipe.stats.nDiff = 1;
    pipe.stats.firstDiff = pipe.stats.lastDiff = 0;
    pipe.stats.maxAbsDelta = 0.5;
    pipe.stats.maxAbsDeltaIndex = 0;
    pipe.stats.maxRelDelta = 0.25;
    pipe.stats.maxUlp = 4194304;
    pipe.stats.firstDiffs = {{0, bits(2.0f), bits(1.5f), 0.5}};
    pipe.stats.deltaHistogram
        .counts[static_cast<std::size_t>(-1 - dumpscope::DeltaHistogram::kMinDecade)] = 1;
    pipe.stats.ulpHistogram.counts[22] = 1;
    auto bad = buffer(dumpscope::kOtherGroup, kBadUtf8, Status::error);
    bad.error = "step_3_" + kBadUtf8 + ".bin: size 7 not a multiple of 4 <b>";
    a.buffers = {script, amp, pipe, bad};

    dumpscope::StepResult step;
    step.step = 3;
    step.cells.push_back(
        cell("G", Status::diverge, {0, 1, 2}, 2, std::numeric_limits<double>::infinity()));
    step.cells.push_back(cell(dumpscope::kOtherGroup, Status::error, {3}, 0, 0));
    a.matrix = {step};
    a.unclassified = {"step_3_" + kBadUtf8 + ".bin"};
    a.warnings = {std::string("warn ") + kScript + " \xff"};

    auto& v = a.verdict;
    v.exitCode = 2;
    v.firstDivergentStep = 3;
    v.divergedGroups = {"G"};
    v.decisionCase = dumpscope::DecisionCase::g_only;
    v.text = "  first line <i>\n  second ```line```";
    v.culprits = {{"G", "G <b>label</b>", true, {kScript, kPipeTick}}};
    v.rootCause.step = 3;
    v.rootCause.groups = {"G"};
    v.rootCause.buffers = {kScript, kPipeTick};
    v.rootCause.kinds = {dumpscope::Kind::nan_inf_mismatch, dumpscope::Kind::numeric};
    v.rootCause.suggestion = std::string("NaN appears first in ") + kScript;
    a.tolerance.ulp = 4194304;
    return a;
}

// nlohmann's strict dump throws on invalid UTF-8: a compact validity check for any text.
void expectValidUtf8(const std::string& text) {
    EXPECT_NO_THROW((void)json(text).dump()) << "output is not valid UTF-8";
}

} // namespace

TEST(ReportJson, HostileAnalysisParsesWithHandComputedFields) {
    const auto a = hostileAnalysis();
    const std::string text = dumpscope::reportJson(a);
    json j;
    ASSERT_NO_THROW(j = json::parse(text)) << text;

    EXPECT_EQ(j["tool"], "dumpscope");
    EXPECT_EQ(j["version"], std::string(dumpscope::version()));
    EXPECT_EQ(j["run_a"], "/tmp/runs/a\\xFF"); // invalid bytes become the text \xNN
    EXPECT_EQ(j["exit_code"], 2);
    EXPECT_EQ(j["first_divergent_step"], 3);
    EXPECT_EQ(j["diverged_groups"], json::array({"G"}));
    EXPECT_EQ(j["decision"]["case"], "g_only");
    EXPECT_EQ(j["decision"]["text"], a.verdict.text);
    EXPECT_EQ(j["root_cause"]["step"], 3);
    EXPECT_EQ(j["root_cause"]["buffers"], json::array({kScript, kPipeTick}));
    EXPECT_EQ(j["root_cause"]["kinds"], json::array({"nan_inf_mismatch", "numeric"}));
    EXPECT_EQ(j["root_cause"]["suggestion"], std::string("NaN appears first in ") + kScript);
    EXPECT_EQ(j["tolerance"], json::parse(R"({"atol":null,"rtol":null,"ulp":4194304,
                                             "verdict_tolerance":false})"));
    // Growth: only the buffers that differ somewhere, one point per step.
    ASSERT_EQ(j["growth"].size(), 2u);
    EXPECT_EQ(j["growth"][0]["name"], kScript);
    EXPECT_EQ(j["growth"][0]["points"], json::parse(R"([{"step":3,"status":"diverge","n_diff":2,
                                                        "max_abs_delta":"inf"}])"));
    EXPECT_EQ(j["growth"][1]["points"][0]["status"], "within_tolerance");
    EXPECT_EQ(j["culprits"][0]["label"], "G <b>label</b>");
    EXPECT_EQ(j["culprits"][0]["present"], true);
    EXPECT_EQ(j["unclassified"][0], "step_3_bad\\xFF\\xFE.bin");
    EXPECT_EQ(j["warnings"][0], std::string("warn ") + kScript + " \\xFF");
    EXPECT_TRUE(j["run_errors"]["a"].is_null());

    ASSERT_EQ(j["steps"].size(), 1u);
    EXPECT_EQ(j["steps"][0]["step"], 3);
    const json& g = j["steps"][0]["groups"][0];
    EXPECT_EQ(g["id"], "G");
    EXPECT_EQ(g["status"], "diverge");
    EXPECT_EQ(g["n_divergent"], 2);
    EXPECT_EQ(g["max_abs_delta"], "inf");
    ASSERT_EQ(g["buffers"].size(), 3u);

    const json& b = g["buffers"][0];
    EXPECT_EQ(b["name"], kScript);
    EXPECT_EQ(b["file"], std::string("step_3_") + kScript + ".bin");
    EXPECT_EQ(b["dtype"], "f32");
    EXPECT_EQ(b["status"], "diverge");
    EXPECT_EQ(b["kind"], "nan_inf_mismatch");
    EXPECT_EQ(b["n_a"], 4);
    EXPECT_EQ(b["n_diff"], 2);
    EXPECT_EQ(b["first_diff"], 1);
    EXPECT_EQ(b["last_diff"], 3);
    EXPECT_EQ(b["max_abs_delta"], "inf");
    EXPECT_EQ(b["max_abs_delta_index"], 3);
    EXPECT_EQ(b["max_rel_delta"], "nan");
    EXPECT_EQ(b["max_ulp"], 5);
    EXPECT_EQ(b["nan_b"], 1);
    EXPECT_EQ(b["inf_b"], 1);
    EXPECT_EQ(b["hash_a"], "0000000000001234");
    EXPECT_EQ(b["hash_b"], "deadbeefcafef00d");
    EXPECT_TRUE(b["error"].is_null());

    const json& d0 = b["first_diffs"][0];
    EXPECT_EQ(d0["index"], 1);
    EXPECT_EQ(d0["a"], 1.0);
    EXPECT_EQ(d0["b"], "nan");
    EXPECT_EQ(d0["a_bits"], "0x3f800000");
    EXPECT_EQ(d0["b_bits"], "0x7fc00000");
    EXPECT_EQ(b["first_diffs"][1]["a"], -2.5);
    EXPECT_EQ(b["first_diffs"][1]["b"], "-inf");
    EXPECT_EQ(b["largest_diffs"][0]["index"], 3);

    const json& h = b["histograms"];
    EXPECT_EQ(h["log10_abs_delta"]["bins"],
              json::parse(R"([{"decade":-7,"count":3},{"decade":2,"count":1}])"));
    EXPECT_EQ(h["log10_abs_delta"]["zero"], 1);
    EXPECT_EQ(h["log10_abs_delta"]["nan"], 1);
    EXPECT_EQ(h["ulp"]["bins"],
              json::parse(R"([{"bin":0,"from":1,"count":2},{"bin":5,"from":32,"count":1}])"));
    EXPECT_EQ(h["ulp"]["undefined"], 1);

    EXPECT_EQ(g["buffers"][1]["name"], kAmp);
    EXPECT_EQ(g["buffers"][1]["status"], "only_in_a");
    EXPECT_TRUE(g["buffers"][1]["kind"].is_null()); // never compared as a pair
    const json& other = j["steps"][0]["groups"][1];
    EXPECT_EQ(other["id"], "other");
    EXPECT_EQ(other["status"], "error");
    EXPECT_EQ(other["buffers"][0]["name"], "bad\\xFF\\xFE");
    EXPECT_EQ(other["buffers"][0]["error"],
              "step_3_bad\\xFF\\xFE.bin: size 7 not a multiple of 4 <b>");
}

TEST(ReportJson, IntegerElementsAreExactAndNoDivergenceIsNull) {
    dumpscope::Analysis a;
    auto b = buffer("K", "labels", dumpscope::Status::diverge);
    b.dtype = dumpscope::DType::i64;
    // -2^62 - 1 and 2^63 + 1 do not survive a trip through double; JSON must keep them exact.
    const std::int64_t lo = -(std::int64_t{1} << 62) - 1;
    b.stats.firstDiffs = {{0, static_cast<std::uint64_t>(lo), 7, 1.0}};
    auto u = buffer("K", "counts", dumpscope::Status::diverge);
    u.dtype = dumpscope::DType::u64;
    u.stats.firstDiffs = {{2, (std::uint64_t{1} << 63) + 1, 0, 1.0}};
    b.shape = {4};    // one dimension: indexes like a flat buffer
    u.shape = {3, 1}; // element 2 is (2, 0)
    a.buffers = {b, u};
    a.matrix = {{3, {cell("K", dumpscope::Status::diverge, {0, 1}, 2, 1.0)}}};

    const json j = json::parse(dumpscope::reportJson(a));
    EXPECT_TRUE(j["first_divergent_step"].is_null());
    EXPECT_TRUE(j["root_cause"]["step"].is_null());
    EXPECT_EQ(j["decision"]["case"], "all_equal");
    const json& bufs = j["steps"][0]["groups"][0]["buffers"];
    EXPECT_EQ(bufs[0]["first_diffs"][0]["a"].get<std::int64_t>(), lo);
    EXPECT_EQ(bufs[0]["first_diffs"][0]["a_bits"], "0xbfffffffffffffff");
    EXPECT_EQ(bufs[1]["first_diffs"][0]["a"].get<std::uint64_t>(), (std::uint64_t{1} << 63) + 1);
    EXPECT_TRUE(j["schema"].is_null());
    EXPECT_FALSE(bufs[0]["first_diffs"][0].contains("at"));
    EXPECT_EQ(bufs[1]["first_diffs"][0]["at"], "(2, 0)");
    EXPECT_EQ(bufs[1]["shape"], json::array({3, 1}));
    const std::string md = dumpscope::reportMarkdown(a);
    EXPECT_NE(md.find("`[0] -4611686018427387905 vs 7`"), std::string::npos) << md;
    EXPECT_NE(md.find("`(2, 0) 9223372036854775809 vs 0`"), std::string::npos) << md;
}

TEST(ReportMarkdown, HostileAnalysisTablesAndEscaping) {
    const std::string md = dumpscope::reportMarkdown(hostileAnalysis());
    expectValidUtf8(md);
    EXPECT_NE(md.find("# dumpscope report\n"), std::string::npos);
    EXPECT_NE(md.find("- Run A: `/tmp/runs/a\\xFF`\n"), std::string::npos) << md;
    EXPECT_NE(md.find("first divergent step **3**, diverged groups `G`, decision case `g_only`, "
                      "exit code 2"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("groups `G`; buffers `<script>alert(1)</script>`, ``p|q`r``."),
              std::string::npos)
        << md;
    // Matrix: header with the group ids and one row per step.
    EXPECT_NE(md.find("| step | `G` | `other` |\n|---:|:---:|:---:|\n| 3 | 2/3 | err |\n"),
              std::string::npos)
        << md;
    // Diverging buffers: `|` escaped inside the cell, a backtick inside widens the code fence.
    EXPECT_NE(md.find("| 3 | `G` | `<script>alert(1)</script>` | f32 | nan_inf_mismatch | 2/4 | "
                      "`[1] 1 vs nan` | inf | "
                      "nan | 5 |\n"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("| 3 | `G` | ``p\\|q`r`` | f32 | numeric, within tolerance | 1/4 | `[0] 2 vs "
                      "1.5` | 0.5 | 0.25 | 4194304 |\n"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("- Tolerance: ulp 4194304; the verdict stays bitwise\n"), std::string::npos);
    EXPECT_NE(md.find("Kind: nan\\_inf\\_mismatch — NaN appears first in \\<script\\>alert(1)"
                      "\\</script\\>\n"),
              std::string::npos)
        << md;
    EXPECT_NE(
        md.find("| group | buffer | 3 |\n|---|---|---:|\n| `G` | `<script>alert(1)</script>` | 2 "
                "|\n| `G` | ``p\\|q`r`` | ≈1 |\n"),
        std::string::npos)
        << md;
    // One-sided buffers are listed apart, not in the divergence table.
    EXPECT_NE(md.find("- `step_3_a&b\"c.bin` only in run A\n"), std::string::npos) << md;
    EXPECT_EQ(md.find(std::string("| `") + kAmp), std::string::npos) << md;
    // Messages are plain text with Markdown/HTML syntax escaped.
    EXPECT_NE(
        md.find("- step 3 `step_3_bad\\xFF\\xFE.bin`: step\\_3\\_bad\\\\xFF\\\\xFE.bin: size 7 "
                "not a multiple of 4 \\<b\\>\n"),
        std::string::npos)
        << md;
    EXPECT_NE(md.find("- warn \\<script\\>alert(1)\\</script\\> \\\\xFF\n"), std::string::npos)
        << md;
    // The interpretation text is fenced longer than the backtick run it contains.
    EXPECT_NE(md.find("````text\n  first line <i>\n  second ```line```\n````\n"), std::string::npos)
        << md;
}

TEST(ReportHtml, HostileNamesRenderAsTextAndPageIsSelfContained) {
    const std::string html = dumpscope::reportHtml(hostileAnalysis());
    expectValidUtf8(html);
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_EQ(html.find("<script"), std::string::npos);
    EXPECT_EQ(html.find("http"), std::string::npos);
    EXPECT_EQ(html.find("url("), std::string::npos);
    EXPECT_EQ(html.find("<link"), std::string::npos);
    EXPECT_EQ(html.find("<b>"), std::string::npos);
    EXPECT_EQ(html.find("<i>"), std::string::npos);
    EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
    EXPECT_NE(html.find("<li><code>step_3_a&amp;b&quot;c.bin</code> only in run A</li>"),
              std::string::npos);
    EXPECT_NE(html.find("bad\\xFF\\xFE"), std::string::npos);
    EXPECT_NE(html.find("title=\"G &lt;b&gt;label&lt;/b&gt;\""), std::string::npos);
    EXPECT_NE(html.find("<pre>  first line &lt;i&gt;\n  second ```line```</pre>"),
              std::string::npos);
    // The matrix cells carry their status colour class.
    EXPECT_NE(html.find("<td class=\"div\" title=\"diverge, max |Δ| inf\">2/3</td>"),
              std::string::npos);
    EXPECT_NE(html.find("<td class=\"err\" title=\"error\">err</td>"), std::string::npos);
    // Two charts per diverging buffer; the first buffer's decades -7 and 2 span 10 bars.
    std::size_t svgs = 0;
    for (auto p = html.find("<svg"); p != std::string::npos; p = html.find("<svg", p + 1))
        ++svgs;
    EXPECT_EQ(svgs, 4u);
    EXPECT_NE(html.find("<title>1e-7: 3</title>"), std::string::npos);
    EXPECT_NE(html.find("<title>1e2: 1</title>"), std::string::npos);
    EXPECT_NE(html.find("<title>1e-6: 0</title>"), std::string::npos);
    EXPECT_NE(html.find("<title>2^5: 1</title>"), std::string::npos);
    EXPECT_NE(html.find("<p>Kind: nan_inf_mismatch — NaN appears first in &lt;script&gt;alert(1)"
                        "&lt;/script&gt;</p>"),
              std::string::npos);
    EXPECT_NE(html.find("<td class=\"tol\" title=\"within_tolerance, max |Δ| 0.5\">≈1</td>"),
              std::string::npos);
}

TEST(ReportHtml, LargeCountsGetCompactBarLabelsAndExactTooltips) {
    auto a = hostileAnalysis();
    a.buffers[0].stats.ulpHistogram.counts[1] = 2504;
    a.buffers[0].stats.ulpHistogram.counts[2] = 2504133;
    const std::string html = dumpscope::reportHtml(a);
    EXPECT_NE(html.find("<title>2^1: 2504</title>"), std::string::npos);
    EXPECT_NE(html.find("text-anchor=\"middle\">2.5k</text>"), std::string::npos);
    EXPECT_NE(html.find("<title>2^2: 2504133</title>"), std::string::npos);
    EXPECT_NE(html.find("text-anchor=\"middle\">2.5M</text>"), std::string::npos);
}

TEST(ReportMarkdown, CancelledAnalysisShowsNotComparedCells) {
    auto a = hostileAnalysis();
    a.cancelled = true;
    a.matrix[0].cells[0].status = dumpscope::Status::equal;
    a.matrix[0].cells[0].nDivergent = 0;
    a.matrix[0].cells[0].nPending = 2;
    const std::string md = dumpscope::reportMarkdown(a);
    EXPECT_NE(md.find("| 3 | … | err |\n"), std::string::npos) << md;
    EXPECT_NE(md.find("(analysis cancelled: incomplete)"), std::string::npos) << md;
    EXPECT_NE(dumpscope::reportHtml(a).find("<td class=\"pend\" title=\"equal\">…</td>"),
              std::string::npos);
}

TEST(ReportFormat, ByExtension) {
    using dumpscope::ReportFormat;
    EXPECT_EQ(dumpscope::reportFormatFor("r.json"), ReportFormat::json);
    EXPECT_EQ(dumpscope::reportFormatFor("x/r.MD"), ReportFormat::markdown);
    EXPECT_EQ(dumpscope::reportFormatFor("r.markdown"), ReportFormat::markdown);
    EXPECT_EQ(dumpscope::reportFormatFor("r.htm"), ReportFormat::html);
    EXPECT_EQ(dumpscope::reportFormatFor("r.Html"), ReportFormat::html);
    EXPECT_FALSE(dumpscope::reportFormatFor("r.txt"));
    EXPECT_FALSE(dumpscope::reportFormatFor("json"));
}

// A GitHub issue body holds at most 65,536 characters: a large analysis must still fit, with
// every table and list cut and saying so.
TEST(ReportMarkdown, LargeAnalysisStaysPasteable) {
    dumpscope::Analysis a;
    a.schema = std::make_shared<dumpscope::Schema>(dumpscope::defaultSchema());
    for (std::uint64_t step = 0; step < 300; ++step) {
        a.steps.push_back(step);
        dumpscope::StepResult row;
        row.step = step;
        for (const auto& g : a.schema->groups) {
            dumpscope::GroupCell c = cell(g.id, dumpscope::Status::diverge, {}, 0, 1.0);
            for (const auto& spec : g.buffers) {
                auto b = buffer(g.id, spec.name, dumpscope::Status::diverge);
                b.step = step;
                b.stats.nDiff = 3;
                b.stats.firstDiffs = {{1, bits(1.0f), bits(2.0f), 1.0}};
                c.buffers.push_back(a.buffers.size());
                ++c.nDivergent;
                a.buffers.push_back(std::move(b));
            }
            row.cells.push_back(std::move(c));
        }
        a.matrix.push_back(std::move(row));
    }
    for (int i = 0; i < 500; ++i)
        a.unclassified.push_back("step_0_extra_" + std::to_string(i) + ".bin");
    for (int i = 0; i < 150; ++i)
        a.warnings.push_back("warning " + std::to_string(i));

    const std::string md = dumpscope::reportMarkdown(a);
    EXPECT_LT(md.size(), 65536u);
    EXPECT_NE(md.find("… and 200 more steps (see the JSON report)."), std::string::npos);
    EXPECT_NE(md.find("… and 9200 more differing buffers (see the JSON report)."),
              std::string::npos);
    EXPECT_NE(md.find("The table is cut to 31 buffers and 24 steps"), std::string::npos);
    EXPECT_NE(md.find("- … and 400 more (see the JSON report)\n"), std::string::npos);
    EXPECT_NE(md.find("- warning 99\n- … and 50 more (see the JSON report)\n"), std::string::npos);
}

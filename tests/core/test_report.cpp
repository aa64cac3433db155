// The JSON and HTML report writers on hand-built analyses: JSON that parses back for every
// input, self-contained and escaped HTML.

#include "dumpscope/report.h"
#include "dumpscope/schema.h"
#include "dumpscope/version.h"

#include "report_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using nlohmann::json;
using namespace dumpscope::test::report;

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

// Reports of real analyses: analyze() over dumps written to a temp dir (hand-computed
// statistics, tolerances) and over the H200 noisy-head sample.

#include "dumpscope/analyze.h"
#include "dumpscope/report.h"

#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using dumpscope::test::listDir;
using dumpscope::test::readFile;
using dumpscope::test::TempDir;
using nlohmann::json;

namespace {} // namespace

TEST(ReportOfAnalysis, WrittenDumpsGiveHandComputedStatistics) {
    TempDir tmp;
    using dumpscope::test::writeDump;
    // Step 0: G's sampled_h_t differs at [1] (2 vs 2.5) and [3] (4 vs -4); the rest equal.
    writeDump(tmp / "a", 0, "g_sampled_h_t", std::vector<float>{1, 2, 3, 4});
    writeDump(tmp / "b", 0, "g_sampled_h_t", std::vector<float>{1, 2.5f, 3, -4});
    writeDump(tmp / "a", 0, "g_sampled_actions", std::vector<std::int32_t>{1, 2});
    writeDump(tmp / "b", 0, "g_sampled_actions", std::vector<std::int32_t>{1, 2});
    writeDump(tmp / "a", 0, "h_q_logits", std::vector<float>{0.5f});
    writeDump(tmp / "b", 0, "h_q_logits", std::vector<float>{0.5f});
    const auto a = dumpscope::analyze(tmp / "a", tmp / "b");

    const json j = json::parse(dumpscope::reportJson(a));
    EXPECT_EQ(j["exit_code"], 1);
    EXPECT_EQ(j["first_divergent_step"], 0);
    EXPECT_EQ(j["diverged_groups"], json::array({"G"}));
    EXPECT_EQ(j["decision"]["case"], "g_only");
    EXPECT_EQ(j["root_cause"]["groups"], json::array({"G"}));
    EXPECT_EQ(j["root_cause"]["buffers"], json::array({"sampled_h_t"}));
    const json& g = j["steps"][0]["groups"][0];
    EXPECT_EQ(g["id"], "G");
    EXPECT_EQ(g["status"], "diverge");
    EXPECT_EQ(g["n_divergent"], 1);
    ASSERT_EQ(g["buffers"].size(), 2u);
    const json& b = g["buffers"][0];
    EXPECT_EQ(b["name"], "sampled_h_t");
    EXPECT_EQ(b["file"], "step_0_g_sampled_h_t.bin");
    EXPECT_EQ(b["n_diff"], 2);
    EXPECT_EQ(b["first_diff"], 1);
    EXPECT_EQ(b["last_diff"], 3);
    EXPECT_EQ(b["max_abs_delta"], 8.0);
    EXPECT_EQ(b["max_abs_delta_index"], 3);
    EXPECT_EQ(b["max_rel_delta"], 2.0);
    // 4 vs -4: both magnitudes' distance from zero (0x40800000 each) plus 1 for the sign.
    EXPECT_EQ(b["max_ulp"], 2u * 0x40800000u + 1u);
    // The default schema shapes sampled_h_t as [batch, *], batch being sampled_actions' length.
    EXPECT_EQ(b["shape"], json::array({2, 2}));
    EXPECT_TRUE(b["shape_error"].is_null());
    EXPECT_EQ(b["placement"],
              "2 of 2 rows and 1 of 2 columns hold differences (50% of the elements)");
    EXPECT_EQ(b["first_diffs"][0], json::parse(R"j({"index":1,"a":2.0,"b":2.5,"a_bits":"0x40000000",
        "b_bits":"0x40200000","abs_delta":0.5,"at":"(0, 1)"})j"));
    EXPECT_EQ(b["histograms"]["log10_abs_delta"]["bins"],
              json::parse(R"([{"decade":-1,"count":1},{"decade":0,"count":1}])"));
    EXPECT_EQ(
        b["histograms"]["ulp"]["bins"],
        json::parse(
            R"([{"bin":21,"from":2097152,"count":1},{"bin":31,"from":2147483648,"count":1}])"));
    EXPECT_EQ(g["buffers"][1]["status"], "equal");
    EXPECT_EQ(j["steps"][0]["groups"][1]["status"], "equal");

    const std::string md = dumpscope::reportMarkdown(a);
    EXPECT_NE(md.find("| 0 | 1/2 | = | — | — | — |\n"), std::string::npos) << md;
    EXPECT_NE(
        md.find("| 0 | `G` | `sampled_h_t` | f32 | numeric | 2/4 | `(0, 1) 2 vs 2.5` | 8 | 2 | "
                "2164260865 |\n"),
        std::string::npos)
        << md;
    EXPECT_NE(
        md.find("Where the differences sit:\n\n- step 0 `sampled_h_t`: 2 of 2 rows and 1 of 2 "
                "columns hold differences (50% of the elements)\n"),
        std::string::npos)
        << md;
    const std::string html = dumpscope::reportHtml(a);
    EXPECT_NE(html.find("f32, shape [2, 2])"), std::string::npos);
    EXPECT_NE(html.find("<td class=\"div\" title=\"diverge, max |Δ| 8\">1/2</td>"),
              std::string::npos);
    EXPECT_NE(html.find("<title>2^31: 1</title>"), std::string::npos);
}

TEST(ReportOfAnalysis, WithinToleranceCellsAndRows) {
    TempDir tmp;
    using dumpscope::test::writeDump;
    // 1.0f and the next float up: one ULP apart, within --ulp 4; the verdict stays bitwise.
    writeDump(tmp / "a", 0, "h_q_logits", std::vector<float>{1.0f, 3.0f});
    writeDump(tmp / "b", 0, "h_q_logits", std::vector<float>{std::nextafter(1.0f, 2.0f), 3.0f});
    dumpscope::AnalyzeOptions options;
    options.tolerance.ulp = 4;
    const auto a = dumpscope::analyze(tmp / "a", tmp / "b", options);

    const json j = json::parse(dumpscope::reportJson(a));
    EXPECT_EQ(j["tolerance"]["ulp"], 4);
    EXPECT_EQ(j["tolerance"]["verdict_tolerance"], false);
    const json& h = j["steps"][0]["groups"][1];
    EXPECT_EQ(h["id"], "H");
    EXPECT_EQ(h["status"], "within_tolerance");
    EXPECT_EQ(h["buffers"][0]["status"], "within_tolerance");
    EXPECT_EQ(h["buffers"][0]["kind"], "rounding");
    EXPECT_EQ(h["buffers"][0]["max_ulp"], 1);

    const std::string md = dumpscope::reportMarkdown(a);
    EXPECT_NE(md.find("| 0 | — | ≈1/1 | — | — | — |\n"), std::string::npos) << md;
    EXPECT_NE(md.find("| 0 | `H` | `q_logits` | f32 | rounding, within tolerance | 1/2 |"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("- Tolerance: ulp 4; the verdict stays bitwise\n"), std::string::npos) << md;
    EXPECT_NE(dumpscope::reportHtml(a).find("<td class=\"tol\""), std::string::npos);
}

TEST(ReportOfAnalysis, RealNoisyHeadSample) {
    TempDir tmp;
    if (!dumpscope::test::unpackSample("h200-noisy-head.tar.xz", tmp.path()))
        GTEST_SKIP() << "../shared/samples/h200-noisy-head.tar.xz not available";
    const fs::path runA = tmp / "s2_noisy_head" / "a", runB = tmp / "s2_noisy_head" / "b";
    const auto a = dumpscope::analyze(runA, runB);

    // What the reference prints for this pair: first divergence at step 1 in H, I and J.
    const json j = json::parse(dumpscope::reportJson(a));
    EXPECT_EQ(j["exit_code"], 1);
    EXPECT_EQ(j["first_divergent_step"], 1);
    EXPECT_EQ(j["diverged_groups"], json::array({"H", "I", "J"}));
    EXPECT_EQ(j["decision"]["case"], "h_without_g");
    EXPECT_EQ(j["root_cause"]["groups"], json::array({"H"}));
    EXPECT_EQ(j["root_cause"]["buffers"], json::array({"q_logits"}));
    ASSERT_EQ(j["steps"].size(), 4u);
    const std::string md = dumpscope::reportMarkdown(a);
    EXPECT_NE(md.find("| 1 | = | 1/5 | 11/11 | 2/6 | = |\n"), std::string::npos) << md;

    const fs::path out = tmp / "reports";
    fs::create_directories(out);
    for (const char* name : {"r.json", "r.md", "r.html"})
        dumpscope::writeReport(a, out / name);
    const std::string html = readFile(out / "r.html");
    EXPECT_EQ(html.find("<script"), std::string::npos);
    EXPECT_NE(html.find("<svg"), std::string::npos);
    EXPECT_EQ(listDir(out), (std::vector<std::string>{"r.html", "r.json", "r.md"}));
    try {
        dumpscope::writeReport(a, runA / "r.json");
        ADD_FAILURE() << "a report was written inside a run directory";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("inside a run directory"), std::string::npos);
    }
    EXPECT_EQ(std::distance(fs::directory_iterator(runA), fs::directory_iterator{}), 124);
}

// Safe reports, end to end: hostile names from a schema and from file names go through
// analyze() and writeReport(), and the files on disk are checked.

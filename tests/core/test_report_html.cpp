// The HTML report as people read it: a differing-buffers table that fits a page, the
// interpretation right after the verdict, titled charts, the date and comparison mode in the
// header, and a divergence map per differing buffer read back from the dumps.

#include "dumpscope/analyze.h"
#include "dumpscope/report.h"

#include "report_fixture.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <regex>
#include <set>

namespace fs = std::filesystem;
using dumpscope::test::TempDir;
using dumpscope::test::writeDump;

namespace {

// 2026-05-04 13:07:59 UTC: the header shows it to the minute.
std::chrono::system_clock::time_point fixedDate() {
    using namespace std::chrono;
    return sys_days{year{2026} / 5 / 4} + hours{13} + minutes{7} + seconds{59};
}

std::string render(const dumpscope::Analysis& a) {
    dumpscope::HtmlReportOptions options;
    options.madeAt = fixedDate();
    return dumpscope::reportHtml(a, options);
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1))
        ++n;
    return n;
}

// The text of section `id` ("b3") of the report.
std::string section(const std::string& html, std::size_t bufferIndex) {
    const auto from = html.find("<section id=\"b" + std::to_string(bufferIndex) + "\">");
    if (from == std::string::npos) return {};
    return html.substr(from, html.find("</section>", from) - from);
}

std::string hex16(std::uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

// Step 0 of a pair with three differing buffers: sampled_h_t shaped [2, 2] (batch from
// sampled_actions) differing at (0, 1) and (1, 1); q_logits with a NaN in run B only; and an
// unclassified byte buffer with a long name.
struct GeneratedPair {
    TempDir tmp;
    dumpscope::Analysis analysis;
    explicit GeneratedPair(const dumpscope::AnalyzeOptions& options = {}) {
        writeDump(tmp / "a", 0, "g_sampled_h_t", std::vector<float>{1, 2, 3, 4});
        writeDump(tmp / "b", 0, "g_sampled_h_t", std::vector<float>{1, 2.5f, 3, -4});
        for (const char* run : {"a", "b"})
            writeDump(tmp / run, 0, "g_sampled_actions", std::vector<std::int32_t>{1, 2});
        writeDump(tmp / "a", 0, "h_q_logits", std::vector<float>{0.5f, 1, 2, 3});
        writeDump(tmp / "b", 0, "h_q_logits", std::vector<float>{0.5f, std::nanf(""), 2, 3});
        writeDump(tmp / "a", 0, "long_scratch_buffer_name", std::vector<std::uint8_t>(100, 1));
        std::vector<std::uint8_t> changed(100, 1);
        changed[99] = 2;
        writeDump(tmp / "b", 0, "long_scratch_buffer_name", changed);
        analysis = dumpscope::analyze(tmp / "a", tmp / "b", options);
    }
    std::size_t indexOf(const std::string& name) const {
        for (std::size_t i = 0; i < analysis.buffers.size(); ++i)
            if (analysis.buffers[i].name == name) return i;
        ADD_FAILURE() << "no buffer " << name;
        return 0;
    }
};

} // namespace

TEST(ReportHtmlLayout, TableShowsShortHashesWithTheFullValueInTheTitle) {
    GeneratedPair p;
    const std::string html = render(p.analysis);
    for (const char* name : {"sampled_h_t", "q_logits", "long_scratch_buffer_name"}) {
        const auto& s = p.analysis.buffers[p.indexOf(name)].stats;
        for (std::uint64_t hash : {s.hashA, s.hashB}) {
            const std::string full = hex16(hash);
            EXPECT_NE(html.find("<td class=\"mono\" title=\"" + full + "\">" + full.substr(0, 8) +
                                "</td>"),
                      std::string::npos)
                << name << " " << full;
            EXPECT_EQ(html.find(">" + full + "</td>"), std::string::npos) << full;
        }
    }
    // The first difference's values are in the tooltip, the cell holds its index only.
    EXPECT_NE(html.find("<td class=\"n\" title=\"(0, 1) 2 vs 2.5\"><code>(0, 1)</code></td>"),
              std::string::npos);
    // A long name may break after each '_' instead of widening its column.
    EXPECT_NE(html.find("<code>long_<wbr>scratch_<wbr>buffer_<wbr>name</code>"), std::string::npos);
    EXPECT_NE(html.find("table.stats td{white-space:nowrap}"), std::string::npos);
}

TEST(ReportHtmlLayout, InterpretationComesRightAfterTheVerdict) {
    GeneratedPair p;
    ASSERT_FALSE(p.analysis.verdict.text.empty());
    const std::string html = render(p.analysis);
    const auto verdict = html.find("<h2>Verdict</h2>");
    const auto interpretation =
        html.find("</div>\n<h2>Interpretation (reference decision tree)</h2>\n<pre>");
    ASSERT_NE(verdict, std::string::npos);
    ASSERT_NE(interpretation, std::string::npos);
    // Nothing but the verdict box between the two headings, and every table after.
    EXPECT_EQ(html.find("<h2>", verdict + 1), interpretation + 7);
    EXPECT_LT(interpretation, html.find("<h2>Step × group matrix</h2>"));
    EXPECT_LT(interpretation, html.find("<h2>Differing buffers</h2>"));
    EXPECT_EQ(count(html, "<h2>Interpretation"), 1u);
}

TEST(ReportHtmlLayout, HeaderCarriesTheDateAndTheComparisonMode) {
    GeneratedPair bitwise;
    const std::string html = render(bitwise.analysis);
    EXPECT_NE(html.find("<tr><th>Made</th><td><time datetime=\"2026-05-04T13:07Z\">"
                        "2026-05-04T13:07Z</time> (UTC)</td></tr>"),
              std::string::npos);
    EXPECT_NE(html.find("<tr><th>Comparison</th><td>bitwise</td></tr>"), std::string::npos);

    dumpscope::AnalyzeOptions options;
    options.tolerance.atol = 1e-6;
    options.tolerance.ulp = 4;
    GeneratedPair tolerant(options);
    EXPECT_NE(render(tolerant.analysis)
                  .find("<tr><th>Comparison</th><td>tolerance: atol 1e-06, ulp 4; the verdict "
                        "stays bitwise</td></tr>"),
              std::string::npos);

    // Without a date given, the report is dated when it is made.
    const auto before = std::chrono::floor<std::chrono::minutes>(std::chrono::system_clock::now());
    const std::string now = dumpscope::reportHtml(bitwise.analysis);
    const auto after = std::chrono::system_clock::now();
    std::smatch m;
    ASSERT_TRUE(std::regex_search(now, m,
                                  std::regex("<time datetime=\"(\\d{4})-(\\d\\d)-(\\d\\d)T(\\d\\d):"
                                             "(\\d\\d)Z\">")));
    using namespace std::chrono;
    const auto made = sys_days{year{std::stoi(m[1])} / std::stoi(m[2]) / std::stoi(m[3])} +
                      hours{std::stoi(m[4])} + minutes{std::stoi(m[5])};
    EXPECT_LE(before, made);
    EXPECT_LE(made, after);
}

TEST(ReportHtmlLayout, ChartsHaveAxisTitlesRoundTicksAndRoundLabels) {
    using namespace dumpscope::test::report;
    auto a = hostileAnalysis();
    a.buffers[0].stats.ulpHistogram.counts[1] = 2504;
    a.buffers[0].stats.ulpHistogram.counts[2] = 2504133;
    // 30 decades, 1e-20 to 1e9: too many to label each, so every fifth, at round exponents.
    a.buffers[0].stats.deltaHistogram.counts[static_cast<std::size_t>(
        -20 - dumpscope::DeltaHistogram::kMinDecade)] = 4;
    a.buffers[0].stats.deltaHistogram.counts[static_cast<std::size_t>(
        9 - dumpscope::DeltaHistogram::kMinDecade)] = 1;
    const std::string html = render(a);
    EXPECT_NE(html.find("class=\"title\">|Δ| decade</text>"), std::string::npos);
    EXPECT_NE(html.find("class=\"title\">ULP distance</text>"), std::string::npos);
    EXPECT_EQ(count(html, "class=\"title\" transform=\"rotate(-90)\">elements</text>"),
              count(html, "<svg class=\"chart\""));
    EXPECT_GE(count(html, "<svg class=\"chart\""), 2u);

    // The y ticks of the ULP chart of buffer 0 (largest bar 2,504,133): 0 to 3M by 1M.
    const auto from = html.find("aria-label=\"ULP distance per power of two\"");
    const std::string chart = html.substr(from, html.find("</svg>", from) - from);
    std::set<std::string> ticks;
    const std::regex tick("text-anchor=\"end\">([^<]*)</text>");
    for (std::sregex_iterator it(chart.begin(), chart.end(), tick), end; it != end; ++it)
        ticks.insert((*it)[1]);
    EXPECT_EQ(ticks, (std::set<std::string>{"0", "1.0M", "2.0M", "3.0M"}));

    EXPECT_NE(html.find(">1e-20</text>"), std::string::npos);
    EXPECT_NE(html.find(">1e-15</text>"), std::string::npos);
    EXPECT_NE(html.find(">1e5</text>"), std::string::npos);
    EXPECT_EQ(html.find(">1e-19</text>"), std::string::npos);
    EXPECT_EQ(html.find(">1e-7</text>"), std::string::npos);
    EXPECT_NE(html.find("<title>1e-19: 0</title>"), std::string::npos); // every bar still there
}

TEST(ReportHtmlMaps, EachDifferingBufferOfAGeneratedPairHasItsMap) {
    GeneratedPair p;
    const std::string html = render(p.analysis);
    EXPECT_EQ(count(html, "<svg class=\"map\""), 3u);
    const std::string shaped = section(html, p.indexOf("sampled_h_t"));
    EXPECT_EQ(count(shaped, "<svg class=\"map\""), 1u);
    EXPECT_NE(shaped.find("2 rows × 2 columns, 1 × 1 elements per cell; 2 elements differ, in 2 "
                          "of 4 cells."),
              std::string::npos)
        << shaped;
    // (0, 1) and (1, 1) differ: two cells of the right-hand column, one subpath each.
    EXPECT_EQ(count(shaped, "h-"), 2u);

    const std::string nan = section(html, p.indexOf("q_logits"));
    EXPECT_EQ(count(nan, "<svg class=\"map\""), 1u);
    EXPECT_NE(nan.find("<path fill=\"#1e88e5\""), std::string::npos) << nan;

    const std::string flat = section(html, p.indexOf("long_scratch_buffer_name"));
    EXPECT_NE(flat.find("flat, 100 elements, 1 per cell; 1 elements differ, in 1 of 100 cells."),
              std::string::npos)
        << flat;
    EXPECT_NE(flat.find("class=\"title\">element</text>"), std::string::npos);
}

TEST(ReportHtmlMaps, AFileGoneSinceTheAnalysisGetsANoteAndTheOthersTheirMaps) {
    GeneratedPair p;
    const fs::path gone = p.tmp / "b" / "step_0_h_q_logits.bin";
    fs::remove(gone);
    std::string html;
    ASSERT_NO_THROW(html = render(p.analysis));
    const std::string nan = section(html, p.indexOf("q_logits"));
    EXPECT_NE(nan.find("<p class=\"note\">No divergence map: "), std::string::npos) << nan;
    EXPECT_NE(nan.find(gone.string()), std::string::npos) << nan;
    EXPECT_EQ(count(nan, "<svg class=\"map\""), 0u);
    EXPECT_EQ(count(html, "<svg class=\"map\""), 2u);
}

TEST(ReportHtmlMaps, OnlyTheFirstBuffersAndABoundedByteCountGetMaps) {
    TempDir tmp;
    for (int i = 0; i < 26; ++i) {
        const std::string name = "scratch" + std::to_string(100 + i);
        writeDump(tmp / "a", 0, name, std::vector<std::uint8_t>{1, 2});
        writeDump(tmp / "b", 0, name, std::vector<std::uint8_t>{1, 3});
    }
    const auto an = dumpscope::analyze(tmp / "a", tmp / "b");
    const std::string html = render(an);
    EXPECT_EQ(count(html, "<section id=\"b"), 26u);
    EXPECT_EQ(count(html, "<svg class=\"map\""), 24u);
    EXPECT_NE(html.find("Divergence maps are drawn for the first 24 buffers below"),
              std::string::npos);
    // The last two sections, past the first 24, have neither a map nor a note each.
    EXPECT_EQ(section(html, an.buffers.size() - 1).find("map"), std::string::npos);

    // A buffer whose files would pass the byte budget is not read: a note says why.
    auto big = an;
    big.buffers[0].stats.nA = big.buffers[0].stats.nB = std::uint64_t{1} << 31;
    const std::string capped = render(big);
    EXPECT_NE(section(capped, 0).find("No divergence map: its files would take the maps past "
                                      "the 2 GiB a report reads for them"),
              std::string::npos);
    EXPECT_EQ(count(capped, "<svg class=\"map\""), 24u); // the 25th buffer takes its place
}

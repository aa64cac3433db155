// The Markdown report on hand-built analyses: tables that render, names that cannot break
// them, and a size that still pastes into a GitHub issue.

#include "dumpscope/report.h"
#include "dumpscope/schema.h"
#include "dumpscope/version.h"

#include "report_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using nlohmann::json;
using namespace dumpscope::test::report;

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

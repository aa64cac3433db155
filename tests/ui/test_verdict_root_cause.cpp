// The verdict panel's root cause in the schema's terms, with many root buffers in two groups:
// each group lists its own root buffers, cut, and counts only its own past the cut.
#include "panels/verdict_panel.h"
#include "test_support.h"
#include "ui_test_util.h"

#include "dumpscope/analyze.h"
#include "dumpscope/schema.h"
#include "dumpscope/verdict.h"

#include <QLabel>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

// Group P holds `inP` buffers and Q `inQ`, each differing at step 0, with no edge between them:
// both groups are roots.
dumpscope::Analysis twoRootGroups(const dumpscope::test::TempDir& dir, int inP, int inQ) {
    std::string json = R"({"name": "two", "version": 1, "groups": [)";
    for (const auto& [group, n] :
         {std::pair{std::string("P"), inP}, std::pair{std::string("Q"), inQ}}) {
        json += std::string(group == "P" ? "" : ",") + R"({"id": ")" + group + R"(", "label": ")" +
                group + R"(", "buffers": [)";
        for (int k = 0; k < n; ++k) {
            const std::string name = group + std::to_string(k);
            json += std::string(k ? "," : "") + R"({"name": ")" + name + R"(", "file": "f_)" +
                    name + R"(", "dtype": "f32"})";
            for (const char* side : {"a", "b"}) {
                std::filesystem::create_directories(dir / side);
                dumpscope::test::writeArray(
                    dir / side / ("step_0_f_" + name + ".bin"),
                    std::vector<float>{1, 2, std::string(side) == "a" ? 3.0f : 3.5f});
            }
        }
        json += "]}";
    }
    json += "]}";
    dumpscope::AnalyzeOptions options;
    options.schema = std::make_shared<const dumpscope::Schema>(dumpscope::parseSchema(json, "two"));
    return dumpscope::analyze(dir / "a", dir / "b", options);
}

} // namespace

TEST(VerdictRootCause, EachRootGroupCountsOnlyItsOwnBuffersPastTheCut) {
    dumpscope::test::TempDir dir;
    const int inP = static_cast<int>(dumpscope::kListedNames) + 4, inQ = 3;
    dumpscope::Analysis analysis = twoRootGroups(dir, inP, inQ);
    ASSERT_EQ(analysis.verdict.rootCause.groups, (std::vector<std::string>{"P", "Q"}));
    VerdictPanel panel;
    panel.setSnapshot(dumpscope::uitest::finishedSnapshot(std::move(analysis)));
    auto* label = panel.findChild<QLabel*>(QStringLiteral("rootCause"));
    ASSERT_TRUE(label);
    const QStringList lines = label->text().split(QStringLiteral("<br>"));
    ASSERT_GE(lines.size(), 2);
    // P: its link, eight of its buffers and the four left; Q: its link and its three buffers.
    EXPECT_EQ(lines[0].count(QStringLiteral("href=\"rc:")), 1 + int(dumpscope::kListedNames));
    EXPECT_TRUE(lines[0].contains(QStringLiteral("… and 4 more"))) << lines[0].toStdString();
    EXPECT_EQ(lines[1].count(QStringLiteral("href=\"rc:")), 1 + inQ);
    EXPECT_FALSE(lines[1].contains(QStringLiteral("more"))) << lines[1].toStdString();
    for (int k = 0; k < inQ; ++k)
        EXPECT_TRUE(lines[1].contains(QStringLiteral(">Q%1</a>").arg(k))) << k;
    // Shown whole on demand.
    emit label->linkActivated(QString::fromLatin1(VerdictPanel::kShowAllLink));
    EXPECT_EQ(label->text().split(QStringLiteral("<br>"))[0].count(QStringLiteral("href=\"rc:")),
              1 + inP);
}

// The evidence is never touched, in the window: a read-only pair analysed by the
// window's worker, its cells, buffers and elements shown, every export (reports, the element
// CSV, the Markdown summary), reload and swap, and the real dumpscope binary's --screenshot;
// then no byte, modification time or entry inside the run directories has changed. The
// snapshot checks hold as root too, where chmod itself stops nothing.
#include "models/matrix_model.h"
#include "panels/element_panel.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "window/main_window.h"
#include "window/triage_view.h"

#include <QApplication>
#include <QClipboard>

#include <gtest/gtest.h>

#include <filesystem>

using namespace dumpscope;
using namespace dumpscope::test;

namespace {

QString q(const std::filesystem::path& p) {
    return QString::fromStdString(p.string());
}

} // namespace

TEST(ReadOnlyEvidence, TheWindowAndEveryExportLeaveTheRunsUntouched) {
    TempDir runs, out, settingsDir;
    uitest::writeMixedPair(runs.path());
    const TreeSnapshot before = snapshotTree(runs.path());
    {
        ReadOnlyTree readOnly(runs.path());
        {
            MainWindow window({nullptr, q(settingsDir / "settings.ini")});
            window.show();
            window.openPair({q(runs / "a"), q(runs / "b")});
            ASSERT_TRUE(uitest::waitForFinished(window));
            ASSERT_EQ(window.snapshot()->analysis->verdict.exitCode, 2); // the malformed K file
            QString error;

            // The element table reads the dumps again (BufferView); its CSV goes outside.
            ASSERT_TRUE(window.triageView()->selectCell(2, QStringLiteral("H"),
                                                        QStringLiteral("q_logits")));
            ElementPanel* elements = window.triageView()->elementPanel();
            ASSERT_TRUE(elements->exportCsv(q(out / "diffs.csv"), &error)) << error.toStdString();
            EXPECT_EQ(readFile(out / "diffs.csv").substr(0, 6), "index,");
            for (const char* format : {"r.html", "r.md", "r.json"}) {
                ASSERT_TRUE(window.exportReport(q(out / format), &error)) << error.toStdString();
                EXPECT_GT(std::filesystem::file_size(out / format), 100u) << format;
            }
            QApplication::clipboard()->clear();
            ASSERT_TRUE(window.copyMarkdownSummary());
            EXPECT_FALSE(QApplication::clipboard()->text().isEmpty());

            // Aimed at a run directory, both exports are refused and write nothing.
            for (const char* run : {"a", "b"}) {
                EXPECT_FALSE(window.exportReport(q(runs / run / "r.md"), &error));
                EXPECT_FALSE(elements->exportCsv(q(runs / run / "diffs.csv"), &error));
            }

            window.reload();
            ASSERT_TRUE(uitest::waitForFinished(window));
            window.swapRuns();
            ASSERT_TRUE(uitest::waitForFinished(window));
            window.close(); // saves the settings: into settingsDir, nowhere near the runs
        }

        // The real binary, analysis through to its screenshot.
        TempDir home;
        const auto shot =
            runProcess({DUMPSCOPE_GUI_PATH, (runs / "a").string(), (runs / "b").string(),
                        "--screenshot", (out / "shot.png").string()},
                       {"QT_QPA_PLATFORM=offscreen", "XDG_CONFIG_HOME=" + home.path().string()});
        EXPECT_EQ(shot.exitCode, 0) << shot.err;

        EXPECT_EQ(snapshotTree(runs.path()), before);
    }
    EXPECT_EQ(listDir(out.path()),
              (std::vector<std::string>{"diffs.csv", "r.html", "r.json", "r.md", "shot.png"}))
        << "no temporary file left beside the exports";
}

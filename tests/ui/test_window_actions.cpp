// What the window does besides showing: export, clipboard, swap, reload, drops, settings, and
// the real dumpscope binary's --screenshot.
#include "models/matrix_model.h"
#include "panels/verdict_panel.h"
#include "state/run_pair.h"
#include "state/settings.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "window/main_window.h"
#include "window/triage_view.h"

#include "dumpscope/analyze.h"
#include "dumpscope/report.h"

#include <QApplication>
#include <QClipboard>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QImage>
#include <QLabel>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QUrl>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>
#include <sstream>

using namespace dumpscope;
using dumpscope::test::TempDir;

namespace {

QString q(const std::filesystem::path& p) {
    return QString::fromStdString(p.string());
}

using dumpscope::test::readFile;

struct OpenMixed {
    TempDir dir;
    TempDir settingsDir;
    QString ini = q(settingsDir / "settings.ini");
    MainWindow window{{nullptr, ini}};
    OpenMixed() {
        uitest::writeMixedPair(dir.path());
        window.show();
        window.openPair({q(dir / "a"), q(dir / "b")});
    }
};

// A drag entering the window, then the drop: Qt delivers a drop only to the widget that
// accepted the drag. Returns whether the drag was accepted.
bool dropFolders(QWidget& window, const QStringList& folders) {
    QMimeData mime;
    QList<QUrl> urls;
    for (const QString& f : folders)
        urls << QUrl::fromLocalFile(f);
    mime.setUrls(urls);
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    if (!enter.isAccepted()) return false;
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    return true;
}

} // namespace

TEST(WindowActions, ExportWritesEachFormatThroughTheCore) {
    OpenMixed w;
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    TempDir out;
    QString error;
    ASSERT_TRUE(w.window.exportReport(q(out / "r.html"), &error)) << error.toStdString();
    ASSERT_TRUE(w.window.exportReport(q(out / "r.md"), &error)) << error.toStdString();
    ASSERT_TRUE(w.window.exportReport(q(out / "r.json"), &error)) << error.toStdString();

    const Analysis& shown = *w.window.snapshot()->analysis;
    EXPECT_EQ(readFile(out / "r.md"), renderReport(shown, ReportFormat::markdown));
    // The HTML says when it was made, to the minute: the two renders may straddle one.
    const auto undated = [](std::string html) {
        const std::regex made("<time datetime=\"[^\"]*\">[^<]*</time>");
        return std::regex_replace(html, made, "<time/>");
    };
    const std::string exported = readFile(out / "r.html");
    EXPECT_NE(exported.find("<time datetime=\""), std::string::npos);
    EXPECT_EQ(undated(exported), undated(renderReport(shown, ReportFormat::html)));
    const std::string json = readFile(out / "r.json");
    EXPECT_EQ(json, renderReport(shown, ReportFormat::json));
    const auto parsed = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
    EXPECT_FALSE(parsed.is_discarded());
    EXPECT_NE(json.find("q_logits"), std::string::npos);

    // The core refuses to write into a run directory; the window reports it instead of crashing.
    EXPECT_FALSE(w.window.exportReport(q(w.dir / "a" / "r.md"), &error));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_FALSE(std::filesystem::exists(w.dir / "a" / "r.md"));
}

// The verdict of a pair with a missing run (the window itself stays on its start page for such
// a pair: test_recent_pairs.cpp).
TEST(WindowActions, AMissingRunDirectoryTakesNoBranchOfTheTree) {
    TempDir runs;
    uitest::writeMixedPair(runs.path());
    TriageView triage;
    triage.setSnapshot(uitest::finishedSnapshot(analyze(runs / "missing", runs / "b")));
    EXPECT_EQ(triage.snapshot()->analysis->verdict.exitCode, 2);
    auto* tree = triage.verdictPanel()->decisionTree();
    for (QTreeWidgetItemIterator it(tree); *it; ++it)
        EXPECT_FALSE((*it)->data(0, VerdictPanel::OnPathRole).toBool())
            << (*it)->text(0).toStdString();
    auto* warnings = triage.verdictPanel()->findChild<QLabel*>(QStringLiteral("warnings"));
    ASSERT_NE(warnings, nullptr);
    EXPECT_TRUE(warnings->text().contains(QStringLiteral("missing")));
    EXPECT_EQ(triage.matrixModel()->rowCount(), 0);
}

TEST(WindowActions, CopiesTheMarkdownSummary) {
    OpenMixed w;
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    QApplication::clipboard()->clear();
    const QString summary = w.window.statusSummary();
    ASSERT_TRUE(summary.startsWith(QStringLiteral("Compared "))) << summary.toStdString();
    ASSERT_TRUE(w.window.copyMarkdownSummary());
    EXPECT_EQ(QApplication::clipboard()->text().toStdString(),
              reportMarkdown(*w.window.snapshot()->analysis));
    // The confirmation is a passing message: the analysis summary comes back after it.
    EXPECT_EQ(w.window.statusBar()->currentMessage(),
              QStringLiteral("Markdown summary copied to the clipboard"));
    EXPECT_EQ(w.window.statusSummary(), summary);
    w.window.statusBar()->clearMessage(); // what the message's timeout does
    EXPECT_TRUE(w.window.statusBar()->currentMessage().isEmpty());
    EXPECT_EQ(w.window.statusSummary(), summary);
}

TEST(WindowActions, SwapAndReload) {
    OpenMixed w;
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    MatrixModel& m = *w.window.triageView()->matrixModel();
    const QModelIndex i1 = m.indexOf(1, "I");
    EXPECT_EQ(i1.data(MatrixModel::StatusRole).toInt(), static_cast<int>(Status::only_in_a));

    w.window.swapRuns();
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    EXPECT_EQ(w.window.currentPair()->runA, q(w.dir / "b"));
    EXPECT_EQ(m.indexOf(1, "I").data(MatrixModel::StatusRole).toInt(),
              static_cast<int>(Status::only_in_b));

    // Reload reads the files again: a change on disk shows up.
    test::writeDump(w.dir / "a", 0, "g_sampled_h_t", std::vector<float>{9, 9, 9, 9});
    w.window.reload();
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    EXPECT_EQ(m.indexOf(0, "G").data(MatrixModel::StatusRole).toInt(),
              static_cast<int>(Status::diverge));
    EXPECT_EQ(m.firstDivergentRow(), 0);
}

// A pair goes to the recent list once its runs are listed; a window closed before that still
// remembers the pair it was opening.
TEST(WindowActions, APairOpenedJustBeforeTheWindowGoesIsRemembered) {
    TempDir settingsDir, runs;
    uitest::writeMixedPair(runs.path());
    const QString ini = q(settingsDir / "settings.ini");
    {
        MainWindow window({nullptr, ini});
        window.openPair({q(runs / "a"), q(runs / "b")});
    }
    EXPECT_EQ(Settings(ini).recentPairs(), (QList<RunPair>{{q(runs / "a"), q(runs / "b")}}));
}

TEST(WindowActions, RecentPairsAndLayoutPersist) {
    TempDir settingsDir, runs;
    uitest::writeMixedPair(runs.path());
    const QString ini = q(settingsDir / "settings.ini");
    {
        MainWindow window({nullptr, ini});
        window.show();
        window.openPair({q(runs / "a"), q(runs / "b")});
        ASSERT_TRUE(uitest::waitForFinished(window));
        window.openDemo(); // a temporary pair: not remembered
        ASSERT_TRUE(uitest::waitForFinished(window));
        window.close(); // saves geometry and splitters
    }
    Settings settings(ini);
    const QList<RunPair> recent = settings.recentPairs();
    ASSERT_EQ(recent.size(), 1);
    EXPECT_EQ(recent.front(), (RunPair{q(runs / "a"), q(runs / "b")}));
    EXPECT_FALSE(settings.windowGeometry().isEmpty());
    const QByteArray splitters = settings.splitterState();
    ASSERT_FALSE(splitters.isEmpty());
    MainWindow again({nullptr, ini});
    EXPECT_TRUE(again.triageView()->restoreState(splitters));

    // State saved by another layout version is ignored rather than restored.
    {
        QSettings raw(ini, QSettings::IniFormat);
        raw.setValue(QStringLiteral("layout/version"), Settings::kLayoutVersion + 1);
    }
    Settings newer(ini);
    EXPECT_TRUE(newer.splitterState().isEmpty());
    EXPECT_EQ(newer.recentPairs().size(), 1);

    // Re-adding moves a pair to the front without duplicating it; the list is capped.
    for (int i = 0; i < Settings::kMaxRecentPairs + 3; ++i)
        newer.addRecentPair({QStringLiteral("/x/%1").arg(i), QStringLiteral("/y")});
    newer.addRecentPair({q(runs / "a"), q(runs / "b")});
    const auto capped = newer.recentPairs();
    EXPECT_EQ(capped.size(), Settings::kMaxRecentPairs);
    EXPECT_EQ(capped.front().runA, q(runs / "a"));
}

TEST(WindowActions, DroppedFoldersOpenAPair) {
    TempDir runs, settingsDir;
    uitest::writeMixedPair(runs.path());
    EXPECT_EQ(pairFromFolders({q(runs / "a"), q(runs / "b")}),
              (RunPair{q(runs / "a"), q(runs / "b")}));
    EXPECT_EQ(pairFromFolders({q(runs.path())}), (RunPair{q(runs / "a"), q(runs / "b")}));
    EXPECT_FALSE(pairFromFolders({q(runs / "a")}));
    EXPECT_FALSE(pairFromFolders({q(runs / "a" / "step_0_g_sampled_h_t.bin"), q(runs / "b")}));

    MainWindow window({nullptr, q(settingsDir / "s.ini")});
    window.show();
    EXPECT_FALSE(dropFolders(window, {q(runs / "a" / "step_0_g_sampled_h_t.bin")}))
        << "a file is not a run";
    ASSERT_TRUE(dropFolders(window, {q(runs.path())}));
    ASSERT_TRUE(window.currentPair());
    EXPECT_EQ(window.currentPair()->runB, q(runs / "b"));
    ASSERT_TRUE(uitest::waitForFinished(window));
    EXPECT_EQ(window.triageView()->matrixModel()->rowCount(), 3);

    // One plain run folder on the start page, then another: together they are the pair.
    window.closePair();
    ASSERT_TRUE(dropFolders(window, {q(runs / "b")}));
    EXPECT_FALSE(window.currentPair());
    ASSERT_TRUE(dropFolders(window, {q(runs / "a")}));
    ASSERT_TRUE(window.currentPair());
    EXPECT_EQ(window.currentPair()->runA, q(runs / "b"));
    EXPECT_EQ(window.currentPair()->runB, q(runs / "a"));
    ASSERT_TRUE(uitest::waitForFinished(window));
}

namespace {

// Pixels close to the matrix's red family: present only if diverging cells were painted.
int countReddish(const QImage& image) {
    int n = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2) {
            const QColor c = image.pixelColor(x, y);
            if (c.red() > 120 && c.green() < 110 && c.blue() < 110) ++n;
        }
    return n;
}

void expectScreenshot(const std::vector<std::string>& args, const std::filesystem::path& png) {
    std::vector<std::string> argv{DUMPSCOPE_GUI_PATH};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back("--screenshot");
    argv.push_back(png.string());
    TempDir home;
    const auto r = test::runProcess(
        argv, {"QT_QPA_PLATFORM=offscreen", "XDG_CONFIG_HOME=" + home.path().string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    ASSERT_TRUE(std::filesystem::exists(png));
    EXPECT_GT(std::filesystem::file_size(png), 20000u);
    QImage image;
    ASSERT_TRUE(image.load(q(png), "PNG"));
    EXPECT_GE(image.width(), 1000);
    EXPECT_GE(image.height(), 600);
    EXPECT_GT(countReddish(image), 200) << "the divergent cells are not in the picture";
}

} // namespace

TEST(GuiBinary, ScreenshotOfTheDemo) {
    TempDir out;
    expectScreenshot({"--demo"}, out / "demo.png");
}

// The picture is written by the reports' writer: aimed into a run, directly or through a
// symlinked alias of it, it is refused with exit 2 and the run is left as it was.
TEST(GuiBinary, AScreenshotInsideARunIsRefused) {
    TempDir dir, home;
    uitest::writeMixedPair(dir.path());
    const auto before = test::listDir(dir / "b");
    std::filesystem::create_directory_symlink(dir / "b", dir / "alias");
    for (const auto& png : {dir / "b" / "shot.png", dir / "alias" / "shot.png"}) {
        const auto r = test::runProcess(
            {DUMPSCOPE_GUI_PATH, (dir / "a").string(), (dir / "b").string(), "--screenshot",
             png.string()},
            {"QT_QPA_PLATFORM=offscreen", "XDG_CONFIG_HOME=" + home.path().string()});
        EXPECT_EQ(r.exitCode, 2) << r.err;
        EXPECT_NE(r.err.find("cannot write screenshot " + png.string() +
                             ": it is inside a run directory"),
                  std::string::npos)
            << r.err;
    }
    EXPECT_EQ(test::listDir(dir / "b"), before);
}

TEST(GuiBinary, ScreenshotOfTheNoisyHeadSample) {
    TempDir dir;
    if (!test::unpackSample("h200-noisy-head.tar.xz", dir.path()))
        GTEST_SKIP() << "../shared/samples is absent: the real-sample screenshot is not checked";
    expectScreenshot(
        {(dir / "s2_noisy_head" / "a").string(), (dir / "s2_noisy_head" / "b").string()},
        dir / "shot.png");
}

TEST(GuiBinary, RejectsABadSchemaAndHalfAPair) {
    TempDir dir;
    test::writeText(dir / "schema.json", "{ not json");
    const auto bad =
        test::runProcess({DUMPSCOPE_GUI_PATH, "--schema", (dir / "schema.json").string(), "--demo"},
                         {"QT_QPA_PLATFORM=offscreen"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("schema.json"), std::string::npos) << bad.err;
    const auto half =
        test::runProcess({DUMPSCOPE_GUI_PATH, dir.path().string()}, {"QT_QPA_PLATFORM=offscreen"});
    EXPECT_EQ(half.exitCode, 2);
}

namespace {

// Help and version need no window: they answer in the environment `env`.
void expectHelpAndVersionAnswer(const std::vector<std::string>& env) {
    const auto version = test::runProcess({DUMPSCOPE_GUI_PATH, "--version"}, env);
    EXPECT_EQ(version.exitCode, 0) << version.err;
    EXPECT_NE(version.out.find("dumpscope"), std::string::npos) << version.out;
    const auto help = test::runProcess({DUMPSCOPE_GUI_PATH, "--help"}, env);
    EXPECT_EQ(help.exitCode, 0) << help.err;
    // One usage line naming the runs once.
    EXPECT_NE(help.out.find("[options] [RUN_A RUN_B [MORE_RUNS…]]\n"), std::string::npos)
        << help.out;
}

} // namespace

// A DISPLAY that no X server answers (an ssh session's stale variable): Qt would abort in its
// platform plugin (status 134); the window says what happened instead, and help and version,
// which need no display, still answer.
TEST(GuiBinary, AnUnreachableDisplayIsAnErrorNotACrashAndHelpStillAnswers) {
    if (std::filesystem::exists("/tmp/.X11-unix/X99")) GTEST_SKIP() << "an X server is on :99";
    const std::vector<std::string> unreachable{"QT_QPA_PLATFORM=", "DISPLAY=:99",
                                               "WAYLAND_DISPLAY="};
    const auto demo = test::runProcess({DUMPSCOPE_GUI_PATH, "--demo"}, unreachable);
    EXPECT_EQ(demo.exitCode, 2) << demo.err;
    EXPECT_NE(demo.err.find("cannot open the window"), std::string::npos) << demo.err;
    EXPECT_NE(demo.err.find("DISPLAY=:99"), std::string::npos) << demo.err;
    EXPECT_NE(demo.err.find("dumpscope-cli"), std::string::npos) << demo.err;
    expectHelpAndVersionAnswer(unreachable);
}

// Over plain ssh there is no display: Qt's platform plugin would abort. The window's command
// lines say so and exit 2; help, version and a screenshot need no window and still work.
TEST(GuiBinary, WithoutADisplaySaysWhatToDoAndStillAnswersHelpVersionAndScreenshot) {
    const std::vector<std::string> noDisplay{"QT_QPA_PLATFORM=", "DISPLAY=", "WAYLAND_DISPLAY="};
    const auto demo = test::runProcess({DUMPSCOPE_GUI_PATH, "--demo"}, noDisplay);
    EXPECT_EQ(demo.exitCode, 2) << demo.err;
    EXPECT_NE(demo.err.find("no display"), std::string::npos) << demo.err;
    EXPECT_NE(demo.err.find("dumpscope-cli"), std::string::npos) << demo.err;
    expectHelpAndVersionAnswer(noDisplay);

    TempDir out;
    const auto shot = test::runProcess(
        {DUMPSCOPE_GUI_PATH, "--demo", "--screenshot", (out / "demo.png").string()},
        {"QT_QPA_PLATFORM=", "DISPLAY=", "WAYLAND_DISPLAY=",
         "XDG_CONFIG_HOME=" + out.path().string()});
    EXPECT_EQ(shot.exitCode, 0) << shot.err;
    EXPECT_TRUE(std::filesystem::exists(out / "demo.png"));
}

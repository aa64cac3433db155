// An opened pair is in the settings file as soon as its runs are listed (before the analysis
// finishes), and in the Recent menu; a pair whose runs cannot be opened is in neither, and the
// start page says why beside the run that is wrong.
#include "state/settings.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "window/main_window.h"
#include "window/start_page.h"
#include "workers/analysis_worker.h"

#include <QAction>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

using dumpscope::test::TempDir;
namespace uitest = dumpscope::uitest;

namespace {

QString q(const std::filesystem::path& p) {
    return QString::fromStdString(p.string());
}

// The settings file as it is on disk (other QSettings objects of this process would also see
// changes not yet written).
QString onDisk(const QString& ini) {
    QFile file(ini);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

} // namespace

TEST(RecentPairs, AnOpenedPairIsOnDiskOnceItsRunsAreListedAndListedLatestFirst) {
    TempDir settingsDir, first, second;
    uitest::writeMixedPair(first.path());
    uitest::writeMixedPair(second.path());
    const QString ini = q(settingsDir / "settings.ini");
    MainWindow window({nullptr, ini});
    window.openPair({q(first / "a"), q(first / "b")});
    QSignalSpy planned(window.analysisWorker(), &AnalysisWorker::planned);
    ASSERT_TRUE(planned.wait(60000));
    EXPECT_TRUE(onDisk(ini).contains(q(first / "a"))) << "not written once the runs were listed";
    ASSERT_TRUE(uitest::waitForFinished(window));
    window.openPair({q(second / "a"), q(second / "b")});
    ASSERT_TRUE(uitest::waitForFinished(window));
    EXPECT_TRUE(onDisk(ini).contains(q(second / "a")));

    EXPECT_EQ(Settings(ini).recentPairs(), (QList<RunPair>{{q(second / "a"), q(second / "b")},
                                                           {q(first / "a"), q(first / "b")}}));
    auto* menu = window.findChild<QMenu*>(QStringLiteral("recentPairsMenu"));
    ASSERT_NE(menu, nullptr);
    ASSERT_EQ(menu->actions().size(), 2);
    EXPECT_TRUE(menu->actions().front()->text().startsWith(q(second / "a")));
    EXPECT_TRUE(menu->actions().back()->text().startsWith(q(first / "a")));
}

TEST(RecentPairs, APairThatCannotBeOpenedStaysOnTheStartPageWithTheReasonBesideTheRun) {
    TempDir settingsDir, runs;
    uitest::writeMixedPair(runs.path());
    std::filesystem::create_directories(runs / "empty");
    const QString ini = q(settingsDir / "settings.ini");
    MainWindow window({nullptr, ini});
    window.show();
    QSignalSpy failed(&window, &MainWindow::analysisFailed);
    window.openPair({q(runs / "a"), q(runs / "empty")});
    ASSERT_TRUE(failed.wait(60000));
    StartPage* page = window.startPage();
    EXPECT_TRUE(page->isVisible());
    EXPECT_FALSE(window.currentPair().has_value());
    EXPECT_TRUE(page->runErrorA().isEmpty());
    EXPECT_TRUE(page->runErrorB().contains(QStringLiteral("no dump files")))
        << page->runErrorB().toStdString();
    EXPECT_TRUE(failed.front().front().toString().contains(QStringLiteral("no dump files")));
    auto* fieldB = page->findChild<QLineEdit*>(QStringLiteral("runB"));
    ASSERT_NE(fieldB, nullptr);
    EXPECT_EQ(fieldB->text(), q(runs / "empty")) << "the pair is kept in the fields to correct";
    EXPECT_FALSE(onDisk(ini).contains(q(runs / "empty")));
    EXPECT_TRUE(Settings(ini).recentPairs().isEmpty());

    // A missing folder is said beside its own field.
    window.openPair({q(runs / "missing"), q(runs / "b")});
    ASSERT_TRUE(failed.wait(60000));
    EXPECT_FALSE(page->runErrorA().isEmpty());
    EXPECT_TRUE(page->runErrorB().isEmpty());

    // Correcting the field clears its error, and Enter in it compares.
    fieldB->setFocus();
    auto* fieldA = page->findChild<QLineEdit*>(QStringLiteral("runA"));
    ASSERT_NE(fieldA, nullptr);
    QTest::keyClicks(fieldA, QStringLiteral("x"));
    EXPECT_TRUE(page->runErrorA().isEmpty());
    fieldA->setText(q(runs / "a"));
    QTest::keyClick(fieldA, Qt::Key_Return);
    ASSERT_TRUE(uitest::waitForFinished(window));
    EXPECT_EQ(window.currentPair(), (RunPair{q(runs / "a"), q(runs / "b")}));
    EXPECT_EQ(Settings(ini).recentPairs(), (QList<RunPair>{{q(runs / "a"), q(runs / "b")}}));
}

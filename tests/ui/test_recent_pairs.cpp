// An opened pair is in the settings file by the time openPair returns, and listed in the Recent
// menu: a window killed right after an open still remembers the pair.
#include "state/settings.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "window/main_window.h"

#include <QAction>
#include <QFile>
#include <QMenu>

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

TEST(RecentPairs, AnOpenedPairIsOnDiskWhenOpenPairReturnsAndListedLatestFirst) {
    TempDir settingsDir, first, second;
    uitest::writeMixedPair(first.path());
    uitest::writeMixedPair(second.path());
    const QString ini = q(settingsDir / "settings.ini");
    MainWindow window({nullptr, ini});
    window.openPair({q(first / "a"), q(first / "b")});
    EXPECT_TRUE(onDisk(ini).contains(q(first / "a"))) << "not written when openPair returned";
    ASSERT_TRUE(uitest::waitForFinished(window));
    window.openPair({q(second / "a"), q(second / "b")});
    EXPECT_TRUE(onDisk(ini).contains(q(second / "a")));
    ASSERT_TRUE(uitest::waitForFinished(window));

    EXPECT_EQ(Settings(ini).recentPairs(), (QList<RunPair>{{q(second / "a"), q(second / "b")},
                                                           {q(first / "a"), q(first / "b")}}));
    auto* menu = window.findChild<QMenu*>(QStringLiteral("recentPairsMenu"));
    ASSERT_NE(menu, nullptr);
    ASSERT_EQ(menu->actions().size(), 2);
    EXPECT_TRUE(menu->actions().front()->text().startsWith(q(second / "a")));
    EXPECT_TRUE(menu->actions().back()->text().startsWith(q(first / "a")));
}

// The UI tests' main: widgets need a QApplication, and tests must run headless, so the
// offscreen platform is chosen before the application object exists.
#include <QApplication>
#include <QStandardPaths>

#include <gtest/gtest.h>

#include <cstdlib>

int main(int argc, char** argv) {
    setenv("QT_QPA_PLATFORM", "offscreen", 1);
    // Keeps QSettings and other per-user state of the tests away from the user's own.
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("dumpscope-tests"));
    QApplication::setApplicationName(QStringLiteral("dumpscope-tests"));
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}

// The real dumpscope binary opening a pair with a --schema it must refuse: it says why on
// stderr and exits 2 before a window exists, instead of hanging on a FIFO, aborting on
// /dev/zero or showing an analysis whose dataflow has a cycle ("only unclassified files
// diverge"). --screenshot makes an accepted schema end the run too, with exit 0 and a picture,
// so a regression fails here rather than waiting for the timeout.
#include "test_support.h"

#include "startup/startup_error.h"

#include "dumpscope/scan.h"
#include "dumpscope/schema.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QMessageBox>
#include <QTimer>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <sys/stat.h>

using dumpscope::test::TempDir;

TEST(GuiBinary, APairWithASchemaItMustRefuseSaysWhyAndExits) {
    TempDir dir;
    dumpscope::test::writeDump(dir / "a", 0, "a_x", std::vector<float>{1, 2});
    dumpscope::test::writeDump(dir / "b", 0, "a_x", std::vector<float>{1, 3});
    dumpscope::test::writeDump(dir / "a", 0, "b_y", std::vector<float>{1});
    dumpscope::test::writeDump(dir / "b", 0, "b_y", std::vector<float>{2});
    ASSERT_EQ(::mkfifo((dir / "fifo.json").c_str(), 0600), 0);
    std::filesystem::create_directory(dir / "schemas");
    std::filesystem::create_directory(dir / "sch\nVERDICT");
    dumpscope::test::writeText(dir / "cycle.json", R"js({"groups": [
  {"id": "A", "buffers": [{"name": "x", "file": "a_x", "dtype": "f32"}]},
  {"id": "B", "buffers": [{"name": "y", "file": "b_y", "dtype": "f32"}]}],
 "dataflow": [["A", "B"], ["B", "A"]]})js");

    const std::string d = dir.path().string();
    const std::vector<std::pair<std::string, std::string>> cases{
        {d + "/fifo.json", d + "/fifo.json: the schema file is a FIFO, not a regular file"},
        {"/dev/zero", "/dev/zero: the schema file is a character device, not a regular file"},
        {d + "/schemas", d + "/schemas: the schema file is a directory, not a regular file"},
        {d + "/cycle.json", d + "/cycle.json:4:27: dataflow has a cycle: A → B → A"},
        // A name that would end the line and forge another is shown, not obeyed.
        {d + "/sch\nVERDICT",
         d + "/sch\\x0AVERDICT: the schema file is a directory, not a regular file"},
    };
    TempDir home;
    for (const auto& [schema, message] : cases) {
        SCOPED_TRACE(schema);
        const auto r = dumpscope::test::runProcess(
            {DUMPSCOPE_GUI_PATH, d + "/a", d + "/b", "--schema", schema, "--screenshot",
             (home / "shot.png").string()},
            {"QT_QPA_PLATFORM=offscreen", "XDG_CONFIG_HOME=" + home.path().string()}, 30);
        EXPECT_EQ(r.exitCode, 2) << r.err;
        // Qt may say something of its own first (XDG_RUNTIME_DIR not set); the message ends it.
        const std::string said = "dumpscope: schema refused: " + message + "\n";
        EXPECT_TRUE(r.err.size() >= said.size() &&
                    r.err.compare(r.err.size() - said.size(), said.size(), said) == 0)
            << r.err;
        EXPECT_FALSE(std::filesystem::exists(home / "shot.png")) << "the window was shown";
    }
}

// Started from a desktop launcher, stderr goes nowhere: where windows are shown, the reason the
// window cannot start also opens in a dialog, as plain text whatever the names in it hold.
TEST(GuiStartupError, OpensADialogWithThePlainMessageWhereWindowsAreShown) {
    const QString message =
        QStringLiteral("/runs/<b>x</b>: the schema file is a FIFO, not a regular file");
    QString shownText;
    Qt::TextFormat format = Qt::AutoText;
    QTimer::singleShot(0, [&] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        ASSERT_NE(box, nullptr) << "no dialog opened";
        shownText = box->text();
        format = box->textFormat();
        box->reject();
    });
    reportStartupError(message, true);
    EXPECT_EQ(shownText, message);
    EXPECT_EQ(format, Qt::PlainText);
    // The tests run offscreen, where no one could close a dialog: the binary shows none there.
    EXPECT_FALSE(platformShowsWindows());
}

// The messages the window's start refuses a real schema file and layout with open in the dialog
// as they are: the file, the line and column, and what is wrong; the layout and why it cannot be
// used. Each dialog is closed by the test; nothing crashes.
TEST(GuiStartupError, ARefusedSchemaOrLayoutOpensInTheDialogNamingWhatIsWrong) {
    TempDir dir;
    const auto schema = dir / "bad schema.json";
    dumpscope::test::writeText(schema, "{\"groups\": [\n  {\"id\": \"G\", \"buffers\": 7}]}");
    QString schemaMessage;
    try {
        dumpscope::loadSchemaFile(schema.string());
        FAIL() << "the schema was accepted";
    } catch (const std::exception& e) {
        schemaMessage = QString::fromUtf8(e.what());
    }
    const QString layoutMessage =
        QStringLiteral("--layout step_{stp}.pt: ") +
        QString::fromStdString(dumpscope::layoutPatternError("step_{stp}.pt"));
    for (const QString& message : {schemaMessage, layoutMessage}) {
        SCOPED_TRACE(message.toStdString());
        QString shown;
        QTimer::singleShot(0, [&] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            ASSERT_NE(box, nullptr) << "no dialog opened";
            EXPECT_EQ(box->objectName(), QStringLiteral("startupError"));
            shown = box->text();
            box->reject();
        });
        reportStartupError(message, true);
        EXPECT_EQ(shown, message);
    }
    EXPECT_TRUE(schemaMessage.startsWith(QString::fromStdString(schema.string()) + ":2:"))
        << schemaMessage.toStdString();
    EXPECT_TRUE(schemaMessage.contains(QStringLiteral("buffers"))) << schemaMessage.toStdString();
    EXPECT_TRUE(layoutMessage.contains(QStringLiteral("{stp}"))) << layoutMessage.toStdString();
}

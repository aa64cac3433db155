// The window on runs holding tensor files their readers refuse: the refusal is in the pair's
// verdict, and when nothing at all could be read a dialog says which files and why (a window
// started from a desktop launcher has no stderr to read).
#include "panels/verdict_panel.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "window/main_window.h"
#include "window/triage_view.h"

#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using dumpscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

QString q(const fs::path& p) {
    return QString::fromStdString(p.string());
}

// A version 1.0 .npy of four float32 elements whose header names the type `descr`.
std::string npy(const std::string& descr) {
    std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (4,), }";
    while ((10 + dict.size() + 1) % 64 != 0)
        dict += ' ';
    dict += '\n';
    std::string out("\x93NUMPY\x01\x00", 8);
    out += static_cast<char>(dict.size() & 0xff);
    out += static_cast<char>(dict.size() >> 8);
    return out + dict + std::string(16, '\x01');
}

void write(const fs::path& path, const std::string& bytes) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
}

struct Window {
    TempDir runs, settingsDir;
    MainWindow window{{nullptr, q(settingsDir / "settings.ini")}};
    Window() { window.show(); }
    void open() {
        window.openPair({q(runs / "a"), q(runs / "b")});
        ASSERT_TRUE(dumpscope::uitest::waitForFinished(window));
    }
    QString headline() {
        auto* l = window.triageView()->verdictPanel()->findChild<QLabel*>(
            QStringLiteral("verdictHeadline"));
        return l ? l->text() : QString();
    }
    // A label's or a text box's text in the verdict panel, by object name.
    QString text(const char* name) {
        QWidget* panel = window.triageView()->verdictPanel();
        if (auto* l = panel->findChild<QLabel*>(QString::fromLatin1(name))) return l->text();
        if (auto* t = panel->findChild<QPlainTextEdit*>(QString::fromLatin1(name)))
            return t->toPlainText();
        return {};
    }
    QMessageBox* dialog() {
        return window.findChild<QMessageBox*>(QStringLiteral("unreadPairDialog"));
    }
};

} // namespace

TEST(WindowRefusedFiles, NothingReadableOpensADialogNamingEachFile) {
    Window w;
    for (const char* run : {"a", "b"}) {
        write(w.runs / run / "step_1_x.npy", npy("<f5"));
        write(w.runs / run / "step_1_y.npy", npy("|O"));
    }
    w.open();
    QMessageBox* box = w.dialog();
    ASSERT_NE(box, nullptr);
    EXPECT_TRUE(box->isVisible());
    const QString text = box->text();
    EXPECT_TRUE(text.contains(q(w.runs / "b" / "step_1_x.npy"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("'<f5' is not supported"))) << text.toStdString();
    EXPECT_TRUE(text.contains(q(w.runs / "a" / "step_1_y.npy"))) << text.toStdString();
    EXPECT_FALSE(w.headline().contains(QStringLiteral("match"))) << w.headline().toStdString();
}

TEST(WindowRefusedFiles, ARefusedFileBesideReadableOnesIsInTheVerdictWithoutADialog) {
    Window w;
    for (const char* run : {"a", "b"})
        write(w.runs / run / "step_1_ctl.npy", npy("<f4"));
    write(w.runs / "a" / "step_1_x.npy", npy("<f4"));
    write(w.runs / "b" / "step_1_x.npy", npy(">f4"));
    w.open();
    EXPECT_EQ(w.dialog(), nullptr);
    EXPECT_EQ(w.headline(), QStringLiteral("Input missing or malformed (exit 2)"));
    const QString interpretation = w.text("interpretation");
    EXPECT_TRUE(
        interpretation.startsWith(QStringLiteral("Not judged: some buffers could not be read")))
        << interpretation.toStdString();
    const QString warnings = w.text("warnings");
    EXPECT_TRUE(warnings.contains(QStringLiteral("Not read: ") + q(w.runs / "b" / "step_1_x.npy") +
                                  QStringLiteral(": byte ")))
        << warnings.toStdString();
    EXPECT_TRUE(warnings.contains(QStringLiteral("big-endian data (>f4) is not supported")))
        << warnings.toStdString();
}

// A pair holding a malformed (ragged) file and an unreadable one. The window shows an
// error cell for each whose tooltip names the file and what is wrong, the buffer list gives the
// message, and every other cell is still analysed. The unreadable file is made so by the pread
// interposer (tests/core/io_fault), which works as root too; a chmod 000 file is added when not
// root.
#include "io_fault.h"
#include "models/buffer_list_model.h"
#include "models/matrix_model.h"
#include "panels/buffer_panel.h"
#include "panels/verdict_panel.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "window/main_window.h"
#include "window/triage_view.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>

#include <gtest/gtest.h>

#include <filesystem>

using namespace dumpscope;
using namespace dumpscope::test;
namespace fault = dumpscope::test::io_fault;

namespace {

QString q(const std::filesystem::path& p) {
    return QString::fromStdString(p.string());
}

struct ErrorPair {
    TempDir runs, settingsDir;
    MainWindow window{{nullptr, q(settingsDir / "settings.ini")}};
    ErrorPair() {
        uitest::writeMixedPair(runs.path()); // step 2: K's outcome_w in B is 6 bytes
        window.show();
    }
    ~ErrorPair() { fault::disarm(); }
    MatrixModel& matrix() { return *window.triageView()->matrixModel(); }
    int status(quint64 step, const char* group) {
        return matrix().indexOf(step, group).data(MatrixModel::StatusRole).toInt();
    }
    QString toolTip(quint64 step, const char* group) {
        return matrix().indexOf(step, group).data(Qt::ToolTipRole).toString();
    }
    void open() {
        window.openPair({q(runs / "a"), q(runs / "b")});
        ASSERT_TRUE(uitest::waitForFinished(window));
    }
    // The rest of the mixed pair, analysed as ever.
    void expectOtherCellsAnalysed() {
        EXPECT_EQ(status(0, "G"), int(Status::equal));
        EXPECT_EQ(status(0, "H"), int(Status::equal));
        EXPECT_EQ(status(1, "H"), int(Status::diverge));
        EXPECT_EQ(status(1, "I"), int(Status::only_in_a));
        EXPECT_EQ(status(2, "H"), int(Status::diverge));
        EXPECT_EQ(status(2, "G"), int(Status::equal));
        EXPECT_EQ(matrix().firstDivergentRow(), 1);
    }
};

} // namespace

TEST(ErrorCells, RaggedAndUnreadableFilesAreErrorCellsNamingTheFile) {
    ErrorPair p;
    const auto unreadable = p.runs / "b" / "step_1_k_outcome_labels.bin";
    fault::arm(unreadable, 0, fault::Action::eio);
    p.open();
    ASSERT_TRUE(fault::fired());
    QAbstractItemModelTester tester(&p.matrix(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);

    EXPECT_EQ(p.status(2, "K"), int(Status::error));
    const QString ragged = p.toolTip(2, "K");
    EXPECT_TRUE(ragged.contains(q(p.runs / "b" / "step_2_k_outcome_w.bin").toHtmlEscaped()))
        << ragged.toStdString();
    EXPECT_TRUE(ragged.contains(QStringLiteral("not a multiple of the element size")))
        << ragged.toStdString();

    EXPECT_EQ(p.status(1, "K"), int(Status::error));
    const QString io = p.toolTip(1, "K");
    EXPECT_TRUE(io.contains(q(unreadable).toHtmlEscaped() +
                            QStringLiteral(": read error at byte 0: Input/output error")))
        << io.toStdString();
    p.expectOtherCellsAnalysed();

    // Selecting the cell lists the buffer with its message.
    ASSERT_TRUE(p.window.triageView()->selectCell(1, QStringLiteral("K")));
    BufferListModel* buffers = p.window.triageView()->bufferPanel()->model();
    const int row = buffers->rowOf(QStringLiteral("outcome_labels"));
    ASSERT_GE(row, 0);
    EXPECT_EQ(buffers->index(row, 0).data(BufferListModel::StatusRole).toInt(), int(Status::error));
    EXPECT_TRUE(buffers->index(row, 0).data(Qt::ToolTipRole).toString().contains(q(unreadable)));
}

TEST(ErrorCells, AFileWithoutReadPermissionIsAnErrorCell) {
    if (runningAsRoot())
        GTEST_SKIP() << "running as root: chmod 000 does not stop root reading (the interposed "
                        "I/O error test above covers an unreadable file)";
    ErrorPair p;
    const auto locked = p.runs / "a" / "step_0_g_sampled_h_t.bin";
    std::filesystem::permissions(locked, std::filesystem::perms::none);
    p.open();
    EXPECT_EQ(p.status(0, "G"), int(Status::error));
    EXPECT_TRUE(p.toolTip(0, "G").contains(q(locked).toHtmlEscaped() +
                                           QStringLiteral(": cannot open: Permission denied")))
        << p.toolTip(0, "G").toStdString();
    EXPECT_EQ(p.status(1, "H"), int(Status::diverge));
    EXPECT_EQ(p.status(2, "K"), int(Status::error));
}

// A run folder without a single dump: nothing is compared, and the verdict panel says so (and
// why) instead of "all equal" or the reference's "input missing or malformed". (The window
// itself stays on its start page for such a pair: test_recent_pairs.cpp.)
TEST(ErrorCells, ARunWithoutDumpsIsNotComparedAndTheVerdictSaysWhy) {
    ErrorPair p;
    std::filesystem::create_directories(p.runs / "empty");
    const SnapshotPtr snapshot = uitest::finishedSnapshot(analyze(p.runs / "a", p.runs / "empty"));
    const Analysis& analysis = *snapshot->analysis;
    EXPECT_EQ(analysis.verdict.decisionCase, DecisionCase::not_compared);
    VerdictPanel panel;
    panel.setSnapshot(snapshot);
    VerdictPanel* verdict = &panel;
    auto* headline = verdict->findChild<QLabel*>(QStringLiteral("verdictHeadline"));
    ASSERT_NE(headline, nullptr);
    EXPECT_EQ(headline->text(),
              QStringLiteral("Not compared: a run could not be read: its directory is missing, "
                             "unreadable or holds no dumps, or its capture log was refused (the "
                             "error says why). (exit 2)"));
    EXPECT_EQ(verdict->interpretation().toStdString(), analysis.verdict.text);
    auto* rootCause = verdict->findChild<QLabel*>(QStringLiteral("rootCause"));
    ASSERT_NE(rootCause, nullptr);
    EXPECT_EQ(rootCause->text(), QStringLiteral("none: nothing was compared"));
    auto* warnings = verdict->findChild<QLabel*>(QStringLiteral("warnings"));
    ASSERT_NE(warnings, nullptr);
    EXPECT_TRUE(warnings->text().contains(QStringLiteral("no dump files")))
        << warnings->text().toStdString();
    QTreeWidget* tree = verdict->decisionTree();
    for (QTreeWidgetItemIterator it(tree); *it; ++it)
        EXPECT_FALSE((*it)->data(0, VerdictPanel::OnPathRole).toBool())
            << (*it)->text(0).toStdString();
}

// The window on pairs with buffers that have no pair result: what the verdict panel's headline,
// warnings, culprit table and root cause say, and how the matrix marks the unjudged group.
#include "models/matrix_model.h"
#include "panels/verdict_panel.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "widgets/matrix_view.h"
#include "window/main_window.h"
#include "window/triage_view.h"

#include "run_fixture.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QTableView>

#include <gtest/gtest.h>

#include <filesystem>

using namespace dumpscope;
using dumpscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

QString q(const fs::path& p) {
    return QString::fromStdString(p.string());
}

fs::path dump(const TempDir& dir, const char* run, std::uint64_t step, const std::string& rest) {
    return dir / run / ("step_" + std::to_string(step) + "_" + rest + ".bin");
}

struct Window {
    TempDir runs, settingsDir;
    MainWindow window{{nullptr, q(settingsDir / "settings.ini")}};
    Window() { window.show(); }
    void open() {
        window.openPair({q(runs / "a"), q(runs / "b")});
        ASSERT_TRUE(uitest::waitForFinished(window));
    }
    VerdictPanel& panel() { return *window.triageView()->verdictPanel(); }
    QString label(const char* name) {
        auto* l = panel().findChild<QLabel*>(QString::fromLatin1(name));
        return l ? l->text() : QStringLiteral("<no label %1>").arg(QString::fromLatin1(name));
    }
    bool warningsShown() {
        auto* l = panel().findChild<QLabel*>(QStringLiteral("warnings"));
        return l && l->isVisible();
    }
    QString culprit(int row) {
        auto* t = panel().findChild<QTableView*>(QStringLiteral("culpritTable"));
        return t ? t->model()->index(row, 1).data().toString() : QString();
    }
    MatrixModel& matrix() { return *window.triageView()->matrixModel(); }
    QVariant cell(quint64 step, const char* group, int role) {
        return matrix().indexOf(step, group).data(role);
    }
};

} // namespace

TEST(WindowVerdictUnknown, AMissingCulpritIsNotJudgedAndJIsNotBlamed) {
    Window w;
    test::writeRunPair(w.runs, {0, 1, 2});
    test::perturb(w.runs, 1, "h_q_logits");
    test::perturb(w.runs, 1, "i_cfc_grad_b_scratch");
    test::perturb(w.runs, 1, "j_grad_h_t_q");
    fs::remove(dump(w.runs, "a", 1, "h_q_logits"));
    w.open();
    QAbstractItemModelTester tester(&w.matrix());

    EXPECT_TRUE(w.label("verdictHeadline").contains(QStringLiteral("1 buffer(s) in one run only")))
        << w.label("verdictHeadline").toStdString();
    EXPECT_EQ(w.culprit(0), QStringLiteral("EQUAL"));
    EXPECT_EQ(w.culprit(1), QStringLiteral("NOT JUDGED — q_logits only in run B"));
    EXPECT_TRUE(w.culprit(3).startsWith(QStringLiteral("DIVERGE in grad_h_t_q")));

    const QString root = w.label("rootCause");
    EXPECT_TRUE(root.contains(QStringLiteral("not determined"))) << root.toStdString();
    EXPECT_TRUE(root.contains(QStringLiteral("group H (head fwd outputs) could not be judged: "
                                             "q_logits only in run B")))
        << root.toStdString();
    EXPECT_FALSE(root.contains(QStringLiteral("rc:"))) << root.toStdString(); // nothing to link
    EXPECT_TRUE(w.warningsShown());
    EXPECT_TRUE(w.label("warnings")
                    .contains(QStringLiteral("1 buffer(s) in one run only were not "
                                             "compared")));
    EXPECT_TRUE(w.label("warnings").contains(QStringLiteral("Root cause not determined")));

    // The matrix: H at step 1 is marked as the unknown input; J is no root cause.
    EXPECT_TRUE(w.cell(1, "H", MatrixModel::NotJudgedRole).toBool());
    EXPECT_TRUE(w.cell(1, "H", MatrixModel::UnjudgedInputRole).toBool());
    EXPECT_TRUE(w.cell(1, "H", Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("<b>not judged</b>: q_logits only in run B")));
    EXPECT_FALSE(w.cell(1, "J", MatrixModel::RootCauseRole).toBool());
    EXPECT_FALSE(w.cell(1, "J", MatrixModel::NotJudgedRole).toBool());
    EXPECT_FALSE(w.cell(1, "G", MatrixModel::NotJudgedRole).toBool());
    EXPECT_FALSE(w.cell(0, "H", MatrixModel::NotJudgedRole).toBool()); // not the culprit step
    // The window opens on the input that could not be judged, where a root cause would be.
    EXPECT_EQ(w.window.triageView()->matrixView()->currentIndex(), w.matrix().indexOf(1, "H"));
}

TEST(WindowVerdictUnknown, TheCulpritInPlaceIsBlamedAsEver) {
    Window w;
    test::writeRunPair(w.runs, {0, 1});
    test::perturb(w.runs, 1, "h_q_logits");
    test::perturb(w.runs, 1, "j_grad_h_t_q");
    w.open();
    EXPECT_EQ(w.culprit(1), QStringLiteral("DIVERGE in q_logits"));
    EXPECT_TRUE(w.cell(1, "H", MatrixModel::RootCauseRole).toBool());
    EXPECT_FALSE(w.cell(1, "H", MatrixModel::UnjudgedInputRole).toBool());
    EXPECT_FALSE(w.label("rootCause").contains(QStringLiteral("not determined")));
    EXPECT_FALSE(w.label("verdictHeadline").contains(QStringLiteral("one run only")));
}

TEST(WindowVerdictUnknown, AMatchWithOneSidedBuffersIsNotAllEqual) {
    Window w;
    test::writeRunPair(w.runs, {0, 1});
    fs::remove(dump(w.runs, "b", 1, "k_outcome_w"));
    w.open();
    const QString headline = w.label("verdictHeadline");
    EXPECT_FALSE(headline.startsWith(QStringLiteral("All buffers equal")))
        << headline.toStdString();
    EXPECT_EQ(headline, QStringLiteral("Buffers in both runs equal at every step, but 1 buffer(s) "
                                       "in one run only were not compared (exit 0)"));
    EXPECT_TRUE(w.warningsShown());
}

TEST(WindowVerdictUnknown, RunsThatShareNoBufferAreNotCompared) {
    Window w;
    test::writeRunPair(w.runs, {0, 1});
    for (const auto& g : defaultSchema().groups)
        for (const auto& b : g.buffers) {
            fs::remove(dump(w.runs, "a", 1, b.file));
            fs::remove(dump(w.runs, "b", 0, b.file));
        }
    w.open();
    EXPECT_EQ(w.label("verdictHeadline"),
              QStringLiteral("Not compared: no buffer is in both runs. (exit 2)"));
    EXPECT_EQ(w.label("rootCause"), QStringLiteral("none: nothing was compared"));
}

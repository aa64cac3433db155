// The window's keyboard: Ctrl+O, Ctrl+E, F5, Ctrl+F, N / Shift+N pressed on the window (not on
// one panel), and the find-a-buffer field: filtering the cell's list and jumping to a cell.
#include "models/buffer_list_model.h"
#include "models/buffer_search.h"
#include "models/matrix_model.h"
#include "panels/buffer_panel.h"
#include "panels/element_panel.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "widgets/matrix_view.h"
#include "window/main_window.h"
#include "window/start_page.h"
#include "window/triage_view.h"
#include "workers/buffer_names.h"

#include <QAction>
#include <QApplication>
#include <QCompleter>
#include <QHeaderView>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStringListModel>
#include <QTableView>
#include <QTest>
#include <QTimer>

#include <gtest/gtest.h>

using namespace dumpscope;
using dumpscope::test::TempDir;
using dumpscope::test::writeDump;

namespace {

QString q(const std::filesystem::path& p) {
    return QString::fromStdString(p.string());
}

// Step 0: H's q_logits differs at elements 10, 40 and 70 (the root cause), pi_logits and
// v_pred equal, G equal. Step 1: everything equal, and I's cfc_grad_b_scratch only there.
void writeNavigationPair(const std::filesystem::path& dir) {
    std::vector<float> base(100);
    for (std::size_t i = 0; i < base.size(); ++i)
        base[i] = static_cast<float>(i) * 0.25f;
    std::vector<float> changed = base;
    for (std::size_t i : {10, 40, 70})
        changed[i] += 1.0f;
    for (const char* run : {"a", "b"}) {
        const auto r = dir / run;
        for (std::uint64_t step : {0, 1}) {
            writeDump(r, step, "g_sampled_h_t", base);
            writeDump(r, step, "h_pi_logits", base);
            writeDump(r, step, "h_v_pred", base);
        }
        writeDump(r, 0, "h_q_logits", std::string(run) == "a" ? base : changed);
        writeDump(r, 1, "h_q_logits", base);
        writeDump(r, 1, "i_cfc_grad_b_scratch", base);
    }
}

struct OpenWindow {
    TempDir dir;
    TempDir settingsDir;
    MainWindow window{{nullptr, q(settingsDir / "settings.ini")}};
    OpenWindow() {
        writeNavigationPair(dir.path());
        window.show();
        window.activateWindow();
        EXPECT_TRUE(QTest::qWaitForWindowActive(&window));
        window.openPair({q(dir / "a"), q(dir / "b")});
        EXPECT_TRUE(uitest::waitForFinished(window));
    }
    TriageView& triage() { return *window.triageView(); }
    QAction* actionWithShortcut(const QKeySequence& keys) {
        for (QAction* a : window.findChildren<QAction*>())
            if (a->shortcut() == keys) return a;
        return nullptr;
    }
    QString currentCell() {
        const QModelIndex i = triage().matrixView()->currentIndex();
        return QStringLiteral("%1/%2")
            .arg(i.data(MatrixModel::StepRole).toULongLong())
            .arg(triage()
                     .matrixModel()
                     ->headerData(i.column(), Qt::Horizontal, MatrixModel::GroupRole)
                     .toString());
    }
    QStringList listedBuffers() {
        QStringList names;
        const auto* proxy = triage().bufferPanel()->proxy();
        for (int r = 0; r < proxy->rowCount(); ++r)
            names << proxy->index(r, BufferListModel::NameColumn).data().toString();
        return names;
    }
};

// Closes the modal dialog an action opens (QFileDialog::exec would wait for a user).
void closeModalDialogSoon() {
    auto* timer = new QTimer;
    QObject::connect(timer, &QTimer::timeout, timer, [timer] {
        if (QWidget* modal = QApplication::activeModalWidget()) {
            modal->close();
            timer->deleteLater();
        }
    });
    timer->start(10);
}

} // namespace

TEST(Shortcuts, CtrlOShowsTheStartPage) {
    OpenWindow w;
    ASSERT_FALSE(w.window.startPage()->isVisible());
    QTest::keyClick(&w.window, Qt::Key_O, Qt::ControlModifier);
    EXPECT_TRUE(w.window.startPage()->isVisible());
}

TEST(Shortcuts, CtrlEOpensTheExportDialog) {
    OpenWindow w;
    QAction* exportAction = w.actionWithShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    ASSERT_NE(exportAction, nullptr);
    QSignalSpy triggered(exportAction, &QAction::triggered);
    closeModalDialogSoon();
    QTest::keyClick(&w.window, Qt::Key_E, Qt::ControlModifier);
    EXPECT_EQ(triggered.count(), 1);
}

TEST(Shortcuts, F5ReloadsThePair) {
    OpenWindow w;
    QSignalSpy finished(&w.window, &MainWindow::analysisFinished);
    QTest::keyClick(&w.window, Qt::Key_F5);
    EXPECT_TRUE(w.window.isAnalysing() || finished.count() > 0);
    EXPECT_TRUE(finished.count() > 0 || finished.wait(120000));
    EXPECT_EQ(w.window.snapshot()->analysis->buffers.size(), 9u);
}

TEST(Shortcuts, CtrlFFocusesTheBufferSearchFromAnywhere) {
    OpenWindow w;
    w.triage().matrixView()->setFocus();
    QTest::keyClick(&w.window, Qt::Key_F, Qt::ControlModifier);
    EXPECT_EQ(QApplication::focusWidget(), w.triage().bufferSearch());
}

TEST(Shortcuts, NAndShiftNMoveThroughDifferencesFromTheMatrix) {
    OpenWindow w;
    ASSERT_EQ(w.currentCell(), QStringLiteral("0/H")); // the root cause
    ASSERT_TRUE(w.triage().bufferPanel()->selectBuffer(QStringLiteral("q_logits")));
    ElementPanel* elements = w.triage().elementPanel();
    w.triage().matrixView()->setFocus();
    QTest::keyClick(&w.window, Qt::Key_N);
    EXPECT_EQ(elements->currentElement(), std::optional<quint64>(10));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_N);
    EXPECT_EQ(elements->currentElement(), std::optional<quint64>(40));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_N, Qt::ShiftModifier);
    EXPECT_EQ(elements->currentElement(), std::optional<quint64>(10));
    // In the element table itself, where the panel used to own N, it still moves.
    elements->view()->setFocus();
    QTest::keyClick(elements->view(), Qt::Key_N);
    EXPECT_EQ(elements->currentElement(), std::optional<quint64>(40));
}

TEST(Shortcuts, CtrlDigitsReturnTheKeyboardToAPaneAfterTabLeftTheTable) {
    OpenWindow w;
    ElementPanel* elements = w.triage().elementPanel();
    elements->view()->setFocus();
    QTest::keyClick(elements->view(), Qt::Key_Tab);
    ASSERT_NE(QApplication::focusWidget(), elements->view());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_1, Qt::ControlModifier);
    EXPECT_EQ(QApplication::focusWidget(), w.triage().matrixView());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_2, Qt::ControlModifier);
    EXPECT_EQ(QApplication::focusWidget(), w.triage().bufferPanel()->view());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_3, Qt::ControlModifier);
    EXPECT_EQ(QApplication::focusWidget(), elements->view());
}

TEST(Shortcuts, NTypedInTheSearchFieldIsText) {
    OpenWindow w;
    ASSERT_TRUE(w.triage().bufferPanel()->selectBuffer(QStringLiteral("q_logits")));
    BufferSearch* search = w.triage().bufferSearch();
    search->activate();
    QTest::keyClick(search, Qt::Key_N);
    EXPECT_EQ(search->text(), QStringLiteral("n"));
    EXPECT_EQ(w.triage().elementPanel()->currentElement(), std::nullopt);
}

TEST(BufferSearch, TypingFiltersTheCellsBuffers) {
    OpenWindow w;
    ASSERT_EQ(w.listedBuffers(), (QStringList{"q_logits", "pi_logits", "v_pred"}));
    BufferSearch* search = w.triage().bufferSearch();
    QTest::keyClicks(search, QStringLiteral("LOGITS"));
    EXPECT_EQ(w.listedBuffers(), (QStringList{"q_logits", "pi_logits"}));
    search->setText(QStringLiteral("v_p"));
    EXPECT_EQ(w.listedBuffers(), (QStringList{"v_pred"}));
    search->clear();
    EXPECT_EQ(w.listedBuffers().size(), 3);
}

TEST(BufferSearch, AFilterCarriedIntoAnotherCellIsSaidInTheListsTitle) {
    OpenWindow w;
    BufferPanel* panel = w.triage().bufferPanel();
    EXPECT_FALSE(panel->title().contains(QStringLiteral("filtered")));
    w.triage().bufferSearch()->setText(QStringLiteral("logits"));
    EXPECT_TRUE(panel->title().contains(QStringLiteral("filtered by “logits”: 2 of 3 shown")))
        << panel->title().toStdString();
    // Another cell keeps the filter, and says so with its own counts.
    ASSERT_TRUE(w.triage().selectCell(1, QStringLiteral("I")));
    EXPECT_TRUE(w.listedBuffers().isEmpty());
    EXPECT_TRUE(panel->title().startsWith(QStringLiteral("Step 1 · I")))
        << panel->title().toStdString();
    EXPECT_TRUE(panel->title().contains(QStringLiteral("filtered by “logits”: 0 of 1 shown")))
        << panel->title().toStdString();
    w.triage().bufferSearch()->clear();
    EXPECT_FALSE(panel->title().contains(QStringLiteral("filtered")));
    EXPECT_EQ(w.listedBuffers(), QStringList{"cfc_grad_b_scratch"});
}

TEST(BufferSearch, AFirstClickOnANumberColumnPutsTheLargestOnTop) {
    OpenWindow w;
    BufferPanel* panel = w.triage().bufferPanel();
    QHeaderView* header = panel->view()->horizontalHeader();
    const auto clickHeader = [&](int column) {
        QTest::mouseClick(
            header->viewport(), Qt::LeftButton, Qt::NoModifier,
            QPoint(header->sectionViewportPosition(column) + header->sectionSize(column) / 2,
                   header->height() / 2));
    };
    clickHeader(BufferListModel::MaxAbsDeltaColumn);
    EXPECT_EQ(header->sortIndicatorSection(), int(BufferListModel::MaxAbsDeltaColumn));
    EXPECT_EQ(header->sortIndicatorOrder(), Qt::DescendingOrder);
    const auto* proxy = panel->proxy();
    const double top = proxy->index(0, BufferListModel::MaxAbsDeltaColumn)
                           .data(BufferListModel::SortRole)
                           .toDouble();
    for (int r = 1; r < proxy->rowCount(); ++r)
        EXPECT_GE(top, proxy->index(r, BufferListModel::MaxAbsDeltaColumn)
                           .data(BufferListModel::SortRole)
                           .toDouble());
    clickHeader(BufferListModel::NameColumn); // words: A to Z first
    EXPECT_EQ(header->sortIndicatorOrder(), Qt::AscendingOrder);
}

TEST(BufferSearch, EnterJumpsToTheCellHoldingTheBuffer) {
    OpenWindow w;
    BufferSearch* search = w.triage().bufferSearch();
    // Every name of the analysis is offered.
    const QStringList offered =
        qobject_cast<QStringListModel*>(search->nameCompleter()->model())->stringList();
    EXPECT_EQ(offered, (QStringList{"cfc_grad_b_scratch", "pi_logits", "q_logits", "sampled_h_t",
                                    "v_pred"}));
    search->activate();
    QTest::keyClicks(search, QStringLiteral("cfc_grad_b"));
    QTest::keyClick(search, Qt::Key_Return);
    EXPECT_EQ(w.currentCell(), QStringLiteral("1/I"));
    EXPECT_EQ(w.listedBuffers(), QStringList{"cfc_grad_b_scratch"});
    const int selected = w.triage().bufferPanel()->selectedBuffer();
    ASSERT_GE(selected, 0);
    EXPECT_EQ(w.window.snapshot()->analysis->buffers[selected].name, "cfc_grad_b_scratch");
    // q_logits is at both steps: the current step (1) has it, so the jump stays there; the
    // filter that would hide it is cleared.
    EXPECT_TRUE(w.triage().findBuffer(QStringLiteral("q_logits")));
    EXPECT_EQ(w.currentCell(), QStringLiteral("1/H"));
    EXPECT_TRUE(search->text().isEmpty());
    const int q = w.triage().bufferPanel()->selectedBuffer();
    ASSERT_GE(q, 0);
    EXPECT_EQ(w.window.snapshot()->analysis->buffers[q].name, "q_logits");
    EXPECT_FALSE(w.triage().findBuffer(QStringLiteral("no_such_buffer")));
    EXPECT_EQ(w.currentCell(), QStringLiteral("1/H"));
}

TEST(BufferSearch, LocateBufferPrefersTheCurrentStepThenTheFirstDivergence) {
    OpenWindow w;
    const Analysis& an = *w.window.snapshot()->analysis;
    auto where = [&](const QString& text, std::optional<quint64> step) {
        const auto l = locateBuffer(an, text, step);
        return l ? QStringLiteral("%1/%2/%3").arg(l->step).arg(l->group, l->name) : QString();
    };
    EXPECT_EQ(where("q_logits", 1), "1/H/q_logits");
    EXPECT_EQ(where("Q_LOGITS", std::nullopt), "0/H/q_logits"); // diverges at step 0
    EXPECT_EQ(where("v_pred", std::nullopt), "0/H/v_pred");     // never diverges: first step
    EXPECT_EQ(where("grad_b", 0), "1/I/cfc_grad_b_scratch");    // a part of the name
    EXPECT_EQ(where("nothing", 0), "");
    EXPECT_EQ(where("  ", 0), "");
}

// Every snapshot of one plan lists the same buffers: the worker lists their names once per plan
// (again for the next plan, a reload), off the GUI thread, and every snapshot of the plan shares
// that list; the search lists names itself only from a snapshot made otherwise.
TEST(BufferSearch, TheNamesAreListedOncePerPlanOffTheGuiThread) {
    OpenWindow w;
    BufferSearch* search = w.triage().bufferSearch();
    const SnapshotPtr opened = w.window.snapshot();
    ASSERT_TRUE(opened->bufferNames);
    EXPECT_EQ(*opened->bufferNames, sortedBufferNames(*opened->analysis));
    EXPECT_EQ(search->namesListed(), 0);
    w.window.reload();
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    EXPECT_EQ(search->namesListed(), 0);
    ASSERT_TRUE(w.window.snapshot()->bufferNames);
    EXPECT_NE(w.window.snapshot()->bufferNames, opened->bufferNames); // listed for the new plan
    const QStringList expected{"cfc_grad_b_scratch", "pi_logits", "q_logits", "sampled_h_t",
                               "v_pred"};
    EXPECT_EQ(qobject_cast<QStringListModel*>(search->nameCompleter()->model())->stringList(),
              expected);
    // A snapshot without the worker's list (a test's, a rank's view): listed here, once.
    search->setSnapshot(uitest::finishedSnapshot(*opened->analysis));
    EXPECT_EQ(search->namesListed(), 1);
    EXPECT_EQ(qobject_cast<QStringListModel*>(search->nameCompleter()->model())->stringList(),
              expected);
}

// The window's tolerance settings and typed shapes, remembered in QSettings,
// reaching AnalyzeOptions and showing in the matrix, the buffer list and the element table.
#include "dialogs/analysis_settings_dialog.h"
#include "models/buffer_list_model.h"
#include "models/element_table_model.h"
#include "models/matrix_model.h"
#include "panels/buffer_panel.h"
#include "panels/element_panel.h"
#include "state/settings.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "window/main_window.h"
#include "window/triage_view.h"

#include "dumpscope/schema.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSettings>
#include <QStatusBar>

#include <gtest/gtest.h>

#include <memory>
#include <utility>
#include <vector>

using namespace dumpscope;
using dumpscope::test::TempDir;
using dumpscope::test::writeDump;

namespace {

QString iniIn(const TempDir& dir) {
    return QString::fromStdString((dir / "settings.ini").string());
}

// One group, one f32 buffer `x` of 32 elements (4 × 8 when shaped); B differs from A by one
// ULP at 1.0 (1.19e-7) at elements 10 and 11, so atol 1e-6 tolerates the divergence and 1e-8
// does not.
std::shared_ptr<const Schema> oneBufferSchema() {
    return std::make_shared<const Schema>(parseSchema(
        R"({"name": "t", "groups": [{"id": "X", "buffers": [{"name": "x", "file": "x_x", "dtype": "f32"}]}],
            "dataflow": []})",
        "test"));
}

void writeOneBufferPair(const std::filesystem::path& dir) {
    std::vector<float> a(32, 1.0f), b = a;
    b[10] = std::nextafter(1.0f, 2.0f);
    b[11] = std::nextafter(1.0f, 2.0f);
    writeDump(dir / "a", 0, "x_x", a);
    writeDump(dir / "b", 0, "x_x", b);
}

struct Window {
    Window(const TempDir& settings, std::shared_ptr<const Schema> schema)
        : window({std::move(schema), iniIn(settings)}) {
        window.show();
    }
    MainWindow window;
    TriageView& triage() { return *window.triageView(); }
    const BufferResult& x() { return triage().snapshot()->analysis->buffers.at(0); }
    QString statusBarText() {
        QString text;
        for (const QLabel* label : window.statusBar()->findChildren<QLabel*>())
            text += label->text();
        return text;
    }
};

RunPair pairIn(const TempDir& dir) {
    return {QString::fromStdString((dir / "a").string()),
            QString::fromStdString((dir / "b").string())};
}

} // namespace

TEST(AnalysisSettings, RoundTripThroughQSettings) {
    TempDir dir;
    {
        Settings settings(iniIn(dir));
        const AnalysisSettings defaults = settings.analysisSettings();
        EXPECT_FALSE(defaults.tolerance.any());
        EXPECT_FALSE(defaults.verdictTolerance);
        EXPECT_EQ(defaults.roundingThreshold, kDefaultRoundingThreshold);
        AnalysisSettings s;
        s.tolerance.atol = 1e-6;
        s.tolerance.ulp = 4;
        s.verdictTolerance = true;
        s.roundingThreshold = 2.5e-5;
        settings.setAnalysisSettings(s);
        settings.setBufferShape(QStringLiteral("q_logits"), QStringLiteral(" batch, 8 "));
        settings.setBufferShape(QStringLiteral("odd/name=1"), QStringLiteral("64x32"));
        settings.sync();
    }
    Settings again(iniIn(dir));
    const AnalysisSettings s = again.analysisSettings();
    EXPECT_EQ(s.tolerance.atol, std::optional<double>(1e-6));
    EXPECT_FALSE(s.tolerance.rtol) << "an unset tolerance stays unset";
    EXPECT_EQ(s.tolerance.ulp, std::optional<std::uint64_t>(4));
    EXPECT_TRUE(s.verdictTolerance);
    EXPECT_EQ(s.roundingThreshold, 2.5e-5);
    EXPECT_EQ(again.bufferShape(QStringLiteral("q_logits")), QStringLiteral("batch, 8"));
    const auto shapes = again.bufferShapes();
    ASSERT_EQ(shapes.size(), 2u);
    EXPECT_EQ(shapes.at("q_logits"), (std::vector<std::string>{"batch", "8"}));
    EXPECT_EQ(shapes.at("odd/name=1"), (std::vector<std::string>{"64", "32"}));

    // Clearing a tolerance and a shape forgets them.
    AnalysisSettings cleared = s;
    cleared.tolerance.atol.reset();
    again.setAnalysisSettings(cleared);
    again.setBufferShape(QStringLiteral("q_logits"), {});
    EXPECT_FALSE(again.analysisSettings().tolerance.atol);
    EXPECT_EQ(again.bufferShapes().count("q_logits"), 0u);
}

// A settings file edited by hand: a value the dialog would refuse is not used.
TEST(AnalysisSettings, StoredValuesOutOfRangeAreNotUsed) {
    TempDir dir;
    {
        QSettings ini(iniIn(dir), QSettings::IniFormat);
        ini.setValue(QStringLiteral("analysis/atol"), QStringLiteral("nan"));
        ini.setValue(QStringLiteral("analysis/rtol"), QStringLiteral("-1"));
        ini.setValue(QStringLiteral("analysis/ulp"), QStringLiteral("18446744073709551615"));
        ini.setValue(QStringLiteral("analysis/rounding"), QStringLiteral("inf"));
    }
    const AnalysisSettings s = Settings(iniIn(dir)).analysisSettings();
    EXPECT_FALSE(s.tolerance.any());
    EXPECT_EQ(s.roundingThreshold, kDefaultRoundingThreshold);
}

TEST(AnalysisSettings, DialogReadsAndRefusesItsFields) {
    AnalysisSettings initial;
    initial.tolerance.rtol = 1e-3;
    AnalysisSettingsDialog dialog(initial);
    auto* atol = dialog.findChild<QLineEdit*>(QStringLiteral("atol"));
    auto* rtol = dialog.findChild<QLineEdit*>(QStringLiteral("rtol"));
    auto* ulp = dialog.findChild<QLineEdit*>(QStringLiteral("ulp"));
    auto* rounding = dialog.findChild<QLineEdit*>(QStringLiteral("roundingThreshold"));
    auto* verdict = dialog.findChild<QCheckBox*>(QStringLiteral("verdictTolerance"));
    ASSERT_TRUE(atol && rtol && ulp && rounding && verdict);
    EXPECT_TRUE(atol->text().isEmpty());
    EXPECT_EQ(rtol->text().toDouble(), 1e-3);
    EXPECT_EQ(rounding->text().toDouble(), kDefaultRoundingThreshold);

    atol->setText(QStringLiteral("2e-7"));
    ulp->setText(QStringLiteral("16"));
    verdict->setChecked(true);
    auto read = dialog.settings();
    ASSERT_TRUE(read);
    EXPECT_EQ(read->tolerance.atol, std::optional<double>(2e-7));
    EXPECT_EQ(read->tolerance.rtol, std::optional<double>(1e-3));
    EXPECT_EQ(read->tolerance.ulp, std::optional<std::uint64_t>(16));
    EXPECT_TRUE(read->verdictTolerance);

    for (const char* bad : {"-1", "abc", "nan", "inf"}) {
        atol->setText(QString::fromLatin1(bad));
        QString error;
        EXPECT_FALSE(dialog.settings(&error)) << bad;
        EXPECT_TRUE(error.contains(QStringLiteral("atol"))) << error.toStdString();
    }
    atol->setText(QStringLiteral("2e-7"));
    // The command line's ranges, said in its words: NaN, infinity, absurd or senseless values.
    const std::vector<std::pair<QLineEdit*, const char*>> refused{
        {atol, "1e301"},  {rtol, "nan"},   {rtol, "-0.5"},  {ulp, "9223372036854775809"},
        {ulp, "-1"},      {rounding, "0"}, {rounding, "5"}, {rounding, "nan"},
        {rounding, "inf"}};
    for (const auto& [edit, bad] : refused) {
        const QString before = edit->text();
        edit->setText(QString::fromLatin1(bad));
        QString error;
        EXPECT_FALSE(dialog.settings(&error)) << edit->objectName().toStdString() << " " << bad;
        EXPECT_TRUE(error.contains(QStringLiteral(" from ")) ||
                    error.contains(QStringLiteral("at most 1")))
            << error.toStdString();
        edit->setText(before);
    }
    EXPECT_TRUE(dialog.settings());
    ulp->setText(QStringLiteral("9223372036854775808")); // 2^63, the largest the CLI takes
    EXPECT_TRUE(dialog.settings());
    atol->clear();
    ulp->setText(QStringLiteral("1.5"));
    EXPECT_FALSE(dialog.settings());
    // OK with an invalid field keeps the dialog open and says why.
    dialog.show();
    dialog.accept();
    EXPECT_NE(dialog.result(), QDialog::Accepted);
    EXPECT_TRUE(dialog.findChild<QLabel*>(QStringLiteral("settingsError"))->isVisible());
}

TEST(AnalysisSettings, ToleranceReachesTheAnalysisAndTheMatrix) {
    TempDir pairDir, settingsDir;
    writeOneBufferPair(pairDir.path());
    Window w(settingsDir, oneBufferSchema());
    QAbstractItemModelTester tester(w.triage().bufferPanel()->model(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    w.window.openPair(pairIn(pairDir));
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    MatrixModel& matrix = *w.triage().matrixModel();
    const QModelIndex cell = matrix.indexOf(0, "X");
    ASSERT_TRUE(cell.isValid());
    EXPECT_EQ(cell.data(MatrixModel::StatusRole).toInt(), int(Status::diverge));
    EXPECT_TRUE(w.statusBarText().contains(QStringLiteral("bitwise")))
        << w.statusBarText().toStdString();

    AnalysisSettings s;
    s.tolerance.atol = 1e-6;
    w.window.setAnalysisSettings(s);
    EXPECT_EQ(w.window.analysisRequest(pairIn(pairDir)).analyzeOptions().tolerance.atol,
              std::optional<double>(1e-6));
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    EXPECT_EQ(w.x().status, Status::within_tolerance);
    EXPECT_EQ(cell.data(MatrixModel::StatusRole).toInt(), int(Status::within_tolerance));
    EXPECT_EQ(cell.data().toString(), QStringLiteral("≈1/1"));
    EXPECT_TRUE(w.statusBarText().contains(QStringLiteral("atol 1e-06")))
        << w.statusBarText().toStdString();
    // Bitwise verdict unless asked: the within-tolerance buffer is still the first divergence.
    EXPECT_EQ(w.triage().snapshot()->analysis->verdict.firstDivergentStep,
              std::optional<std::uint64_t>(0));

    s.verdictTolerance = true;
    w.window.setAnalysisSettings(s);
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    EXPECT_FALSE(w.triage().snapshot()->analysis->verdict.firstDivergentStep);
    EXPECT_TRUE(w.statusBarText().contains(QStringLiteral("verdict within tolerance")));

    // A tolerance tighter than the difference: divergent again. And remembered for a new window.
    s.tolerance.atol = 1e-8;
    w.window.setAnalysisSettings(s);
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    EXPECT_EQ(cell.data(MatrixModel::StatusRole).toInt(), int(Status::diverge));
    w.window.saveSettings();
    Window again(settingsDir, oneBufferSchema());
    EXPECT_EQ(again.window.settings().analysisSettings(), s);
}

TEST(AnalysisSettings, TypedShapeIsRememberedAndGivesTupleIndices) {
    TempDir pairDir, settingsDir;
    writeOneBufferPair(pairDir.path());
    {
        Window w(settingsDir, oneBufferSchema());
        w.window.openPair(pairIn(pairDir));
        ASSERT_TRUE(uitest::waitForFinished(w.window));
        ElementTableModel* elements = w.triage().elementPanel()->model();
        EXPECT_EQ(elements->cellText(10, ElementTableModel::IndexColumn), QStringLiteral("10"));

        EXPECT_FALSE(w.window.setBufferShape(QStringLiteral("x"), QStringLiteral("4; 8")))
            << "not a shape: refused, nothing remembered";
        EXPECT_TRUE(w.window.settings().bufferShape(QStringLiteral("x")).isEmpty());
        ASSERT_TRUE(w.window.setBufferShape(QStringLiteral("x"), QStringLiteral("5 x *")));
        ASSERT_TRUE(uitest::waitForFinished(w.window));
        // 32 elements are no multiple of 5: the core's message, on the buffer's row; compared flat.
        EXPECT_TRUE(w.x().shape.empty());
        EXPECT_NE(w.x().shapeError.find("does not fit 32 elements"), std::string::npos)
            << w.x().shapeError;
        EXPECT_EQ(w.x().status, Status::diverge);
        BufferPanel* panel = w.triage().bufferPanel();
        const int row = panel->model()->rowOf(QStringLiteral("x"));
        ASSERT_GE(row, 0);
        auto cell = [&](int column, int role = Qt::DisplayRole) {
            return panel->model()->index(row, column).data(role).toString();
        };
        EXPECT_EQ(cell(BufferListModel::ShapeColumn),
                  QStringLiteral("not applied: ") + QString::fromStdString(w.x().shapeError));
        EXPECT_EQ(cell(BufferListModel::ShapeColumn, Qt::ToolTipRole),
                  QString::fromStdString(w.x().shapeError));
        EXPECT_EQ(elements->cellText(10, ElementTableModel::IndexColumn), QStringLiteral("10"));

        ASSERT_TRUE(w.window.setBufferShape(QStringLiteral("x"), QStringLiteral("4, *")));
        ASSERT_TRUE(uitest::waitForFinished(w.window));
        EXPECT_EQ(w.x().shape, (std::vector<std::uint64_t>{4, 8}));
        EXPECT_TRUE(w.x().shapeError.empty());
        EXPECT_EQ(cell(BufferListModel::ShapeColumn), QStringLiteral("4 × 8"));
        EXPECT_EQ(elements->cellText(10, ElementTableModel::IndexColumn), QStringLiteral("(1, 2)"));
        // The context menu offers to clear what was typed.
        std::unique_ptr<QMenu> menu(panel->contextMenuFor(0));
        ASSERT_TRUE(menu);
        auto* clear = menu->findChild<QAction*>(QStringLiteral("clearShapeAction"));
        ASSERT_TRUE(clear);
        EXPECT_TRUE(clear->isEnabled());
        EXPECT_TRUE(clear->text().contains(QStringLiteral("4, *")));
        w.window.saveSettings();
    }
    // A new window remembers the shape for the same buffer name.
    Window w(settingsDir, oneBufferSchema());
    w.window.openPair(pairIn(pairDir));
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    EXPECT_EQ(w.x().shape, (std::vector<std::uint64_t>{4, 8}));
    ElementTableModel* elements = w.triage().elementPanel()->model();
    EXPECT_EQ(elements->cellText(11, ElementTableModel::IndexColumn), QStringLiteral("(1, 3)"));
    int differing = 0;
    for (int r = 0; r < elements->rowCount(); ++r)
        if (elements->index(r, 0).data(ElementTableModel::DiffersRole).toBool()) {
            ++differing;
            EXPECT_TRUE(elements->index(r, ElementTableModel::IndexColumn)
                            .data()
                            .toString()
                            .startsWith(QLatin1Char('(')));
        }
    EXPECT_EQ(differing, 2);

    // Clearing it (the context menu's action) gives flat indices again.
    std::unique_ptr<QMenu> menu(w.triage().bufferPanel()->contextMenuFor(0));
    menu->findChild<QAction*>(QStringLiteral("clearShapeAction"))->trigger();
    ASSERT_TRUE(uitest::waitForFinished(w.window));
    EXPECT_TRUE(w.x().shape.empty());
    EXPECT_TRUE(w.window.settings().bufferShape(QStringLiteral("x")).isEmpty());
    EXPECT_EQ(elements->cellText(10, ElementTableModel::IndexColumn), QStringLiteral("10"));
}

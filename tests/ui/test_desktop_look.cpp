// Native on the desktop: a tooltip on every column header of every table in the window, dark
// and light palettes (the matrix recolours, readable on both), the high-DPI SVG icon and the
// About box.
#include "dialogs/about_box.h"
#include "models/matrix_model.h"
#include "panels/matrix_legend.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "widgets/matrix_colors.h"
#include "window/main_window.h"
#include "window/triage_view.h"

#include "dumpscope/version.h"

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QHeaderView>
#include <QIcon>
#include <QLabel>
#include <QPalette>
#include <QTableView>
#include <QTest>
#include <QTreeView>

#include <gtest/gtest.h>

#include <cmath>

using namespace dumpscope;
using dumpscope::test::TempDir;

namespace {

QString q(const std::filesystem::path& p) {
    return QString::fromStdString(p.string());
}

struct OpenMixed {
    TempDir dir;
    TempDir settingsDir;
    MainWindow window{{nullptr, q(settingsDir / "settings.ini")}};
    OpenMixed() {
        uitest::writeMixedPair(dir.path());
        window.show();
        window.openPair({q(dir / "a"), q(dir / "b")});
        EXPECT_TRUE(uitest::waitForFinished(window));
    }
};

// WCAG contrast ratio of two colours (1 to 21).
double contrast(const QColor& a, const QColor& b) {
    auto luminance = [](const QColor& c) {
        auto lin = [](double v) {
            return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
    };
    const double x = luminance(a), y = luminance(b);
    return (std::max(x, y) + 0.05) / (std::min(x, y) + 0.05);
}

QPalette darkPalette() {
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
    p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ButtonText, QColor(0xee, 0xee, 0xee));
    return p;
}

// Sets the application palette for the scope of the object, as a desktop switching its colour
// scheme does through the platform theme.
struct ScopedPalette {
    QPalette saved = QApplication::palette();
    explicit ScopedPalette(const QPalette& p) { set(p); }
    ~ScopedPalette() { set(saved); }
    static void set(const QPalette& p) {
        QApplication::setPalette(p);
        QCoreApplication::processEvents(); // the change events reach the widgets
    }
};

QList<QImage> legendSwatches(const MatrixLegend& legend) {
    QList<QImage> images;
    for (const QLabel* label : legend.findChildren<QLabel*>())
        if (!label->pixmap().isNull()) images << label->pixmap().toImage();
    return images;
}

} // namespace

TEST(DesktopLook, EveryColumnHeaderOfEveryTableHasATooltip) {
    OpenMixed w;
    TriageView& triage = *w.window.triageView();
    // Fill every panel: a divergent buffer selected shows elements and histograms too.
    ASSERT_TRUE(triage.selectCell(2, QStringLiteral("H"), QStringLiteral("q_logits")));
    int tables = 0;
    for (QAbstractItemView* view : w.window.findChildren<QAbstractItemView*>()) {
        QHeaderView* header = nullptr;
        if (auto* table = qobject_cast<QTableView*>(view)) header = table->horizontalHeader();
        if (auto* tree = qobject_cast<QTreeView*>(view)) header = tree->header();
        if (!header || header->isHidden() || !view->model()) continue;
        ++tables;
        const QAbstractItemModel* model = view->model();
        ASSERT_GT(model->columnCount(), 0) << view->objectName().toStdString();
        for (int c = 0; c < model->columnCount(); ++c)
            EXPECT_FALSE(model->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty())
                << view->objectName().toStdString() << " column " << c << " ("
                << model->headerData(c, Qt::Horizontal).toString().toStdString() << ")";
    }
    EXPECT_GE(tables, 4); // matrix, buffer list, element table, culprit table at least
    // The matrix's step rows say which step they are, the first divergent one that it is.
    const MatrixModel* matrix = triage.matrixModel();
    for (int r = 0; r < matrix->rowCount(); ++r)
        EXPECT_TRUE(
            matrix->headerData(r, Qt::Vertical, Qt::ToolTipRole).toString().startsWith("step "));
    EXPECT_EQ(matrix->headerData(1, Qt::Vertical, Qt::ToolTipRole).toString(),
              QStringLiteral("step 1: the first divergent step"));
}

TEST(DesktopLook, ADarkPaletteRecoloursTheMatrixAndItsLegend) {
    OpenMixed w;
    TriageView& triage = *w.window.triageView();
    const MatrixModel* matrix = triage.matrixModel();
    const QModelIndex equalCell = matrix->indexOf(0, "G"), divergeCell = matrix->indexOf(2, "H");
    ASSERT_TRUE(equalCell.isValid() && divergeCell.isValid());
    auto fill = [](const QModelIndex& i) {
        return i.data(Qt::BackgroundRole).value<QBrush>().color();
    };
    const QColor lightEqual = fill(equalCell), lightDiverge = fill(divergeCell);
    const auto* legend = w.window.findChild<MatrixLegend*>();
    ASSERT_NE(legend, nullptr);
    const QList<QImage> lightSwatches = legendSwatches(*legend);
    ASSERT_EQ(lightSwatches.size(), 8);
    const auto* chartView = w.window.findChild<QChartView*>(QStringLiteral("histogramChart"));
    ASSERT_NE(chartView, nullptr);
    const QChart& chart = *chartView->chart();
    EXPECT_EQ(chart.theme(), QChart::ChartThemeLight);
    EXPECT_FALSE(matrix_colors::darkPalette());
    {
        ScopedPalette dark(darkPalette());
        EXPECT_TRUE(matrix_colors::darkPalette());
        EXPECT_NE(fill(equalCell), lightEqual);
        EXPECT_NE(fill(divergeCell), lightDiverge);
        EXPECT_LT(fill(equalCell).lightness(), lightEqual.lightness());
        // The legend redrew its swatches (a PaletteChange reached it).
        const QList<QImage> darkSwatches = legendSwatches(*legend);
        ASSERT_EQ(darkSwatches.size(), 8);
        EXPECT_NE(darkSwatches.front(), lightSwatches.front());
        // The Δ histogram's chart took the dark theme with it.
        EXPECT_EQ(chart.theme(), QChart::ChartThemeDark);
        EXPECT_LT(chart.backgroundBrush().color().lightness(), 128);
    }
    EXPECT_EQ(chart.theme(), QChart::ChartThemeLight);
    EXPECT_EQ(fill(equalCell), lightEqual);
    EXPECT_EQ(legendSwatches(*legend).front(), lightSwatches.front());
}

TEST(DesktopLook, MatrixTextIsReadableOnEveryCellInBothPalettes) {
    using dumpscope::Status;
    const Status statuses[] = {Status::equal, Status::diverge, Status::within_tolerance,
                               Status::error, Status::missing, Status::length_mismatch};
    const double deltas[] = {0.0, 1e-8, 1e-6, 1e-3, 1.0, 1e2, INFINITY};
    for (const QPalette& palette : {QApplication::palette(), darkPalette()}) {
        ScopedPalette scoped(palette);
        for (Status s : statuses) {
            for (double d : deltas) {
                const QColor fill = matrix_colors::cellBrush(s, d, false).color();
                const QColor text = matrix_colors::textColor(s, d, false);
                EXPECT_GE(contrast(fill, text), 3.0) << "status " << int(s) << " |Δ| " << d
                                                     << " dark " << matrix_colors::darkPalette();
            }
        }
        const QColor base = palette.color(QPalette::Base);
        for (const QColor& c : {matrix_colors::divergeText(), matrix_colors::equalText(),
                                matrix_colors::toleratedText(), matrix_colors::errorText()})
            EXPECT_GE(contrast(c, base), 3.0) << c.name().toStdString();
        EXPECT_GE(contrast(matrix_colors::differingRow(), palette.color(QPalette::Text)), 4.5);
        EXPECT_GE(contrast(matrix_colors::oneSidedRow(), palette.color(QPalette::Text)), 4.5);
    }
}

TEST(DesktopLook, TheSvgIconRendersSharpAtHighDpiSizes) {
    // The window icon is the SVG (Qt's SVG icon engine, package libqt6svg6): any size is drawn
    // from the vector, not scaled up from a small bitmap.
    const QIcon icon(QStringLiteral(":/icons/dumpscope.svg"));
    ASSERT_FALSE(icon.isNull());
    for (int size : {16, 64, 256, 512}) {
        const QPixmap pixmap = icon.pixmap(QSize(size, size));
        EXPECT_EQ(pixmap.size(), QSize(size, size)) << size;
    }
    // The app icon's red cell is crisp at 512 px: its centre pixel is pure icon red.
    const QImage big = icon.pixmap(QSize(512, 512)).toImage();
    EXPECT_EQ(big.pixelColor(256, 256), QColor(0xe5, 0x73, 0x73));
}

TEST(DesktopLook, AboutBoxNamesTheVersionAndQt) {
    TempDir settingsDir;
    MainWindow window{{nullptr, q(settingsDir / "settings.ini")}};
    window.show();
    const QString text = AboutBox::aboutText();
    const auto version = dumpscope::version();
    EXPECT_TRUE(text.contains(QString::fromUtf8(version.data(), qsizetype(version.size()))))
        << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("Qt %1").arg(qVersion()))) << text.toStdString();
    QAction* about = window.findChild<QAction*>(QStringLiteral("aboutAction"));
    ASSERT_NE(about, nullptr);
    about->trigger();
    auto* box = window.findChild<AboutBox*>(QStringLiteral("aboutBox"));
    ASSERT_NE(box, nullptr);
    EXPECT_TRUE(box->isVisible());
    EXPECT_EQ(box->text(), text);
    box->close();
}

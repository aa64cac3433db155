#include "panels/matrix_legend.h"

#include "widgets/matrix_colors.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QLinearGradient>
#include <QPainter>
#include <QPixmap>

namespace {

QPixmap swatch(const QBrush& brush, int width = 18, bool outline = false) {
    QPixmap pixmap(width, 14);
    pixmap.fill(matrix_colors::hatchBackground());
    QPainter p(&pixmap);
    p.fillRect(pixmap.rect(), brush);
    p.setPen(QPen(outline ? QColor(0xff, 0xd6, 0x00) : QColor(0x60, 0x60, 0x60), outline ? 3 : 1));
    p.drawRect(outline ? pixmap.rect().adjusted(1, 1, -2, -2)
                       : pixmap.rect().adjusted(0, 0, -1, -1));
    return pixmap;
}

QPixmap divergeRamp() {
    QLinearGradient gradient(0, 0, 40, 0);
    gradient.setColorAt(0, matrix_colors::diverge(1e-8));
    gradient.setColorAt(1, matrix_colors::diverge(1e2));
    return swatch(QBrush(gradient), 40);
}

// In the order of the legend's entries.
QList<QPixmap> swatches() {
    return {swatch(matrix_colors::equal()),
            divergeRamp(),
            swatch(matrix_colors::withinTolerance()),
            swatch(matrix_colors::missing()),
            swatch(QBrush(matrix_colors::oneSided(), Qt::BDiagPattern)),
            swatch(matrix_colors::error()),
            swatch(matrix_colors::pending()),
            swatch(Qt::NoBrush, 18, true)};
}

} // namespace

MatrixLegend::MatrixLegend(QWidget* parent) : QWidget(parent) {
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(4, 2, 4, 2);
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(2);
    struct Entry {
        QString text;
        QString tip;
    };
    const Entry entries[] = {
        {tr("equal"), tr("every buffer bit-identical")},
        {tr("diverge, 1e-8 → 1e2"), tr("stronger red as the largest |Δ| grows")},
        {tr("≈ tolerated"), tr("differs bitwise, every difference within the tolerance")},
        {tr("missing"), tr("in neither run")},
        {tr("one-sided"), tr("a buffer dumped by one run only")},
        {tr("error"), tr("unreadable or malformed")},
        {tr("pending"), tr("still being compared")},
        {tr("root cause"), tr("root cause by dataflow")},
    };
    int i = 0;
    for (const Entry& e : entries) {
        auto* icon = new QLabel(this);
        m_swatches << icon;
        auto* label = new QLabel(e.text, this);
        icon->setToolTip(e.tip);
        label->setToolTip(e.tip);
        // Two entries a row: the legend fits the matrix pane's narrowest width, words whole.
        const int row = i / 2, col = (i % 2) * 2;
        grid->addWidget(icon, row, col);
        grid->addWidget(label, row, col + 1);
        ++i;
    }
    grid->setColumnStretch(4, 1);
    paintSwatches();
}

void MatrixLegend::paintSwatches() {
    const QList<QPixmap> pixmaps = swatches();
    for (qsizetype i = 0; i < m_swatches.size() && i < pixmaps.size(); ++i)
        m_swatches[i]->setPixmap(pixmaps[i]);
}

void MatrixLegend::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
        paintSwatches();
}

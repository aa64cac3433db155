#include "matrix_legend.h"

#include "matrix_colors.h"

#include <QGridLayout>
#include <QLabel>
#include <QLinearGradient>
#include <QPainter>
#include <QPixmap>

namespace {

QPixmap swatch(const QBrush& brush, int width = 18, bool outline = false) {
    QPixmap pixmap(width, 14);
    pixmap.fill(QColor(0xee, 0xee, 0xee));
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

} // namespace

MatrixLegend::MatrixLegend(QWidget* parent) : QWidget(parent) {
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(4, 2, 4, 2);
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(2);
    struct Entry {
        QPixmap pixmap;
        QString text;
        QString tip;
    };
    const Entry entries[] = {
        {swatch(matrix_colors::equal()), tr("equal"), tr("every buffer bit-identical")},
        {divergeRamp(), tr("diverge, 1e-8 → 1e2"), tr("darker as the largest |Δ| grows")},
        {swatch(matrix_colors::withinTolerance()), tr("≈ tolerated"),
         tr("differs bitwise, every difference within the tolerance")},
        {swatch(matrix_colors::missing()), tr("missing"), tr("in neither run")},
        {swatch(QBrush(matrix_colors::oneSided(), Qt::BDiagPattern)), tr("one-sided"),
         tr("a buffer dumped by one run only")},
        {swatch(matrix_colors::error()), tr("error"), tr("unreadable or malformed")},
        {swatch(matrix_colors::pending()), tr("pending"), tr("still being compared")},
        {swatch(Qt::NoBrush, 18, true), tr("root cause"), tr("root cause by dataflow")},
    };
    int i = 0;
    for (const Entry& e : entries) {
        auto* icon = new QLabel(this);
        icon->setPixmap(e.pixmap);
        auto* label = new QLabel(e.text, this);
        icon->setToolTip(e.tip);
        label->setToolTip(e.tip);
        // Three entries a row keep the legend no wider than a five-group matrix needs.
        const int row = i / 3, col = (i % 3) * 2;
        grid->addWidget(icon, row, col);
        grid->addWidget(label, row, col + 1);
        ++i;
    }
    grid->setColumnStretch(6, 1);
}

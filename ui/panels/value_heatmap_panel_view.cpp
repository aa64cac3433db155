// The value heatmaps' drawing and pointer handling: colours, the three images' geometry, hover
// text, clicks and the two legends.
#include "panels/divergence_map_panel.h"
#include "panels/value_heatmap_panel.h"

#include "widgets/matrix_colors.h"

#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

using namespace dumpscope;

namespace {

constexpr int kMargin = 4, kGap = 8, kBar = 10;

QString number(double v) {
    return QString::number(v, 'g', 3);
}

QString span(const char* what, std::uint64_t first, std::uint64_t end) {
    return end - first == 1
               ? QStringLiteral("%1 %2").arg(QLatin1String(what)).arg(first)
               : QStringLiteral("%1s %2–%3").arg(QLatin1String(what)).arg(first).arg(end - 1);
}

QColor mix(const QColor& lo, const QColor& hi, double f) {
    auto m = [f](int a, int b) { return int(std::lround(a + (b - a) * f)); };
    return QColor(m(lo.red(), hi.red()), m(lo.green(), hi.green()), m(lo.blue(), hi.blue()));
}

} // namespace

// Blue and red ends that hold on both palettes; the middle (0) is the palette's own ground: near
// white on a light window, dark grey on a dark one.
QColor ValueHeatmapPanel::valueColor(double value, double limit) {
    if (std::isnan(value)) return nanColor();
    if (std::isinf(value)) return infColor();
    const QColor neutral =
        matrix_colors::darkPalette() ? QColor(0x3c, 0x3c, 0x3c) : QColor(0xf7, 0xf7, 0xf7);
    const double t = limit > 0 ? std::clamp(value / limit, -1.0, 1.0) : 0.0;
    return t < 0 ? mix(neutral, QColor(0x21, 0x66, 0xac), -t)
                 : mix(neutral, QColor(0xb2, 0x18, 0x2b), t);
}
QColor ValueHeatmapPanel::nanColor() {
    return QColor(0x1b, 0x9e, 0x77); // green: neither end of the blue-red scale
}
QColor ValueHeatmapPanel::infColor() {
    return QColor(0xff, 0xc1, 0x07); // amber
}

int ValueHeatmapPanel::legendHeight() const {
    const int line = fontMetrics().height();
    return kBar + 4 + 4 * (line + 2);
}

QRect ValueHeatmapPanel::imageRect(Image which) const {
    if (!m_heat || m_heat->cells.empty()) return {};
    const QFontMetrics fm = fontMetrics();
    const int width3 = (width() - 2 * kMargin - 2 * kGap) / 3;
    const int top = m_status->geometry().bottom() + 8 + fm.height() + 2;
    const int h = height() - top - legendHeight() - 8;
    if (width3 < 8 || h < 8) return {};
    return QRect(kMargin + int(which) * (width3 + kGap), top, width3, h);
}

QRect ValueHeatmapPanel::cellRect(Image which, quint32 row, quint32 col) const {
    const QRect m = imageRect(which);
    return m.isEmpty() ? QRect() : gridCellRect(m, m_heat->gridRows, m_heat->gridCols, row, col);
}

std::optional<std::pair<quint32, quint32>> ValueHeatmapPanel::cellAt(const QPoint& pos) const {
    for (Image which : {SideA, SideB, Delta}) {
        const QRect m = imageRect(which);
        if (m.isEmpty() || !m.contains(pos)) continue;
        return gridCellAt(m, m_heat->gridRows, m_heat->gridCols, pos);
    }
    return std::nullopt;
}

QString ValueHeatmapPanel::cellText(quint32 row, quint32 col) const {
    if (!m_heat || row >= m_heat->gridRows || col >= m_heat->gridCols) return {};
    const auto r = m_heat->cellRange(row, col);
    const HeatCell& cell = m_heat->cell(row, col);
    const quint64 elements = (r.rowEnd - r.rowFirst) * (r.colEnd - r.colFirst);
    QString text = span("row", r.rowFirst, r.rowEnd) + QStringLiteral(", ") +
                   span("column", r.colFirst, r.colEnd) +
                   (elements == 1 ? tr(": 1 element") : tr(": %1 elements").arg(elements));
    for (const auto& [side, s] : {std::pair{"A", &cell.a}, std::pair{"B", &cell.b}}) {
        text += tr("\n%1: largest |value| %2").arg(QLatin1String(side), number(s->peak));
        if (s->nNan) text += tr(", %1 NaN").arg(s->nNan);
        if (s->nInf) text += tr(", %1 ±Inf").arg(s->nInf);
    }
    if (cell.nDiff == 0) return text + tr("\nall equal");
    text += tr("\n%1 differ, max|Δ| %2").arg(cell.nDiff).arg(number(cell.maxAbsDelta));
    return text + tr("\nClick to show the first difference (%1)").arg(*cell.firstDiff);
}

void ValueHeatmapPanel::mouseMoveEvent(QMouseEvent* event) {
    const auto cell = cellAt(event->position().toPoint());
    if (!cell) return QToolTip::hideText();
    QToolTip::showText(event->globalPosition().toPoint(), cellText(cell->first, cell->second),
                       this);
}

void ValueHeatmapPanel::mousePressEvent(QMouseEvent* event) {
    const auto cell =
        event->button() == Qt::LeftButton ? cellAt(event->position().toPoint()) : std::nullopt;
    if (!cell) return QWidget::mousePressEvent(event);
    if (const auto element = m_heat->elementOfCell(cell->first, cell->second)) {
        setMarkedElement(*element);
        emit elementClicked(*element);
    }
}

void ValueHeatmapPanel::paintEvent(QPaintEvent*) {
    if (imageRect(SideA).isEmpty()) return;
    QPainter p(this);
    const QFontMetrics fm = fontMetrics();
    const auto marked = m_marked ? m_heat->cellOfElement(*m_marked) : std::nullopt;
    const QString titles[] = {tr("A"), tr("B"), tr("max|Δ|")};
    for (Image which : {SideA, SideB, Delta}) {
        const QRect m = imageRect(which);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(m.left(), m.top() - 2 - fm.descent(), titles[which]);
        for (quint32 r = 0; r < m_heat->gridRows; ++r)
            for (quint32 c = 0; c < m_heat->gridCols; ++c)
                p.fillRect(cellRect(which, r, c), m_images[which].pixelColor(int(c), int(r)));
        p.setPen(palette().color(QPalette::Mid));
        p.setBrush(Qt::NoBrush);
        p.drawRect(m.adjusted(0, 0, -1, -1));
        if (marked) {
            // At least 7 px, so that the cell of one element in a fine grid still shows.
            QRect mark = cellRect(which, marked->first, marked->second);
            const QPoint centre = mark.center();
            mark.setSize(mark.size().expandedTo(QSize(7, 7)));
            mark.moveCenter(centre);
            p.setPen(QPen(palette().color(QPalette::Highlight), 2));
            p.drawRect(mark);
        }
    }
    paintLegends(p);
}

// Under A and B: their shared scale, -limit .. 0 .. +limit, then NaN and ±Inf. Under |Δ|: the
// log scale from its smallest to its largest, then equal and NaN/Inf as on the map.
void ValueHeatmapPanel::paintLegends(QPainter& p) const {
    const QFontMetrics fm = fontMetrics();
    const int line = fm.height();
    const QRect a = imageRect(SideA), b = imageRect(SideB), d = imageRect(Delta);
    const int top = a.bottom() + 6;
    const double limit = m_heat->peakLimit;

    const QRect values(a.left(), top, b.right() - a.left(), kBar);
    QLinearGradient valueRamp(values.topLeft(), values.topRight());
    for (int i = 0; i <= 8; ++i)
        valueRamp.setColorAt(i / 8.0, valueColor(limit * (i / 4.0 - 1.0), limit));
    p.fillRect(values, valueRamp);
    const QRect deltas(d.left(), top, d.width(), kBar);
    QLinearGradient deltaRamp(deltas.topLeft(), deltas.topRight());
    for (int i = 0; i <= 8; ++i)
        deltaRamp.setColorAt(i / 8.0, DivergenceMapPanel::scaleColor(i / 8.0));
    p.fillRect(deltas, deltaRamp);

    p.setPen(palette().color(QPalette::WindowText));
    const int labels = top + kBar + 2 + fm.ascent();
    // The A/B ends and middle; a label that would touch its neighbour is left out.
    auto row = [&](const QRect& bar, const QStringList& texts) {
        int clearFrom = bar.left() - 1;
        for (int i = 0; i < texts.size(); ++i) {
            const int w = fm.horizontalAdvance(texts[i]);
            const int x = std::clamp(bar.left() + bar.width() * i / int(texts.size() - 1) - w / 2,
                                     bar.left(), bar.right() - w);
            if (x <= clearFrom) continue;
            p.drawText(x, labels, texts[i]);
            clearFrom = x + w + fm.horizontalAdvance(QLatin1Char(' '));
        }
    };
    row(values, {number(-limit), QStringLiteral("0"), number(limit)});
    // The |Δ| ends: side by side when both fit under the narrow image, else the largest on the
    // line below, at the bar's right end.
    const QString low = m_heat->deltaHigh > 0 ? QStringLiteral("≤") + number(m_heat->deltaLow)
                                              : QStringLiteral("0");
    const QString high = m_heat->deltaHigh > 0 ? number(m_heat->deltaHigh) : QString();
    p.drawText(deltas.left(), labels, low);
    const int highWidth = fm.horizontalAdvance(high);
    const bool besides =
        fm.horizontalAdvance(low + QStringLiteral("  ")) + highWidth <= deltas.width();
    p.drawText(std::max(deltas.left(), deltas.right() + 1 - highWidth),
               besides ? labels : labels + line + 2, high);

    auto swatch = [&](int x, int y, const QColor& color, const QString& label) {
        p.fillRect(QRect(x, y, 12, line - 3), color);
        p.drawText(x + 16, y + fm.ascent() - 1, label);
    };
    const int y1 = top + kBar + 4 + 2 * (line + 2), y2 = y1 + line + 2;
    swatch(a.left(), y1, nanColor(), tr("NaN in the block"));
    swatch(a.left(), y2, infColor(), tr("±Inf"));
    swatch(d.left(), y1, DivergenceMapPanel::equalColor(), tr("equal"));
    swatch(d.left(), y2, DivergenceMapPanel::nonFiniteColor(), tr("NaN/Inf"));
}

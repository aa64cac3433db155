// The divergence map panel's drawing and pointer handling: colours, cell geometry, hover
// text, clicks, the axes and the legend.
#include "panels/divergence_map_panel.h"

#include "widgets/matrix_colors.h"

#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <iterator>

using namespace dumpscope;

namespace {

constexpr int kStripHeight = 40;   // a flat buffer's strip
constexpr int kDensityHeight = 48; // and the bars of its density below it
constexpr int kTicks = 5;

// A legend end: the |Δ| of a log10 position, to three digits.
QString scaleLabel(double log10Value) {
    return QString::number(std::pow(10.0, log10Value), 'g', 3);
}

QString span(const char* what, std::uint64_t first, std::uint64_t end) {
    return end - first == 1
               ? QStringLiteral("%1 %2").arg(QLatin1String(what)).arg(first)
               : QStringLiteral("%1s %2–%3").arg(QLatin1String(what)).arg(first).arg(end - 1);
}

} // namespace

// Grey that stands back from the reds on either palette: light on a light window, dark on a
// dark one.
QColor DivergenceMapPanel::equalColor() {
    return matrix_colors::darkPalette() ? QColor(0x4a, 0x4a, 0x4a) : QColor(0xe0, 0xe0, 0xe0);
}
QColor DivergenceMapPanel::nonFiniteColor() {
    return QColor(0x1e, 0x88, 0xe5);
}

// Yellow (the map's smallest |Δ|) through orange and red to near black-red (its largest): the
// matrix's "darker red is larger", with enough steps to tell decades apart.
QColor DivergenceMapPanel::scaleColor(double t) {
    static const QColor anchors[] = {QColor(0xfe, 0xd9, 0x76), QColor(0xfd, 0x8d, 0x3c),
                                     QColor(0xf0, 0x3b, 0x20), QColor(0xbd, 0x00, 0x26),
                                     QColor(0x67, 0x00, 0x0d)};
    constexpr int last = int(std::size(anchors)) - 1;
    const double x = std::clamp(t, 0.0, 1.0) * last;
    const int i = std::min(int(x), last - 1);
    const double f = x - i;
    auto mix = [f](int a, int b) { return int(std::lround(a + (b - a) * f)); };
    const QColor &lo = anchors[i], &hi = anchors[i + 1];
    return QColor(mix(lo.red(), hi.red()), mix(lo.green(), hi.green()), mix(lo.blue(), hi.blue()));
}

QColor DivergenceMapPanel::cellColor(const MapCell& cell) const {
    if (cell.nDiff == 0) return equalColor();
    if (cell.nNonFinite > 0 || std::isinf(cell.maxAbsDelta)) return nonFiniteColor();
    if (cell.maxAbsDelta <= 0) return scaleColor(0); // only ±0 or NaN payloads differ
    if (m_hiLog <= m_loLog) return scaleColor(1);
    return scaleColor((std::log10(cell.maxAbsDelta) - m_loLog) / (m_hiLog - m_loLog));
}

QString DivergenceMapPanel::statusText() const {
    return m_status->text();
}

QRect DivergenceMapPanel::mapRect() const {
    if (!m_map || m_map->cells.empty()) return {};
    const QFontMetrics fm = fontMetrics();
    const int left = m_map->flat ? 6 : fm.horizontalAdvance(QString::number(m_map->rows)) + 10;
    const int top = m_status->geometry().bottom() + 8;
    QRect r(left, top, width() - left - kLegendWidth - 8, height() - top - fm.height() - 10);
    if (m_map->flat) r.setHeight(std::min(r.height(), kStripHeight));
    return r.isValid() ? r : QRect();
}

QRect DivergenceMapPanel::cellRect(quint32 row, quint32 col) const {
    const QRect m = mapRect();
    return m.isEmpty() ? QRect() : gridCellRect(m, m_map->gridRows, m_map->gridCols, row, col);
}

std::optional<std::pair<quint32, quint32>> DivergenceMapPanel::cellAt(const QPoint& pos) const {
    const QRect m = mapRect();
    if (m.isEmpty()) return std::nullopt;
    return gridCellAt(m, m_map->gridRows, m_map->gridCols, pos);
}

QString DivergenceMapPanel::cellText(quint32 row, quint32 col) const {
    if (!m_map || row >= m_map->gridRows || col >= m_map->gridCols) return {};
    const auto r = m_map->cellRange(row, col);
    const MapCell& cell = m_map->cell(row, col);
    const quint64 elements = (r.rowEnd - r.rowFirst) * (r.colEnd - r.colFirst);
    QString text = m_map->flat ? span("element", r.colFirst, r.colEnd)
                               : span("row", r.rowFirst, r.rowEnd) + QStringLiteral(", ") +
                                     span("column", r.colFirst, r.colEnd);
    text += elements == 1 ? tr(": 1 element\n") : tr(": %1 elements\n").arg(elements);
    if (cell.nDiff == 0) return text + tr("all equal");
    text += tr("%1 differ, max|Δ| %2").arg(cell.nDiff).arg(cell.maxAbsDelta, 0, 'g', 6);
    if (cell.nNonFinite) text += tr("\n%1 NaN/Inf on one side only").arg(cell.nNonFinite);
    return text + tr("\nClick to show the first difference (%1)").arg(*cell.firstDiff);
}

void DivergenceMapPanel::mouseMoveEvent(QMouseEvent* event) {
    const auto cell = cellAt(event->position().toPoint());
    const QString text = cell ? cellText(cell->first, cell->second) : QString();
    if (text == m_hoverText) return;
    m_hoverText = text;
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this,
                           cellRect(cell->first, cell->second));
}

void DivergenceMapPanel::leaveEvent(QEvent* event) {
    m_hoverText.clear();
    QWidget::leaveEvent(event);
}

void DivergenceMapPanel::mousePressEvent(QMouseEvent* event) {
    const auto cell =
        event->button() == Qt::LeftButton ? cellAt(event->position().toPoint()) : std::nullopt;
    if (!cell) return QWidget::mousePressEvent(event);
    if (const auto element = m_map->elementOfCell(cell->first, cell->second)) {
        setMarkedElement(*element);
        emit elementClicked(*element);
    }
}

void DivergenceMapPanel::paintEvent(QPaintEvent*) {
    const QRect m = mapRect();
    if (m.isEmpty()) return;
    QPainter p(this);
    for (quint32 r = 0; r < m_map->gridRows; ++r)
        for (quint32 c = 0; c < m_map->gridCols; ++c)
            p.fillRect(cellRect(r, c), m_image.pixelColor(int(c), int(r)));
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(m.adjusted(0, 0, -1, -1));
    if (const auto cell = m_marked ? m_map->cellOfElement(*m_marked) : std::nullopt) {
        // At least 7 px, so that the cell of one element in a fine grid still shows.
        QRect mark = cellRect(cell->first, cell->second);
        const QPoint centre = mark.center();
        mark.setSize(mark.size().expandedTo(QSize(7, 7)));
        mark.moveCenter(centre);
        p.setPen(QPen(palette().color(QPalette::Highlight), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(mark);
    }
    paintAxes(p, m);
    paintLegend(p, QRect(m.right() + 12, m.top(), kLegendWidth - 4, height() - m.top()));
}

// Tick labels at a few cell boundaries: the first row (column, element) of the cell there.
void DivergenceMapPanel::paintAxes(QPainter& p, const QRect& m) const {
    const QFontMetrics fm = fontMetrics();
    p.setPen(palette().color(QPalette::WindowText));
    const quint32 cols = m_map->gridCols, rows = m_map->gridRows;
    // Labels that would touch the previous one are left out: long indices on a narrow map.
    int clearFrom = m.left() - 1;
    for (int k = 0; k < kTicks && cols > 0; ++k) {
        const quint32 c = quint32(quint64(cols - 1) * quint32(k) / (kTicks - 1));
        const QRect cell = cellRect(0, c);
        const QString label = QString::number(m_map->cellRange(0, c).colFirst);
        const int width = fm.horizontalAdvance(label);
        const int x = std::clamp(cell.left(), m.left(), m.right() - width);
        if (x <= clearFrom) continue;
        p.drawText(x, m.bottom() + 4 + fm.ascent(), label);
        clearFrom = x + width + fm.horizontalAdvance(QLatin1Char(' '));
    }
    if (m_map->flat) {
        // The density: the share of each bin's elements that differ, as bars under the strip.
        const QRect bars(m.left(), m.bottom() + fm.height() + 8, m.width(), kDensityHeight);
        p.setPen(palette().color(QPalette::Mid));
        p.drawRect(bars.adjusted(0, 0, -1, -1));
        for (quint32 c = 0; c < cols; ++c) {
            const auto r = m_map->cellRange(0, c);
            const double share = double(m_map->cell(0, c).nDiff) / double(r.colEnd - r.colFirst);
            const int h = int(std::ceil(share * (bars.height() - 2)));
            const QRect x = cellRect(0, c);
            p.fillRect(QRect(x.left(), bars.bottom() - h, std::max(1, x.width()), h),
                       palette().color(QPalette::WindowText));
        }
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(bars.left(), bars.bottom() + 2 + fm.ascent(),
                   tr("share of each bin that differs"));
        return;
    }
    int clearBelow = m.top() - 1;
    for (int k = 0; k < kTicks && rows > 0; ++k) {
        const quint32 r = quint32(quint64(rows - 1) * quint32(k) / (kTicks - 1));
        const QRect cell = cellRect(r, 0);
        const QString label = QString::number(m_map->cellRange(r, 0).rowFirst);
        const int y = std::clamp(cell.top() + fm.ascent(), m.top() + fm.ascent(), m.bottom());
        if (y - fm.ascent() <= clearBelow) continue;
        p.drawText(m.left() - 6 - fm.horizontalAdvance(label), y, label);
        clearBelow = y + fm.descent();
    }
}

void DivergenceMapPanel::paintLegend(QPainter& p, const QRect& area) const {
    const QFontMetrics fm = fontMetrics();
    const int line = fm.height();
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(area.left(), area.top() + fm.ascent(), tr("max|Δ|"));
    const QRect bar(area.left(), area.top() + line + 4, 14, std::clamp(area.height() / 3, 40, 120));
    QLinearGradient gradient(bar.topLeft(), bar.bottomLeft());
    for (int i = 0; i <= 8; ++i)
        gradient.setColorAt(i / 8.0, scaleColor(1.0 - i / 8.0));
    p.fillRect(bar, gradient);
    p.drawText(bar.right() + 4, bar.top() + fm.ascent(), scaleLabel(m_hiLog));
    p.drawText(bar.right() + 4, bar.bottom(), QStringLiteral("≤") + scaleLabel(m_loLog));
    int y = bar.bottom() + 8;
    for (const auto& [color, label] :
         {std::pair{equalColor(), tr("equal")}, std::pair{nonFiniteColor(), tr("NaN/Inf")}}) {
        p.fillRect(QRect(area.left(), y, 14, line - 2), color);
        p.drawText(area.left() + 18, y + fm.ascent() - 1, label);
        y += line + 2;
    }
}

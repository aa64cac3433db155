#include "widgets/sparkline_delegate.h"

#include "models/buffer_list_model.h"
#include "widgets/growth_sparkline.h"
#include "widgets/matrix_colors.h"

#include <QApplication>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace {

constexpr int kBarWidth = 5; // per step, gap included
constexpr int kMaxWidth = 240;

} // namespace

double SparklineDelegate::barHeight(quint64 nDiff, quint64 maxDiff) {
    if (nDiff == 0 || maxDiff == 0) return 0.0;
    // One differing element still shows: a floor of a fifth of the height.
    const double share = std::log1p(double(nDiff)) / std::log1p(double(maxDiff));
    return 0.2 + 0.8 * share;
}

void SparklineDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                              const QModelIndex& index) const {
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget); // background, selection

    const QVariant value = index.data(BufferListModel::GrowthRole);
    if (!value.canConvert<GrowthSparkline>()) return;
    const GrowthSparkline line = value.value<GrowthSparkline>();
    const auto& points = line.points();
    if (points.empty()) return;

    const QRect area = option.rect.adjusted(3, 3, -3, -3);
    const int n = static_cast<int>(points.size());
    const double step = std::min<double>(kBarWidth, double(area.width()) / n);
    quint64 maxDiff = 0;
    for (const auto& p : points)
        maxDiff = std::max<quint64>(maxDiff, p.nDiff);

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    const QColor baseline = option.palette.color(QPalette::Mid);
    painter->setPen(baseline);
    painter->drawLine(area.left(), area.bottom(), area.left() + int(step * n), area.bottom());
    for (int i = 0; i < n; ++i) {
        const auto& p = points[std::size_t(i)];
        const double x = area.left() + step * i;
        const double w = std::max(1.0, step - 1.0);
        if (p.status == dumpscope::Status::missing) {
            painter->fillRect(QRectF(x, area.bottom() - 1, w, 2), matrix_colors::missing());
        } else if (p.nDiff > 0) {
            const double h = std::max(1.0, barHeight(p.nDiff, maxDiff) * area.height());
            const QColor colour = dumpscope::isTolerated(p.status)
                                      ? matrix_colors::withinTolerance()
                                      : matrix_colors::diverge(p.maxAbsDelta);
            painter->fillRect(QRectF(x, area.bottom() + 1 - h, w, h), colour);
        }
        if (i == line.current) {
            painter->setPen(QPen(option.palette.color(QPalette::Text), 1));
            painter->setBrush(Qt::NoBrush);
            painter->drawRect(QRectF(x - 0.5, area.top(), w, area.height()));
        }
    }
    painter->restore();
}

QSize SparklineDelegate::sizeHint(const QStyleOptionViewItem& option,
                                  const QModelIndex& index) const {
    const QVariant value = index.data(BufferListModel::GrowthRole);
    const int steps = value.canConvert<GrowthSparkline>()
                          ? static_cast<int>(value.value<GrowthSparkline>().points().size())
                          : 0;
    const QSize base = QStyledItemDelegate::sizeHint(option, index);
    return {std::clamp(steps * kBarWidth + 8, 48, kMaxWidth), base.height()};
}

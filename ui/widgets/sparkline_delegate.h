#pragma once

#include <QStyledItemDelegate>

// Paints a GrowthSparkline (BufferListModel::GrowthRole) as a small bar chart: one bar per step,
// its height the differing count on a log scale (an amplifying divergence grows by decades),
// red where the step diverges, yellow within tolerance, a grey tick where the buffer was not
// dumped, nothing where it is equal. The row's own step is outlined.
class SparklineDelegate : public QStyledItemDelegate {
    Q_OBJECT
  public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    // Height of step `nDiff`'s bar as a share of the tallest, 0..1 (tests; log scale).
    static double barHeight(quint64 nDiff, quint64 maxDiff);
};

#include "widgets/differing_suffix_delegate.h"

#include "widgets/matrix_colors.h"

#include <QApplication>
#include <QPainter>

DifferingSuffixDelegate::DifferingSuffixDelegate(QObject* parent) : QStyledItemDelegate(parent) {}

void DifferingSuffixDelegate::pairColumns(int a, int b) {
    m_partner[a] = b;
    m_partner[b] = a;
}

int DifferingSuffixDelegate::differingFrom(const QString& text, const QString& other) {
    if (text == other) return -1;
    const qsizetype n = std::min(text.size(), other.size());
    qsizetype i = 0;
    while (i < n && text[i] == other[i])
        ++i;
    return int(i);
}

int DifferingSuffixDelegate::suffixStart(const QModelIndex& index, const QString& text) const {
    const auto partner = m_partner.find(index.column());
    if (partner == m_partner.end()) return -1;
    const QString other = index.siblingAtColumn(partner->second).data().toString();
    // A side that is absent (a one-sided tail) has nothing to differ from digit by digit.
    if (other.isEmpty() || text.isEmpty()) return -1;
    const int from = differingFrom(text, other);
    return from < int(text.size()) ? from : -1;
}

void DifferingSuffixDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                    const QModelIndex& index) const {
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    const int from = suffixStart(index, text);
    if (from < 0) {
        opt.textElideMode = Qt::ElideNone;
        QStyle* style = opt.widget ? opt.widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
        return;
    }
    // The item's background and focus as usual, then the text in two runs.
    opt.text.clear();
    QStyle* style = opt.widget ? opt.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
    const QRect area = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, opt.widget)
                           .adjusted(2, 0, -2, 0); // the style's own text margin
    const bool selected = opt.state & QStyle::State_Selected;
    const QColor plain = opt.palette.color(selected ? QPalette::HighlightedText : QPalette::Text);
    QFont bold = opt.font;
    bold.setBold(true);
    const QString head = text.left(from), tail = text.mid(from);
    const int headWidth = QFontMetrics(opt.font).horizontalAdvance(head);
    const int width = headWidth + QFontMetrics(bold).horizontalAdvance(tail);
    // Both runs together, placed as the item's alignment places one text.
    int x = area.left();
    if (opt.displayAlignment & Qt::AlignRight)
        x = area.right() + 1 - width;
    else if (opt.displayAlignment & Qt::AlignHCenter)
        x = area.left() + (area.width() - width) / 2;
    const QRect headRect(x, area.top(), headWidth, area.height());
    const QRect tailRect(x + headWidth, area.top(), width - headWidth, area.height());
    const int flags = Qt::AlignVCenter | Qt::AlignLeft | Qt::TextDontClip;
    painter->save();
    painter->setClipRect(opt.rect);
    painter->setFont(opt.font);
    painter->setPen(plain);
    painter->drawText(headRect, flags, head);
    painter->setFont(bold);
    painter->setPen(selected ? plain : matrix_colors::divergeText());
    painter->drawText(tailRect, flags, tail);
    painter->restore();
}

QSize DifferingSuffixDelegate::sizeHint(const QStyleOptionViewItem& option,
                                        const QModelIndex& index) const {
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const int from = suffixStart(index, opt.text);
    if (from < 0) return size;
    QFont bold = opt.font;
    bold.setBold(true);
    const QString tail = opt.text.mid(from);
    // The bold run is wider than the plain one the base hint measured.
    size.rwidth() +=
        QFontMetrics(bold).horizontalAdvance(tail) - QFontMetrics(opt.font).horizontalAdvance(tail);
    return size;
}

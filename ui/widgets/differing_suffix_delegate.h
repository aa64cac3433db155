#pragma once

#include <QStyledItemDelegate>

#include <map>

// Paints a value beside the value it is compared with (A beside B, A's bits beside B's) with
// the digits from the first one that differs in bold and in the divergent colour, so that
// 0.00044066841 against 0.00044066844 reads at a glance. Text is never elided: its size hint
// counts the bold suffix, and the element panel sizes columns to the hints of the rows shown.
class DifferingSuffixDelegate : public QStyledItemDelegate {
    Q_OBJECT
  public:
    explicit DifferingSuffixDelegate(QObject* parent = nullptr);

    // Columns `a` and `b` are compared with each other; other columns paint as usual.
    void pairColumns(int a, int b);

    // Where `text` starts to differ from `other`: the length of their common prefix, or -1
    // when they are equal.
    static int differingFrom(const QString& text, const QString& other);

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

  private:
    // The partner's text and where this cell's text starts to differ (-1: not a paired
    // column, or equal).
    int suffixStart(const QModelIndex& index, const QString& text) const;

    std::map<int, int> m_partner;
};

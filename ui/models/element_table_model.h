#pragma once

#include "dumpscope/buffer_view.h"
#include "dumpscope/diff_index.h"
#include "dumpscope/element_order.h"

#include <QAbstractTableModel>

#include <memory>
#include <optional>
#include <vector>

// The elements of one buffer pair, formatted lazily from the core's BufferView in data().
//
// A QTableView keeps per-row bookkeeping in its vertical header (measured: 800 MB and 4 s for
// 100 million rows), so this model never exposes all rows at once. It is a *window*: rows
// [firstRow, firstRow + windowRows) of the logical row sequence, and ElementPanel moves the
// window with its own scroll bar. A logical row is an element index, or — with a row index set
// ("only differing" or a histogram-bar filter) — the k-th element of that DiffIndex, or — with
// a row order set (a sorted column) — the k-th element of that ElementOrder.
class ElementTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        IndexColumn,
        AColumn,
        BColumn,
        DeltaColumn,
        RelDeltaColumn,
        UlpColumn,
        ABitsColumn,
        BBitsColumn,
        ColumnCount
    };
    enum Role {
        ElementIndexRole = Qt::UserRole + 1, // quint64: the element the row shows
        DiffersRole,                         // bool: the two sides' bits differ (or one is absent)
    };

    explicit ElementTableModel(QObject* parent = nullptr);

    // Either side may be null (a one-sided buffer). Resets to all elements, window at row 0.
    void setSource(std::shared_ptr<const dumpscope::BufferView> a,
                   std::shared_ptr<const dumpscope::BufferView> b);
    // Rows become the elements of `index`; null: every element. Window back to row 0.
    void setRowIndex(std::shared_ptr<const dumpscope::DiffIndex> index);
    // Rows become the elements of `order`, in its order, over the row index; null: back to the
    // row index. setRowIndex and setSource drop the order. Window back to row 0.
    void setRowOrder(std::shared_ptr<const dumpscope::ElementOrder> order);
    const std::shared_ptr<const dumpscope::ElementOrder>& rowOrder() const { return m_rowOrder; }
    void clear();
    // The buffer's resolved shape (BufferResult::shape): the Index column reads as tuples,
    // "(17, 3)". Empty: flat indices. Elements past the shape (a longer side) stay flat.
    void setShape(std::vector<std::uint64_t> dims);
    const std::vector<std::uint64_t>& shape() const { return m_shape; }

    const std::shared_ptr<const dumpscope::DiffIndex>& rowIndex() const { return m_rowIndex; }
    quint64 elementCount() const; // max(nA, nB)
    quint64 logicalRowCount() const;
    quint64 firstRow() const { return m_firstRow; }
    int windowRows() const { return m_windowRows; }
    // Moves and sizes the window; `first` is clamped so that the window stays full when it can.
    void setWindow(quint64 first, int rows);

    std::optional<quint64> elementOfLogicalRow(quint64 row) const;
    // The logical row showing `element`, or nullopt when the row index does not hold it.
    std::optional<quint64> logicalRowOfElement(quint64 element) const;
    std::optional<quint64> elementAt(int windowRow) const;

    // The display text of one cell of element `element`, as data() gives it (copy, tests);
    // `exact`: Δ and relative Δ in full (shortest round-trip) rather than six digits.
    QString cellText(quint64 element, int column, bool exact = false) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    int computeRowCount() const;
    void refreshWindow();

    std::shared_ptr<const dumpscope::BufferView> m_a, m_b;
    std::shared_ptr<const dumpscope::DiffIndex> m_rowIndex;
    std::shared_ptr<const dumpscope::ElementOrder> m_rowOrder;
    dumpscope::DType m_dtype = dumpscope::DType::u8;
    quint64 m_firstRow = 0;
    int m_windowRows = 64;
    int m_rowCount = 0; // rows currently exposed, kept in step with begin/end notifications
    std::vector<quint64> m_rowElements; // element of each exposed row
    std::vector<std::uint64_t> m_shape;
};

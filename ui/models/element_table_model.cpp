#include "models/element_table_model.h"

#include "widgets/matrix_colors.h"

#include "dumpscope/shape.h"

#include <QBrush>
#include <QColor>
#include <QFontDatabase>

#include <algorithm>
#include <charconv>

using namespace dumpscope;

namespace {

// Exact: the shortest text that reads back to the same double (tooltips). Otherwise six
// significant digits, which keep the column narrow and still never show a one-ULP Δ as zero.
QString doubleText(double v, bool exact) {
    if (!exact) return QString::number(v, 'g', 6);
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return QString::fromLatin1(buf, static_cast<int>(r.ptr - buf));
}

QString fromStd(const std::string& s) {
    return QString::fromStdString(s);
}

// Plain out-parameter rather than std::optional: GCC 12 flags optional's payload as maybe
// uninitialized after the ternaries this would otherwise need.
bool readBits(const std::shared_ptr<const BufferView>& view, quint64 element, std::uint64_t& out) {
    if (!view) return false;
    const auto bits = view->bits(element);
    if (!bits) return false;
    out = *bits;
    return true;
}

} // namespace

ElementTableModel::ElementTableModel(QObject* parent) : QAbstractTableModel(parent) {}

// The window's elements, looked up once per move: a repaint asks data() for ~10 roles per
// cell, and a select() per call would cost more than the formatting.
void ElementTableModel::refreshWindow() {
    m_rowElements.resize(std::size_t(m_rowCount));
    for (int r = 0; r < m_rowCount; ++r)
        m_rowElements[std::size_t(r)] = elementOfLogicalRow(m_firstRow + quint64(r)).value_or(0);
}

void ElementTableModel::setSource(std::shared_ptr<const BufferView> a,
                                  std::shared_ptr<const BufferView> b) {
    beginResetModel();
    m_a = std::move(a);
    m_b = std::move(b);
    m_dtype = m_a ? m_a->dtype() : m_b ? m_b->dtype() : DType::u8;
    m_rowIndex.reset();
    m_rowOrder.reset();
    m_firstRow = 0;
    m_rowCount = computeRowCount();
    refreshWindow();
    endResetModel();
}

void ElementTableModel::setRowIndex(std::shared_ptr<const DiffIndex> index) {
    beginResetModel();
    m_rowIndex = std::move(index);
    m_rowOrder.reset();
    m_firstRow = 0;
    m_rowCount = computeRowCount();
    refreshWindow();
    endResetModel();
}

void ElementTableModel::setRowOrder(std::shared_ptr<const ElementOrder> order) {
    beginResetModel();
    m_rowOrder = std::move(order);
    m_firstRow = 0;
    m_rowCount = computeRowCount();
    refreshWindow();
    endResetModel();
}

void ElementTableModel::clear() {
    setSource(nullptr, nullptr);
}

void ElementTableModel::setShape(std::vector<std::uint64_t> dims) {
    if (dims == m_shape) return;
    m_shape = std::move(dims);
    if (m_rowCount > 0) emit dataChanged(index(0, IndexColumn), index(m_rowCount - 1, IndexColumn));
}

quint64 ElementTableModel::elementCount() const {
    return std::max(m_a ? m_a->size() : 0, m_b ? m_b->size() : 0);
}

quint64 ElementTableModel::logicalRowCount() const {
    if (m_rowOrder) return m_rowOrder->elements.size();
    return m_rowIndex ? m_rowIndex->count() : elementCount();
}

int ElementTableModel::computeRowCount() const {
    const quint64 total = logicalRowCount();
    if (m_firstRow >= total) return 0;
    return static_cast<int>(std::min<quint64>(total - m_firstRow, quint64(m_windowRows)));
}

void ElementTableModel::setWindow(quint64 first, int rows) {
    rows = std::max(rows, 1);
    const quint64 total = logicalRowCount();
    first = std::min(first, total > quint64(rows) ? total - quint64(rows) : 0);
    if (first == m_firstRow && rows == m_windowRows) return;
    const bool moved = first != m_firstRow;
    const int oldCount = m_rowCount;
    const quint64 oldFirst = m_firstRow;
    m_firstRow = first;
    m_windowRows = rows;
    const int newCount = computeRowCount();
    m_firstRow = oldFirst; // rows change first, at the old position, then the window moves
    if (newCount < oldCount) {
        beginRemoveRows({}, newCount, oldCount - 1);
        m_rowCount = newCount;
        refreshWindow();
        endRemoveRows();
    } else if (newCount > oldCount) {
        beginInsertRows({}, oldCount, newCount - 1);
        m_rowCount = newCount;
        refreshWindow();
        endInsertRows();
    }
    m_firstRow = first;
    refreshWindow();
    if (moved && m_rowCount > 0)
        emit dataChanged(index(0, 0), index(m_rowCount - 1, ColumnCount - 1));
}

std::optional<quint64> ElementTableModel::elementOfLogicalRow(quint64 row) const {
    if (m_rowOrder) {
        if (row >= m_rowOrder->elements.size()) return std::nullopt;
        return m_rowOrder->elements[std::size_t(row)];
    }
    if (m_rowIndex) return m_rowIndex->select(row);
    if (row >= elementCount()) return std::nullopt;
    return row;
}

std::optional<quint64> ElementTableModel::logicalRowOfElement(quint64 element) const {
    // A linear search: an order holds at most ElementPanel's limit of rows (10^5), and this runs
    // per jump or window move, not per cell.
    if (m_rowOrder) {
        const auto& rows = m_rowOrder->elements;
        const auto at = std::find(rows.begin(), rows.end(), element);
        if (at == rows.end()) return std::nullopt;
        return quint64(at - rows.begin());
    }
    if (m_rowIndex) {
        if (!m_rowIndex->contains(element)) return std::nullopt;
        return m_rowIndex->rank(element);
    }
    if (element >= elementCount()) return std::nullopt;
    return element;
}

std::optional<quint64> ElementTableModel::elementAt(int windowRow) const {
    if (windowRow < 0 || windowRow >= m_rowCount) return std::nullopt;
    return m_rowElements[std::size_t(windowRow)];
}

int ElementTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : m_rowCount;
}

int ElementTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString ElementTableModel::cellText(quint64 element, int column, bool exact) const {
    std::uint64_t a = 0, b = 0;
    const bool hasA = readBits(m_a, element, a);
    const bool hasB = readBits(m_b, element, b);
    switch (column) {
    case IndexColumn:
        if (m_shape.size() >= 2 && element < shapeRows(m_shape) * shapeCols(m_shape))
            return fromStd(formatIndex(element, m_shape));
        return QString::number(element);
    case AColumn:
        return hasA ? fromStd(formatValue(m_dtype, a)) : QString();
    case BColumn:
        return hasB ? fromStd(formatValue(m_dtype, b)) : QString();
    case ABitsColumn:
        return hasA ? fromStd(formatBits(m_dtype, a)) : QString();
    case BBitsColumn:
        return hasB ? fromStd(formatBits(m_dtype, b)) : QString();
    default:
        break;
    }
    if (!hasA || !hasB) return {};          // past the shorter side's end: nothing to compare
    if (a == b) return QStringLiteral("0"); // bitwise equal, identical NaNs included
    const ElementDelta d = elementDelta(m_dtype, a, b);
    switch (column) {
    case DeltaColumn:
        return doubleText(d.absDelta, exact);
    case RelDeltaColumn:
        return doubleText(d.relDelta, exact);
    case UlpColumn:
        return d.ulp ? QString::number(*d.ulp) : QStringLiteral("—");
    default:
        return {};
    }
}

QVariant ElementTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.model() != this) return {};
    const auto element = elementAt(index.row());
    if (!element) return {};
    switch (role) {
    case Qt::DisplayRole:
        return cellText(*element, index.column());
    case Qt::ToolTipRole:
        if (index.column() == DeltaColumn || index.column() == RelDeltaColumn)
            return cellText(*element, index.column(), true);
        return {};
    case ElementIndexRole:
        return QVariant::fromValue<quint64>(*element);
    case DiffersRole:
    case Qt::BackgroundRole: {
        std::uint64_t a = 0, b = 0;
        const bool hasA = readBits(m_a, *element, a);
        const bool hasB = readBits(m_b, *element, b);
        const bool differs = !hasA || !hasB || a != b;
        if (role == DiffersRole) return differs;
        if (!differs) return {};
        // Red for a value difference; amber for an element only one side has.
        return QBrush(hasA && hasB ? matrix_colors::differingRow() : matrix_colors::oneSidedRow());
    }
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::FontRole:
        if (index.column() == ABitsColumn || index.column() == BBitsColumn)
            return QFontDatabase::systemFont(QFontDatabase::FixedFont);
        return {};
    default:
        return {};
    }
}

QVariant ElementTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    static const char* const kTitles[ColumnCount] = {"Index",      "A",   "B",      "|Δ|",
                                                     "Relative Δ", "ULP", "A bits", "B bits"};
    static const char* const kTips[ColumnCount] = {
        "Element index in the buffer",
        "Run A's value",
        "Run B's value",
        "|A − B| (exact for integers; 0 for bitwise-equal elements)",
        "|Δ| / max(|A|, |B|)",
        "Distance in units in the last place (— with a NaN side)",
        "Run A's raw bits",
        "Run B's raw bits"};
    if (role == Qt::DisplayRole) return tr(kTitles[section]);
    if (role == Qt::ToolTipRole) {
        if (section == IndexColumn)
            return tr(kTips[section]) + tr("; click to list the elements in index order");
        if (section == ABitsColumn || section == BBitsColumn) return tr(kTips[section]);
        return tr(kTips[section]) +
               tr("; click to sort the differing elements by it, largest first (again: smallest "
                  "first)");
    }
    return {};
}

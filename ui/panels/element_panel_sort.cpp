// ElementPanel's sorted columns: a header click orders the differing elements by that column
// through the core's orderDifferingElements, which keeps the first orderLimit() of them, so a
// sort costs a bounded heap and one pass over the chunks that hold a difference, never a row
// per element. (Setup is in element_panel.cpp, the table's navigation in element_panel_table.cpp.)
#include "panels/element_panel.h"

#include "models/element_table_model.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableView>
#include <QToolButton>

using namespace dumpscope;

namespace {

std::optional<ElementOrderKey> keyOfColumn(int column) {
    switch (column) {
    case ElementTableModel::AColumn:
        return ElementOrderKey::valueA;
    case ElementTableModel::BColumn:
        return ElementOrderKey::valueB;
    case ElementTableModel::DeltaColumn:
        return ElementOrderKey::absDelta;
    case ElementTableModel::RelDeltaColumn:
        return ElementOrderKey::relDelta;
    case ElementTableModel::UlpColumn:
        return ElementOrderKey::ulp;
    default:
        return std::nullopt; // Index is the natural order; raw bits have no order worth asking
    }
}

int columnOfKey(ElementOrderKey key) {
    for (int c = 0; c < ElementTableModel::ColumnCount; ++c)
        if (keyOfColumn(c) == key) return c;
    return ElementTableModel::IndexColumn;
}

} // namespace

QWidget* ElementPanel::setUpOrdering() {
    m_orderBar = new QWidget;
    m_orderLabel = new QLabel;
    m_orderLabel->setObjectName(QStringLiteral("elementOrder"));
    auto* indexOrder = new QToolButton;
    indexOrder->setText(tr("Index Order"));
    indexOrder->setToolTip(tr("List the elements by index again"));
    auto* layout = new QHBoxLayout(m_orderBar);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_orderLabel, 1);
    layout->addWidget(indexOrder);
    m_orderBar->hide();
    connect(indexOrder, &QToolButton::clicked, this, &ElementPanel::clearOrder);

    QHeaderView* header = m_view->horizontalHeader();
    header->setSectionsClickable(true);
    header->setSortIndicatorShown(true);
    header->setSortIndicator(ElementTableModel::IndexColumn, Qt::AscendingOrder);
    // The header would flip its indicator by itself; syncSortIndicator() sets it to the order
    // the table really has. The same column again reverses; another starts largest first,
    // which is what a search for the worst elements wants.
    connect(header, &QHeaderView::sectionClicked, this, [this](int column) {
        const auto key = keyOfColumn(column);
        Qt::SortOrder order = Qt::DescendingOrder;
        if (key && m_orderRequest && m_orderRequest->key == *key && m_orderRequest->descending)
            order = Qt::AscendingOrder;
        sortByColumn(column, order);
    });
    return m_orderBar;
}

void ElementPanel::sortByColumn(int column, Qt::SortOrder order) {
    const auto key = keyOfColumn(column);
    if (!key || !m_a || !m_b) {
        if (column == ElementTableModel::IndexColumn) clearOrder();
        syncSortIndicator();
        return;
    }
    const bool descending = order == Qt::DescendingOrder;
    if (!m_orderRequest || m_orderRequest->key != *key ||
        m_orderRequest->descending != descending) {
        resetOrder();
        m_orderRequest = OrderRequest{*key, descending};
        applyMode();
    }
    syncSortIndicator();
}

void ElementPanel::clearOrder() {
    if (!m_orderRequest) return;
    resetOrder();
    applyMode();
    syncSortIndicator();
}

void ElementPanel::resetOrder() {
    if (m_orderJob) m_status->clear(); // its progress
    stopJob(m_orderJob);
    ++m_orderSequence;
    m_orderRequest.reset();
    m_order.reset();
    m_orderSet.reset();
    m_orderJobSet.reset();
}

void ElementPanel::syncSortIndicator() {
    QHeaderView* header = m_view->horizontalHeader();
    if (m_orderRequest)
        header->setSortIndicator(columnOfKey(m_orderRequest->key), m_orderRequest->descending
                                                                       ? Qt::DescendingOrder
                                                                       : Qt::AscendingOrder);
    else
        header->setSortIndicator(ElementTableModel::IndexColumn, Qt::AscendingOrder);
}

bool ElementPanel::applyOrder() {
    if (!m_orderRequest) return false;
    // The order is of what the table would list unsorted: a histogram bar's elements while its
    // filter is on, else every difference.
    const IndexPtr set = m_rangeFilter ? m_rangeIndex : m_diffs;
    if (m_order && m_orderSet == set) {
        if (m_model->rowOrder() != m_order) {
            m_model->setRowOrder(m_order);
            updateWindowSize();
            goToLogicalRow(0); // the first in the order is what was asked for
        }
        return true;
    }
    m_order.reset();
    if (!set || m_orderJobSet == set || !m_a || !m_b) return false; // rows as they are meanwhile
    stopJob(m_orderJob);
    m_orderJobSet = set;
    const std::uint64_t sequence = ++m_orderSequence;
    const OrderRequest request = *m_orderRequest;
    const std::size_t limit = m_orderLimit;
    const QString what =
        tr("Sorting by %1")
            .arg(m_model->headerData(columnOfKey(request.key), Qt::Horizontal).toString());
    m_orderJob = runScan(
        set->size(), what,
        [a = m_a, b = m_b, set, request, limit](const ScanProgressFn& progress,
                                                std::string* error) -> std::shared_ptr<const void> {
            auto order = orderDifferingElements(*a, *b, *set, request.key, request.descending,
                                                limit, progress, error);
            if (!order) return nullptr;
            return std::make_shared<const ElementOrder>(std::move(*order));
        },
        [this, sequence, set](std::shared_ptr<const void> result, const QString& error) {
            if (sequence != m_orderSequence) return;
            m_orderJobSet.reset();
            if (!result) {
                resetOrder();
                applyMode();
                syncSortIndicator();
                m_status->setText(tr("Cannot sort: %1").arg(error));
                return;
            }
            m_order = std::static_pointer_cast<const ElementOrder>(result);
            m_orderSet = set;
            applyMode();
            emit orderReady();
        });
    // A small buffer is sorted at once, inside runScan, and is on the table already.
    return m_order && m_orderSet == set;
}

QString ElementPanel::orderText() const {
    if (!m_orderRequest) return {};
    const QString column =
        m_model->headerData(columnOfKey(m_orderRequest->key), Qt::Horizontal).toString();
    const QString direction = m_orderRequest->descending ? tr("largest first, NaN on top")
                                                         : tr("smallest first, NaN last");
    if (!m_order) return tr("Sorting by %1 (%2)…").arg(column, direction);
    const QLocale locale;
    const QString of =
        m_rangeFilter ? tr("the histogram bar's elements") : tr("differing elements");
    if (m_order->elements.size() < m_order->considered)
        return tr("Sorted by %1 (%2): the top %3 of %4 %5")
            .arg(column, direction, locale.toString(qulonglong(m_order->elements.size())),
                 locale.toString(qulonglong(m_order->considered)), of);
    return tr("Sorted by %1 (%2): all %3 %4")
        .arg(column, direction, locale.toString(qulonglong(m_order->considered)), of);
}

#include "buffer_panel.h"

#include "buffer_list_model.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

BufferPanel::BufferPanel(QWidget* parent)
    : QWidget(parent), m_title(new QLabel(this)), m_model(new BufferListModel(this)),
      m_proxy(new QSortFilterProxyModel(this)), m_view(new QTableView(this)) {
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(BufferListModel::SortRole);
    m_proxy->setSortCaseSensitivity(Qt::CaseInsensitive);
    m_view->setObjectName(QStringLiteral("bufferList"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder); // schema order until the user sorts
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(22);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    m_title->setText(tr("Select a cell of the matrix to list its buffers."));
    m_title->setTextFormat(Qt::PlainText);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_view);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { emitCurrent(); });
    connect(m_proxy, &QAbstractItemModel::modelReset, this, [this] { emitCurrent(); });
}

void BufferPanel::setCell(SnapshotPtr snapshot, const QString& title,
                          std::vector<std::size_t> buffers) {
    m_title->setText(title);
    m_model->setBuffers(std::move(snapshot), std::move(buffers));
    m_view->resizeColumnsToContents();
}

void BufferPanel::clear() {
    m_title->setText(tr("Select a cell of the matrix to list its buffers."));
    m_model->clear();
}

bool BufferPanel::selectBuffer(const QString& name) {
    const int row = m_model->rowOf(name);
    if (row < 0) return false;
    const QModelIndex proxyIndex = m_proxy->mapFromSource(m_model->index(row, 0));
    m_view->setCurrentIndex(proxyIndex);
    m_view->scrollTo(proxyIndex);
    return true;
}

int BufferPanel::selectedBuffer() const {
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid()) return -1;
    return m_model->bufferIndex(m_proxy->mapToSource(current).row());
}

void BufferPanel::emitCurrent() {
    const int index = selectedBuffer();
    if (index == m_lastEmitted) return;
    m_lastEmitted = index;
    emit bufferSelected(index);
}

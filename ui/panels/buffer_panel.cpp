#include "panels/buffer_panel.h"

#include "models/buffer_list_model.h"
#include "widgets/frozen_column_view.h"
#include "widgets/sparkline_delegate.h"

#include "dumpscope/shape.h"

#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

BufferPanel::BufferPanel(QWidget* parent)
    : QWidget(parent), m_title(new QLabel(this)), m_model(new BufferListModel(this)),
      m_proxy(new QSortFilterProxyModel(this)), m_view(new FrozenColumnView(this)) {
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(BufferListModel::SortRole);
    m_proxy->setSortCaseSensitivity(Qt::CaseInsensitive);
    m_view->setObjectName(QStringLiteral("bufferList"));
    // Before setModel: the frozen name column takes the same selection and row look.
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(22);
    // The columns fit the rows on screen and 100 around them, not a long cell's first 1,000
    // (Qt's default): laying out the text of every column of 1,000 rows took the turn that opens
    // a cell 60-90 ms of the GUI thread.
    m_view->horizontalHeader()->setResizeContentsPrecision(100);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder); // schema order until the user sorts
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    m_view->setItemDelegateForColumn(BufferListModel::GrowthColumn, new SparklineDelegate(m_view));
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QModelIndex at = m_view->indexAt(pos);
        if (!at.isValid()) return;
        if (QMenu* menu = contextMenuFor(at.row())) {
            menu->setAttribute(Qt::WA_DeleteOnClose);
            menu->popup(m_view->viewport()->mapToGlobal(pos));
        }
    });
    m_title->setText(tr("Select a cell of the matrix to list its buffers."));
    m_title->setTextFormat(Qt::PlainText);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_view);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { emitCurrent(); });
    connect(m_proxy, &QAbstractItemModel::modelReset, this, [this] { emitCurrent(); });
    // The shown count follows the filter and the cell.
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_proxy, signal, this, [this] { updateTitle(); });
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, [this] { updateTitle(); });
}

void BufferPanel::setCell(SnapshotPtr snapshot, const QString& title,
                          std::vector<std::size_t> buffers) {
    m_cellTitle = title;
    m_model->setBuffers(std::move(snapshot), std::move(buffers));
    m_view->resizeColumnsToContents();
    m_view->fitFrozenColumn();
    updateTitle();
}

void BufferPanel::clear() {
    m_cellTitle.clear();
    m_model->clear();
    updateTitle();
}

void BufferPanel::setFilterNote(const QString& text) {
    m_filterText = text.trimmed();
    updateTitle();
}

QString BufferPanel::title() const {
    return m_title->text();
}

void BufferPanel::updateTitle() {
    if (m_cellTitle.isEmpty()) {
        m_title->setText(tr("Select a cell of the matrix to list its buffers."));
        return;
    }
    if (m_filterText.isEmpty()) {
        m_title->setText(m_cellTitle);
        return;
    }
    m_title->setText(tr("%1 — filtered by “%2”: %3 of %4 shown (clear the search field to list "
                        "all)")
                         .arg(m_cellTitle, m_filterText)
                         .arg(m_proxy->rowCount())
                         .arg(m_model->rowCount()));
}

bool BufferPanel::selectBuffer(const QString& name) {
    const int row = m_model->rowOf(name);
    if (row < 0) return false;
    const QModelIndex proxyIndex = m_proxy->mapFromSource(m_model->index(row, 0));
    if (!proxyIndex.isValid()) return false; // listed, but hidden by the search filter
    m_view->setCurrentIndex(proxyIndex);
    m_view->scrollTo(proxyIndex);
    return true;
}

int BufferPanel::selectedBuffer() const {
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid()) return -1;
    return m_model->bufferIndex(m_proxy->mapToSource(current).row());
}

void BufferPanel::setTypedShapeLookup(std::function<QString(const QString&)> lookup) {
    m_typedShape = std::move(lookup);
}

QMenu* BufferPanel::contextMenuFor(int row) {
    if (row < 0 || row >= m_proxy->rowCount()) return nullptr;
    const QString name =
        m_proxy->index(row, BufferListModel::NameColumn).data(Qt::DisplayRole).toString();
    if (name.isEmpty()) return nullptr;
    const QString typed = m_typedShape ? m_typedShape(name) : QString();
    auto* menu = new QMenu(this);
    QAction* set =
        menu->addAction(tr("Set &Shape of %1…").arg(name), this, [this, name] { editShape(name); });
    set->setObjectName(QStringLiteral("setShapeAction"));
    QAction* clear =
        menu->addAction(tr("&Clear Typed Shape (%1)").arg(typed.isEmpty() ? tr("none") : typed),
                        this, [this, name] { emit shapeChangeRequested(name, {}); });
    clear->setObjectName(QStringLiteral("clearShapeAction"));
    clear->setEnabled(!typed.isEmpty());
    return menu;
}

// The words are checked here, the sizes by the core: a shape that does not fit the buffer is
// reported on its row after the analysis ("shape not applied: …"), never refused silently.
void BufferPanel::editShape(const QString& buffer) {
    QString text = m_typedShape ? m_typedShape(buffer) : QString();
    for (;;) {
        bool ok = false;
        text = QInputDialog::getText(
            this, tr("Shape of %1").arg(buffer),
            tr("Dimensions, outermost first: numbers, names from the schema's dims (batch), "
               "or one * for the rest.\nFor example \"64, 1024\" or \"batch, *\". Empty clears "
               "the typed shape; it is remembered for every pair with a buffer of this name."),
            QLineEdit::Normal, text, &ok);
        if (!ok) return;
        if (text.trimmed().isEmpty() || !dumpscope::parseShapeText(text.toStdString()).empty())
            break;
        QMessageBox::warning(this, tr("Shape of %1").arg(buffer),
                             tr("\"%1\" is not a shape: use numbers, names and * separated by "
                                "commas, spaces or x.")
                                 .arg(text));
    }
    emit shapeChangeRequested(buffer, text.trimmed());
}

void BufferPanel::emitCurrent() {
    const int index = selectedBuffer();
    if (index == m_lastEmitted) return;
    m_lastEmitted = index;
    emit bufferSelected(index);
}

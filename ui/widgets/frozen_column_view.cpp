#include "widgets/frozen_column_view.h"

#include <QHeaderView>
#include <QScrollBar>

#include <algorithm>

FrozenColumnView::FrozenColumnView(QWidget* parent)
    : QTableView(parent), m_frozen(new QTableView(this)) {
    m_frozen->setObjectName(QStringLiteral("frozenColumn"));
    m_frozen->setFocusPolicy(Qt::NoFocus);
    m_frozen->setFrameShape(QFrame::NoFrame); // inside the main view's frame, cell for cell
    m_frozen->verticalHeader()->hide();
    m_frozen->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_frozen->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_frozen->setWordWrap(false);
    // The frozen column draws over the main view's own first column, below the scroll bars.
    viewport()->stackUnder(m_frozen);
    // Pixel scrolling keeps the two views' rows level while scrolling.
    setHorizontalScrollMode(ScrollPerPixel);
    setVerticalScrollMode(ScrollPerPixel);
    m_frozen->setVerticalScrollMode(ScrollPerPixel);

    connect(horizontalHeader(), &QHeaderView::sectionResized, this,
            [this](int logical, int, int size) {
                if (logical != 0) return;
                m_frozen->setColumnWidth(0, size);
                updateFrozenGeometry();
            });
    connect(verticalHeader(), &QHeaderView::sectionResized, this,
            [this](int logical, int, int size) { m_frozen->setRowHeight(logical, size); });
    // The shared current index may be in a column the frozen view hides; it must not scroll
    // sideways to it, or its one column would slide out of its own viewport.
    connect(m_frozen->horizontalScrollBar(), &QAbstractSlider::valueChanged, this, [this](int x) {
        if (x != 0) m_frozen->horizontalScrollBar()->setValue(0);
    });
    connect(m_frozen->verticalScrollBar(), &QAbstractSlider::valueChanged, verticalScrollBar(),
            &QAbstractSlider::setValue);
    connect(verticalScrollBar(), &QAbstractSlider::valueChanged, m_frozen->verticalScrollBar(),
            &QAbstractSlider::setValue);
    // Sorting is the main view's: a click on the frozen header sorts as a click on the header
    // below it would (the same column again reverses, a new one starts at its initial order),
    // and the frozen header shows the main one's indicator.
    m_frozen->horizontalHeader()->setSectionsClickable(true);
    connect(m_frozen->horizontalHeader(), &QHeaderView::sectionClicked, this, [this](int logical) {
        if (!isSortingEnabled()) return;
        QHeaderView* header = horizontalHeader();
        Qt::SortOrder order = Qt::AscendingOrder;
        if (header->sortIndicatorSection() == logical)
            order = header->sortIndicatorOrder() == Qt::AscendingOrder ? Qt::DescendingOrder
                                                                       : Qt::AscendingOrder;
        else if (const QVariant initial =
                     model()->headerData(logical, Qt::Horizontal, Qt::InitialSortOrderRole);
                 initial.isValid())
            order = static_cast<Qt::SortOrder>(initial.toInt());
        header->setSortIndicator(logical, order);
        syncSortIndicator();
    });
    connect(horizontalHeader(), &QHeaderView::sortIndicatorChanged, this,
            &FrozenColumnView::syncSortIndicator);
    // Its context menu is the main view's, at the same row.
    m_frozen->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_frozen, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        emit customContextMenuRequested(
            viewport()->mapFromGlobal(m_frozen->viewport()->mapToGlobal(at)));
    });
    connect(m_frozen, &QAbstractItemView::pressed, this,
            [this] { setFocus(Qt::MouseFocusReason); });
}

void FrozenColumnView::setModel(QAbstractItemModel* model) {
    QTableView::setModel(model);
    m_frozen->setModel(model);
    m_frozen->setSelectionModel(selectionModel());
    if (model) {
        connect(model, &QAbstractItemModel::modelReset, this, &FrozenColumnView::hideOtherColumns);
        connect(model, &QAbstractItemModel::columnsInserted, this,
                &FrozenColumnView::hideOtherColumns);
        connect(model, &QAbstractItemModel::layoutChanged, this,
                &FrozenColumnView::hideOtherColumns);
    }
    hideOtherColumns();
}

void FrozenColumnView::syncSortIndicator() {
    QHeaderView* frozen = m_frozen->horizontalHeader();
    frozen->setSortIndicatorShown(isSortingEnabled() && horizontalHeader()->isSortIndicatorShown());
    frozen->setSortIndicator(horizontalHeader()->sortIndicatorSection(),
                             horizontalHeader()->sortIndicatorOrder());
}

// QTableView::setModel sets a selection model for the new model before the frozen view has
// that model: setModel hands it over once both show the same model.
void FrozenColumnView::setSelectionModel(QItemSelectionModel* selectionModel) {
    QTableView::setSelectionModel(selectionModel);
    if (selectionModel && m_frozen->model() == selectionModel->model())
        m_frozen->setSelectionModel(selectionModel);
}

void FrozenColumnView::hideOtherColumns() {
    const int columns = model() ? model()->columnCount() : 0;
    for (int c = 0; c < columns; ++c)
        m_frozen->setColumnHidden(c, c != 0);
    m_frozen->setSelectionBehavior(selectionBehavior());
    m_frozen->setSelectionMode(selectionMode());
    m_frozen->setAlternatingRowColors(alternatingRowColors());
    m_frozen->verticalHeader()->setDefaultSectionSize(verticalHeader()->defaultSectionSize());
    m_frozen->setColumnWidth(0, columnWidth(0));
    syncSortIndicator();
    updateFrozenGeometry();
}

void FrozenColumnView::updateGeometries() {
    QTableView::updateGeometries();
    updateFrozenGeometry();
}

void FrozenColumnView::resizeEvent(QResizeEvent* event) {
    QTableView::resizeEvent(event);
    applyFrozenWidth();
    updateFrozenGeometry();
}

void FrozenColumnView::fitFrozenColumn() {
    if (!model() || model()->columnCount() == 0) return;
    const QAbstractItemView* view = this; // QTableView makes its override protected
    m_contentWidth = std::max(horizontalHeader()->sectionSizeHint(0), view->sizeHintForColumn(0));
    applyFrozenWidth();
}

// A longer name is elided: the rows' tooltips name it whole.
void FrozenColumnView::applyFrozenWidth() {
    if (m_contentWidth <= 0 || !model() || model()->columnCount() == 0) return;
    const int most = std::max(viewport()->width() / 2, 80);
    const int width = std::min(m_contentWidth, most);
    if (columnWidth(0) != width) setColumnWidth(0, width);
}

// Over the main view's first column, from the header's top to the viewport's bottom: the
// horizontal scroll bar below stays the main view's.
void FrozenColumnView::updateFrozenGeometry() {
    const int left = (verticalHeader()->isVisible() ? verticalHeader()->width() : 0) + frameWidth();
    m_frozen->horizontalHeader()->setFixedHeight(horizontalHeader()->height());
    m_frozen->setGeometry(left, frameWidth(), columnWidth(0),
                          viewport()->height() + horizontalHeader()->height());
    m_frozen->setHidden(!model() || model()->columnCount() == 0 || isColumnHidden(0));
}

// Moving left onto a column that lies under the frozen one scrolls it out from under it.
QModelIndex FrozenColumnView::moveCursor(CursorAction cursorAction,
                                         Qt::KeyboardModifiers modifiers) {
    const QModelIndex current = QTableView::moveCursor(cursorAction, modifiers);
    const int frozenWidth = m_frozen->columnWidth(0);
    if (cursorAction == MoveLeft && current.column() > 0 &&
        visualRect(current).topLeft().x() < frozenWidth) {
        const int value =
            horizontalScrollBar()->value() + visualRect(current).topLeft().x() - frozenWidth;
        horizontalScrollBar()->setValue(value);
    }
    return current;
}

// The first column is always in sight: scrolling to it would only throw the others out of view.
void FrozenColumnView::scrollTo(const QModelIndex& index, ScrollHint hint) {
    if (index.column() > 0) {
        QTableView::scrollTo(index, hint);
        return;
    }
    // Keep the horizontal position, scroll only vertically to the row.
    const int x = horizontalScrollBar()->value();
    QTableView::scrollTo(index, hint);
    horizontalScrollBar()->setValue(x);
}

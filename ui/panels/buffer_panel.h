#pragma once

#include "widgets/frozen_column_view.h"
#include "workers/analysis_snapshot.h"

#include <QWidget>

#include <cstddef>
#include <functional>
#include <vector>

class BufferListModel;
class QLabel;
class QMenu;
class QSortFilterProxyModel;

// The buffers of the selected matrix cell, sortable by any column.
class BufferPanel : public QWidget {
    Q_OBJECT
  public:
    explicit BufferPanel(QWidget* parent = nullptr);

    // Shows the buffers of the cell at (step, group label); an empty list clears.
    void setCell(SnapshotPtr snapshot, const QString& title, std::vector<std::size_t> buffers);
    void clear();
    // The buffer search's text: while it filters the list, the title says so and how many rows
    // it hides, so a filter typed in one cell is not silently applied to the next.
    void setFilterNote(const QString& text);
    QString title() const;
    // Selects the buffer named `name` in the list; false when it is not there or filtered out.
    bool selectBuffer(const QString& name);
    // Index into Analysis::buffers of the selected buffer, or -1.
    int selectedBuffer() const;

    // The shape text the user typed for a buffer name ("" when none): prefills Set Shape… and
    // enables Clear Typed Shape. The panel itself remembers nothing.
    void setTypedShapeLookup(std::function<QString(const QString&)> lookup);
    // The context menu for the buffer at `row` of the view (tests; null when there is none).
    QMenu* contextMenuFor(int row);

    BufferListModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    // The list; its name column stays in view when the table scrolls sideways.
    FrozenColumnView* view() const { return m_view; }

  signals:
    void bufferSelected(int bufferIndex); // -1: nothing selected
    // The user typed a shape for `buffer` (words parseShapeText accepts), or cleared it ("").
    void shapeChangeRequested(const QString& buffer, const QString& shapeText);

  private:
    void emitCurrent();
    void editShape(const QString& buffer);

    QLabel* m_title;
    QString m_cellTitle;  // the cell's own title
    QString m_filterText; // what the search field filters by, or empty
    void updateTitle();
    BufferListModel* m_model;
    QSortFilterProxyModel* m_proxy;
    FrozenColumnView* m_view;
    int m_lastEmitted = -2;
    std::function<QString(const QString&)> m_typedShape;
};

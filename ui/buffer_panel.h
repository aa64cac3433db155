#pragma once

#include "analysis_snapshot.h"

#include <QWidget>

#include <cstddef>
#include <vector>

class BufferListModel;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

// The buffers of the selected matrix cell, sortable by any column.
class BufferPanel : public QWidget {
    Q_OBJECT
  public:
    explicit BufferPanel(QWidget* parent = nullptr);

    // Shows the buffers of the cell at (step, group label); an empty list clears.
    void setCell(SnapshotPtr snapshot, const QString& title, std::vector<std::size_t> buffers);
    void clear();
    // Selects the buffer named `name` in the list; false when it is not there.
    bool selectBuffer(const QString& name);
    // Index into Analysis::buffers of the selected buffer, or -1.
    int selectedBuffer() const;

    BufferListModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* view() const { return m_view; }

  signals:
    void bufferSelected(int bufferIndex); // -1: nothing selected

  private:
    void emitCurrent();

    QLabel* m_title;
    BufferListModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    int m_lastEmitted = -2;
};

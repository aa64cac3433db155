#pragma once

#include "analysis_snapshot.h"

#include <QAbstractTableModel>

#include <cstddef>
#include <vector>

// The buffers of one matrix cell with their statistics, straight from the core's BufferStats.
// SortRole gives each column's sort key (numbers as numbers) for a QSortFilterProxyModel.
class BufferListModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        NameColumn,
        TypeColumn,
        ElementsColumn,
        DifferingColumn,
        DifferingPercentColumn,
        MaxAbsDeltaColumn,
        MaxRelDeltaColumn,
        MaxUlpColumn,
        NanInfColumn,
        KindColumn,
        StatusColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1,
        BufferIndexRole, // int: index into Analysis::buffers
        StatusRole,      // int(dumpscope::Status), -1 while pending
    };

    explicit BufferListModel(QObject* parent = nullptr);

    // Lists `buffers` (indices into the snapshot's Analysis::buffers). A new snapshot of the
    // same list only refreshes the values.
    void setBuffers(SnapshotPtr snapshot, std::vector<std::size_t> buffers);
    void clear();
    // Row of the buffer named `name`, or -1.
    int rowOf(const QString& name) const;
    int bufferIndex(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    QVariant display(const dumpscope::BufferResult& buffer, int column) const;
    QVariant sortKey(const dumpscope::BufferResult& buffer, int column) const;

    SnapshotPtr m_snapshot;
    std::vector<std::size_t> m_buffers;
};

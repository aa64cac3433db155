#pragma once

#include "workers/analysis_snapshot.h"

#include <QAbstractTableModel>
#include <QString>

// The verdict's per-group culprit table: one row per group at the first divergent step, its
// divergent buffers or EQUAL, or, with no culprit at all, one row that says why. Rows are
// read from the snapshot as the view asks for them, so a run of 100,000 groups costs what is
// on screen, not an item per cell.
class CulpritModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Role {
        GroupRole = Qt::UserRole + 1, // QString: the row's group id
        BufferRole,                   // QString: its first divergent buffer, or empty
        StepRole,                     // qulonglong: the first divergent step, when there is one
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setSnapshot(SnapshotPtr snapshot);
    void clear() { setSnapshot({}); }
    // The single row that says why nothing is listed, spanning both columns; empty otherwise.
    QString emptyReason() const { return m_why; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    QVariant statusData(const dumpscope::CulpritRow& row, int role) const;

    SnapshotPtr m_snapshot;
    QString m_why;
};

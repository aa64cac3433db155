#pragma once

#include "workers/analysis_snapshot.h"

#include <QAbstractTableModel>

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

// The step x group matrix: one row per step found, one column per schema group (plus "other").
// Fed whole snapshots; while the shape stays the same it only signals dataChanged, so the
// selection survives the analysis filling in, and for the next snapshot of the same analysis
// only over the cells that changed.
class MatrixModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Role {
        StatusRole = Qt::UserRole + 1, // int(dumpscope::Status) of the cell
        PendingRole,                   // bool: some buffers of the cell are not compared yet
        DivergentCountRole,            // qulonglong
        BufferCountRole,               // qulonglong
        MaxAbsDeltaRole,               // double
        RootCauseRole,                 // bool: the cell holds a root-cause group
        FirstDivergentStepRole,        // bool: the cell's row is the first divergent step
        StepRole,                      // qulonglong
        GroupRole,                     // QString group id, of a cell and of a column header
        // bool: at the first divergent step, the cell's group has no divergent buffer but one
        // without a pair result (one-sided, unreadable), so it is not known to be equal
        NotJudgedRole,
        // bool: a not-judged cell that feeds a divergent group, which is therefore not blamed
        UnjudgedInputRole,
    };

    explicit MatrixModel(QObject* parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    void clear();
    const SnapshotPtr& snapshot() const { return m_snapshot; }

    // The cell of `index`, or null.
    const dumpscope::GroupCell* cell(const QModelIndex& index) const;
    QModelIndex indexOf(std::uint64_t step, const std::string& group) const;
    // The group id of a column (GroupRole's, as the analysis holds it); empty past the columns.
    const std::string& groupId(int column) const;
    // Row of the first divergent step once the verdict is final, else -1.
    int firstDivergentRow() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // A column's header text: the group's id, then its label's words ("H head fwd outputs").
    static QString groupShortName(const QString& id, const QString& label);

  private:
    void signalCells(const std::vector<dumpscope::CellPosition>& cells);
    bool isPending(const dumpscope::GroupCell& cell) const;
    bool isRootCause(int row, const dumpscope::GroupCell& cell) const;
    // The verdict's culprit row for the cell when the cell is at the first divergent step.
    const dumpscope::CulpritRow* culpritRow(int row, const dumpscope::GroupCell& cell) const;
    bool isUnjudgedInput(int row, const dumpscope::GroupCell& cell) const;
    QString toolTip(int row, int column, const dumpscope::GroupCell& cell) const;
    QString groupLabel(int column) const;

    // The row of each step, built on the first lookup after a snapshot: data() asks for the
    // first divergent row for every cell it paints, and a scan of every step for each made a
    // long run's paint cost steps × cells.
    void buildLookup() const;

    SnapshotPtr m_snapshot;
    int m_rows = 0;
    int m_columns = 0;
    mutable bool m_lookupBuilt = false;
    mutable std::unordered_map<std::uint64_t, int> m_rowOfStep;
};

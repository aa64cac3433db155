#pragma once

#include "workers/analysis_snapshot.h"

#include "dumpscope/multi_run.h"

#include <QAbstractTableModel>

#include <vector>

// One row per candidate of a base-against-several-candidates analysis: the core's summary row
// (rank, first divergent step, groups, root cause, kind, counts, exit code) and the reading
// against the noise floor, with the buffers beyond it. Rows follow the input order while pairs are
// being compared and the core's ranking (earliest first divergence first) once every pair has
// finished.
class MultiSummaryModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        RankColumn,
        CandidateColumn,
        StepColumn,
        FloorColumn = 9,
        BeyondFloorColumn, // the (step, group/buffer) cells beyond the floor, with their factors
        ColumnCount
    };
    enum Role {
        CandidateRole = Qt::UserRole + 1, // int: the row's candidate, 0-based input order
        FirstDivergentStepRole,           // qulonglong, or invalid when it does not diverge
        FloorReadingRole,                 // QString floorReadingName, or invalid
        FinishedRole,                     // bool: the pair's analysis has finished
        BeyondFloorRole, // QStringList "STEP GROUP/BUFFER" beyond the floor, or invalid
    };

    explicit MultiSummaryModel(QObject* parent = nullptr);

    // The latest snapshot of each candidate's pair (null: not started yet).
    void setSnapshots(std::vector<SnapshotPtr> snapshots);
    void clear();

    bool allFinished() const;
    const dumpscope::MultiRunSummary& summary() const { return m_summary; }
    // The row showing candidate `k`, or -1.
    int rowOf(int candidate) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    bool finished(int candidate) const;
    const dumpscope::FloorComparison* floor(int candidate) const;

    std::vector<SnapshotPtr> m_snapshots;
    dumpscope::MultiRunSummary m_summary;
    std::vector<int> m_order; // row -> candidate
};

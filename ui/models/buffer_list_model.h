#pragma once

#include "widgets/growth_sparkline.h"
#include "workers/analysis_snapshot.h"

#include <QAbstractTableModel>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
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
        // The smallest --atol, --rtol, --ulp that would each alone make the buffer within
        // tolerance ("none" when no value would; empty where no tolerance changes the status).
        AtolToPassColumn,
        RtolToPassColumn,
        UlpToPassColumn,
        NanInfColumn,
        KindColumn,
        GrowthColumn, // differing count per step across the analysis (SparklineDelegate)
        ShapeColumn,  // the resolved shape, or the core's word on why it was not applied
        StatusColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1,
        BufferIndexRole, // int: index into Analysis::buffers
        StatusRole,      // int(dumpscope::Status), -1 while pending
        GrowthRole,      // GrowthSparkline: the row's buffer at every step (any column)
    };

    explicit BufferListModel(QObject* parent = nullptr);

    // Lists `buffers` (indices into the snapshot's Analysis::buffers). A new snapshot of the
    // same list only refreshes the values: for the next snapshot of the same analysis, those of
    // the rows whose buffers were compared since.
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
    // The core's growth series of `buffer` (nullptr when it has none), and the point of its step.
    const dumpscope::GrowthSeries* growthOf(const dumpscope::BufferResult& buffer) const;
    std::shared_ptr<const dumpscope::GrowthSeries>
    sharedGrowthOf(const dumpscope::BufferResult& buffer) const;
    GrowthSparkline sparkline(const dumpscope::BufferResult& buffer) const;
    QString growthToolTip(const dumpscope::BufferResult& buffer) const;
    // The indices of `buffer`'s results at every step, in the order of the analysis' buffers.
    std::vector<std::size_t> resultsOf(const dumpscope::BufferResult& buffer) const;
    bool chainOf(const dumpscope::BufferResult& buffer, std::vector<std::size_t>& results) const;
    void indexResults() const;
    static std::uint64_t keyOf(const dumpscope::BufferResult& buffer);
    void signalRows(const std::vector<std::size_t>& changedBuffers);

    SnapshotPtr m_snapshot;
    std::vector<std::size_t> m_buffers;
    bool m_buffersSorted = true; // m_buffers ascending (a cell's are): rows found by bisection
    // The growth series of the rows asked for, by (group, name), computed from m_snapshot's
    // analysis when first asked for and dropped with it: a whole run's series for every buffer
    // of the schema would cost steps × buffers each snapshot. Where each buffer's results are
    // depends only on the plan, so that index outlives the snapshots of one analysis; it is
    // checked as it is used and rebuilt when the plan is another. It chains the results by a
    // hash of (group, name): the first of each hash, and for each result the next of its hash
    // (buffers of one hash share a chain, told apart as it is walked). A map of the names
    // themselves cost the first cell of a 100,000-buffer run 38 ms of the GUI thread.
    using BufferKey = std::pair<std::string, std::string>;
    static constexpr std::size_t kNoResult = static_cast<std::size_t>(-1);
    mutable std::shared_ptr<const dumpscope::Analysis> m_growthOf;
    mutable std::map<BufferKey, std::shared_ptr<const dumpscope::GrowthSeries>> m_growth;
    mutable std::unordered_map<std::uint64_t, std::size_t> m_firstResult;
    mutable std::vector<std::size_t> m_nextResult; // one per analysis->buffers when built
};

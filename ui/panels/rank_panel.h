#pragma once

#include "models/rank_overview_model.h"
#include "workers/analysis_snapshot.h"

#include <QWidget>

#include <cstdint>
#include <optional>
#include <vector>

class QComboBox;
class QTableView;

// The ranks of a ranked pair: which one the matrix shows (all of them, or one), and the step ×
// rank overview of where each diverges. Hidden for a pair without ranks.
class RankPanel : public QWidget {
    Q_OBJECT
  public:
    explicit RankPanel(QWidget* parent = nullptr);

    // A snapshot of the whole analysis (every rank); null clears the panel. Its overview is the
    // worker's (AnalysisSnapshot::rankOverview) where it has one, else made here.
    void setSnapshot(const AnalysisSnapshot* snapshot);
    std::optional<std::uint64_t> rank() const { return m_rank; }
    void setRank(std::optional<std::uint64_t> rank);

    QComboBox* selector() const { return m_selector; }
    QTableView* overview() const { return m_overview; }

  signals:
    // The matrix is to show this rank (nullopt: every rank).
    void rankChanged(std::optional<std::uint64_t> rank);
    // A click on the overview: that rank, at that step.
    void stepChosen(quint64 step);

  private:
    void setRanks(const std::vector<std::uint64_t>& ranks);
    void fitColumns();

    QComboBox* m_selector;
    QTableView* m_overview;
    RankOverviewModel* m_model;
    std::optional<std::uint64_t> m_rank;
};

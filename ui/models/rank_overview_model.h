#pragma once

#include "dumpscope/rank_view.h"

#include <QAbstractTableModel>

#include <memory>

// Steps × ranks of a ranked analysis (dumpscope::rankOverview): each cell coloured as the
// matrix colours a group cell, with the rank's divergent buffers at the step as its text.
class RankOverviewModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    using QAbstractTableModel::QAbstractTableModel;

    enum Roles { StepRole = Qt::UserRole + 1, RankRole };

    // Null clears it. An overview of the same steps and ranks as the one shown changes the cells
    // alone (dataChanged): the view keeps its columns and selection as the results come.
    void setOverview(std::shared_ptr<const dumpscope::RankOverview> overview);
    const dumpscope::RankOverview& overview() const { return *m_overview; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  private:
    std::shared_ptr<const dumpscope::RankOverview> m_overview =
        std::make_shared<const dumpscope::RankOverview>(); // never null
};

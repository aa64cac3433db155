#include "models/rank_overview_model.h"

#include "widgets/matrix_colors.h"

using dumpscope::Status;

void RankOverviewModel::setOverview(std::shared_ptr<const dumpscope::RankOverview> overview) {
    if (!overview) overview = std::make_shared<const dumpscope::RankOverview>();
    if (overview->steps == m_overview->steps && overview->ranks == m_overview->ranks) {
        m_overview = std::move(overview);
        if (rowCount() > 0 && columnCount() > 0)
            emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
        return;
    }
    beginResetModel();
    m_overview = std::move(overview);
    endResetModel();
}

int RankOverviewModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_overview->steps.size());
}

int RankOverviewModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_overview->ranks.size());
}

QVariant RankOverviewModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
    const auto& cell = m_overview->at(std::size_t(index.row()), std::size_t(index.column()));
    const bool pending = cell.nPending > 0 && cell.status == Status::missing;
    switch (role) {
    case Qt::DisplayRole:
        return cell.nDivergent ? QVariant(qulonglong(cell.nDivergent)) : QVariant();
    case Qt::BackgroundRole:
        return matrix_colors::cellBrush(cell.status, 0, pending);
    case Qt::ForegroundRole:
        return matrix_colors::textColor(cell.status, 0, pending);
    case Qt::TextAlignmentRole:
        return int(Qt::AlignCenter);
    case Qt::ToolTipRole: {
        const QString where = tr("step %1, rank %2")
                                  .arg(m_overview->steps[std::size_t(index.row())])
                                  .arg(m_overview->ranks[std::size_t(index.column())]);
        if (pending) return tr("%1: not compared yet").arg(where);
        if (cell.status == Status::missing) return tr("%1: nothing dumped").arg(where);
        return tr("%1: %2, %n divergent buffer(s)", nullptr, int(cell.nDivergent))
            .arg(where, QString::fromUtf8(dumpscope::statusName(cell.status).data()));
    }
    case StepRole:
        return qulonglong(m_overview->steps[std::size_t(index.row())]);
    case RankRole:
        return qulonglong(m_overview->ranks[std::size_t(index.column())]);
    default:
        return {};
    }
}

QVariant RankOverviewModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role == Qt::ToolTipRole && orientation == Qt::Horizontal && section >= 0 &&
        section < columnCount())
        return tr("Rank %1: each step's most telling status on this rank, and its divergent "
                  "buffers")
            .arg(m_overview->ranks[std::size_t(section)]);
    if (role != Qt::DisplayRole || section < 0) return {};
    if (orientation == Qt::Horizontal && section < columnCount())
        return tr("rank %1").arg(m_overview->ranks[std::size_t(section)]);
    if (orientation == Qt::Vertical && section < rowCount())
        return QString::number(m_overview->steps[std::size_t(section)]);
    return {};
}

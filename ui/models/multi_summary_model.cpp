#include "models/multi_summary_model.h"

#include "widgets/matrix_colors.h"

#include "dumpscope/multi_report.h"

#include <QBrush>
#include <QObject>
#include <QStringList>

#include <algorithm>
#include <numeric>

static_assert(MultiSummaryModel::FloorColumn == dumpscope::kMultiSummaryColumns.size());

namespace {

QString cellName(const dumpscope::BufferAt& b) {
    return QStringLiteral("%1 %2/%3")
        .arg(b.step)
        .arg(QString::fromStdString(b.group), QString::fromStdString(b.name));
}

// "2 buffer(s): 2 I/grad_ln_a_gain_per_row (9.4×10⁵ × the floor), …"
QString beyondText(const dumpscope::FloorComparison& f) {
    if (f.nBeyondFloor == 0) return QStringLiteral("—");
    QStringList cells;
    for (std::size_t i = 0; i < f.beyondFloor.size() && i < 3; ++i) {
        const auto& j = f.excess[i];
        cells << (j.floor ? QObject::tr("%1 (%2 × the floor)")
                                .arg(cellName(f.beyondFloor[i]),
                                     QString::fromStdString(dumpscope::floorFactorText(j.factor)))
                          : QObject::tr("%1 (no noise there)").arg(cellName(f.beyondFloor[i])));
    }
    if (f.nBeyondFloor > 3) cells << QStringLiteral("…");
    return QObject::tr("%n buffer(s): ", nullptr, static_cast<int>(f.nBeyondFloor)) +
           cells.join(QStringLiteral(", "));
}

QString beyondToolTip(const dumpscope::FloorComparison& f) {
    QStringList lines;
    for (std::size_t i = 0; i < f.beyondFloor.size(); ++i)
        lines << cellName(f.beyondFloor[i]) + QStringLiteral(": ") +
                     QString::fromStdString(dumpscope::describeAgainstFloor(f.excess[i]));
    if (f.nBeyondFloor > f.beyondFloor.size())
        lines << QObject::tr("… and %1 more").arg(f.nBeyondFloor - f.beyondFloor.size());
    return lines.join(QLatin1Char('\n'));
}

} // namespace

MultiSummaryModel::MultiSummaryModel(QObject* parent) : QAbstractTableModel(parent) {}

void MultiSummaryModel::setSnapshots(std::vector<SnapshotPtr> snapshots) {
    std::vector<const dumpscope::Analysis*> pairs;
    for (const auto& s : snapshots)
        if (s) pairs.push_back(s->analysis.get());
    std::vector<int> order(snapshots.size());
    std::iota(order.begin(), order.end(), 0);
    auto summary = pairs.size() == snapshots.size() ? dumpscope::summarizeCandidates(pairs)
                                                    : dumpscope::MultiRunSummary{};
    const bool done =
        !snapshots.empty() && std::all_of(snapshots.begin(), snapshots.end(),
                                          [](const SnapshotPtr& s) { return s && s->finished; });
    if (done) order.assign(summary.ranking.begin(), summary.ranking.end());
    if (order == m_order && !order.empty()) {
        m_snapshots = std::move(snapshots);
        m_summary = std::move(summary);
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_snapshots = std::move(snapshots);
    m_summary = std::move(summary);
    m_order = std::move(order);
    endResetModel();
}

void MultiSummaryModel::clear() {
    setSnapshots({});
}

bool MultiSummaryModel::finished(int candidate) const {
    const auto& s = m_snapshots[static_cast<std::size_t>(candidate)];
    return s && s->finished;
}

bool MultiSummaryModel::allFinished() const {
    for (int k = 0; k < static_cast<int>(m_snapshots.size()); ++k)
        if (!finished(k)) return false;
    return !m_snapshots.empty();
}

int MultiSummaryModel::rowOf(int candidate) const {
    for (int r = 0; r < static_cast<int>(m_order.size()); ++r)
        if (m_order[static_cast<std::size_t>(r)] == candidate) return r;
    return -1;
}

const dumpscope::FloorComparison* MultiSummaryModel::floor(int candidate) const {
    if (!allFinished()) return nullptr;
    for (const auto& f : m_summary.againstFloor)
        if (static_cast<int>(f.candidate) == candidate) return &f;
    return nullptr;
}

int MultiSummaryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_order.size());
}

int MultiSummaryModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MultiSummaryModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const int k = m_order[static_cast<std::size_t>(index.row())];
    const bool known = k < static_cast<int>(m_summary.candidates.size());
    const bool done = finished(k);
    const auto* f = floor(k);
    switch (role) {
    case Qt::DisplayRole: {
        if (index.column() == BeyondFloorColumn) return f ? beyondText(*f) : QStringLiteral("—");
        if (index.column() == FloorColumn)
            return f ? QString::fromUtf8(floorReadingName(f->reading).data())
                     : (k == 0 && m_snapshots.size() > 1 ? tr("the noise floor")
                                                         : QStringLiteral("—"));
        if (!known) return index.column() == CandidateColumn ? QString::number(k + 1) : QString();
        const auto row = dumpscope::multiSummaryRow(m_summary, static_cast<std::size_t>(k));
        if (!done && index.column() == RankColumn) return QStringLiteral("…");
        if (!done && index.column() == StepColumn) return tr("comparing…");
        return QString::fromStdString(row[static_cast<std::size_t>(index.column())]);
    }
    case Qt::ToolTipRole:
        if (index.column() == FloorColumn && f) return QString::fromStdString(f->text);
        if (index.column() == BeyondFloorColumn && f && f->nBeyondFloor) return beyondToolTip(*f);
        return data(index, Qt::DisplayRole);
    case Qt::BackgroundRole: {
        if (index.column() != StepColumn || !known) return {};
        const auto& c = m_summary.candidates[static_cast<std::size_t>(k)];
        if (!done) return QBrush(matrix_colors::pending());
        if (!c.error.empty() || c.exitCode >= 2) return QBrush(matrix_colors::error());
        if (c.exitCode == 1) return QBrush(matrix_colors::diverge(1e-3));
        return QBrush(matrix_colors::equal());
    }
    case CandidateRole:
        return k;
    case FirstDivergentStepRole:
        if (known && m_summary.candidates[static_cast<std::size_t>(k)].firstDivergentStep)
            return QVariant::fromValue<qulonglong>(
                *m_summary.candidates[static_cast<std::size_t>(k)].firstDivergentStep);
        return {};
    case FloorReadingRole:
        return f ? QVariant(QString::fromUtf8(floorReadingName(f->reading).data())) : QVariant();
    case FinishedRole:
        return done;
    case BeyondFloorRole: {
        if (!f) return {};
        QStringList cells;
        for (const auto& b : f->beyondFloor)
            cells << cellName(b);
        return cells;
    }
    default:
        return {};
    }
}

QVariant MultiSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    if (role == Qt::DisplayRole) {
        if (section == FloorColumn) return tr("against the noise floor");
        if (section == BeyondFloorColumn) return tr("beyond the floor");
        return QString::fromUtf8(
            dumpscope::kMultiSummaryColumns[static_cast<std::size_t>(section)]);
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case RankColumn:
            return tr("1 = diverges first; ties share a rank; — when it does not diverge");
        case CandidateColumn:
            return tr("Candidate number (command-line order) and its run folder");
        case StepColumn:
            return tr("The first step at which the candidate differs from the base");
        case FloorColumn:
            return tr("Candidate 1 is taken as a rerun of the base's build: does this candidate "
                      "diverge earlier, in other buffers or by more than it?");
        case BeyondFloorColumn:
            return tr("The step and buffer of each divergence beyond the noise floor, with its "
                      "max|Δ| as a multiple of the floor's (more than 4× is beyond it)");
        default:
            return tr("As in the pair's own analysis (run A = the base)");
        }
    }
    return {};
}

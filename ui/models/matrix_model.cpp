#include "models/matrix_model.h"

#include "widgets/matrix_colors.h"

#include "dumpscope/verdict.h"

#include <QFont>

#include <algorithm>

using dumpscope::Status;

namespace {

QString formatDelta(double v) {
    return QString::number(v, 'g', 4);
}

} // namespace

MatrixModel::MatrixModel(QObject* parent) : QAbstractTableModel(parent) {}

void MatrixModel::setSnapshot(SnapshotPtr snapshot) {
    int rows = 0, columns = 0;
    if (snapshot && snapshot->analysis) {
        rows = static_cast<int>(snapshot->analysis->matrix.size());
        if (rows > 0) columns = static_cast<int>(snapshot->analysis->matrix.front().cells.size());
    }
    m_lookupBuilt = false;
    if (rows == m_rows && columns == m_columns && rows > 0 && columns > 0) {
        const SnapshotChanges* changes = snapshot->changesSince(m_snapshot.get());
        m_snapshot = std::move(snapshot);
        if (changes) {
            // The next snapshot of the same analysis: only its changed cells are signalled, so
            // a snapshot costs the cells that changed, not the whole matrix. The headers change
            // only with the final verdict, which comes without changes.
            signalCells(changes->cells);
            return;
        }
        emit dataChanged(index(0, 0), index(rows - 1, columns - 1));
        emit headerDataChanged(Qt::Vertical, 0, rows - 1);
        emit headerDataChanged(Qt::Horizontal, 0, columns - 1);
        return;
    }
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_rows = rows;
    m_columns = columns;
    endResetModel();
}

void MatrixModel::signalCells(const std::vector<dumpscope::CellPosition>& cells) {
    // One signal per run of adjacent cells of a row.
    for (std::size_t i = 0; i < cells.size();) {
        std::size_t j = i + 1;
        while (j < cells.size() && cells[j].row == cells[i].row &&
               cells[j].column == cells[j - 1].column + 1)
            ++j;
        const int row = static_cast<int>(cells[i].row);
        if (row < m_rows && static_cast<int>(cells[j - 1].column) < m_columns)
            emit dataChanged(index(row, static_cast<int>(cells[i].column)),
                             index(row, static_cast<int>(cells[j - 1].column)));
        i = j;
    }
}

void MatrixModel::clear() {
    setSnapshot({});
}

int MatrixModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : m_rows;
}

int MatrixModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : m_columns;
}

const dumpscope::GroupCell* MatrixModel::cell(const QModelIndex& index) const {
    if (!index.isValid() || !m_snapshot || index.row() >= m_rows || index.column() >= m_columns)
        return nullptr;
    const auto& cells = m_snapshot->analysis->matrix[index.row()].cells;
    return index.column() < static_cast<int>(cells.size()) ? &cells[index.column()] : nullptr;
}

void MatrixModel::buildLookup() const {
    if (m_lookupBuilt) return;
    m_rowOfStep.clear();
    if (m_snapshot) {
        const auto& matrix = m_snapshot->analysis->matrix;
        for (int r = m_rows - 1; r >= 0; --r) // the first row of a step wins, as a scan found it
            m_rowOfStep[matrix[r].step] = r;
    }
    m_lookupBuilt = true;
}

QModelIndex MatrixModel::indexOf(std::uint64_t step, const std::string& group) const {
    if (!m_snapshot) return {};
    buildLookup();
    const auto row = m_rowOfStep.find(step);
    if (row == m_rowOfStep.end()) return {};
    // The row's groups are scanned, not mapped: a cell is looked up once a user action, and a
    // map of a run's 100,000 groups, rebuilt for each snapshot, cost each final verdict 20 ms.
    const auto& cells = m_snapshot->analysis->matrix[row->second].cells;
    for (int c = 0; c < m_columns && c < static_cast<int>(cells.size()); ++c)
        if (cells[c].group == group) return index(row->second, c);
    return {};
}

int MatrixModel::firstDivergentRow() const {
    if (!m_snapshot || !m_snapshot->finished) return -1;
    const auto& first = m_snapshot->analysis->verdict.firstDivergentStep;
    if (!first) return -1;
    buildLookup();
    const auto row = m_rowOfStep.find(*first);
    return row == m_rowOfStep.end() ? -1 : row->second;
}

bool MatrixModel::isPending(const dumpscope::GroupCell& cell) const {
    return cell.nPending > 0;
}

bool MatrixModel::isRootCause(int row, const dumpscope::GroupCell& cell) const {
    if (!m_snapshot->finished) return false;
    const auto& cause = m_snapshot->analysis->verdict.rootCause;
    if (!cause.step || *cause.step != m_snapshot->analysis->matrix[row].step) return false;
    return std::find(cause.groups.begin(), cause.groups.end(), cell.group) != cause.groups.end();
}

const dumpscope::CulpritRow* MatrixModel::culpritRow(int row,
                                                     const dumpscope::GroupCell& cell) const {
    if (row != firstDivergentRow()) return nullptr;
    for (const auto& culprit : m_snapshot->analysis->verdict.culprits)
        if (culprit.group == cell.group) return &culprit;
    return nullptr;
}

bool MatrixModel::isUnjudgedInput(int row, const dumpscope::GroupCell& cell) const {
    if (!culpritRow(row, cell)) return false;
    const auto& inputs = m_snapshot->analysis->verdict.rootCause.unjudgedInputs;
    return std::find(inputs.begin(), inputs.end(), cell.group) != inputs.end();
}

// The header leads with the id, which the legend, the buffer list's title and the CLI use, and
// follows it with the label's words so that a column reads without its tooltip: "H (head fwd
// outputs)" gives "H head fwd outputs". The view elides the words, never the id, when the
// columns are narrow; the tooltip keeps the label whole.
QString MatrixModel::groupShortName(const QString& id, const QString& label) {
    QString words = label.trimmed();
    if (words.startsWith(id)) words = words.mid(id.size()).trimmed();
    if (words.startsWith(QLatin1Char('(')) && words.endsWith(QLatin1Char(')')))
        words = words.mid(1, words.size() - 2).trimmed();
    return words.isEmpty() ? id : id + QLatin1Char(' ') + words;
}

const std::string& MatrixModel::groupId(int column) const {
    static const std::string none;
    if (!m_snapshot || m_rows == 0 || column < 0 || column >= m_columns) return none;
    return m_snapshot->analysis->matrix.front().cells[column].group;
}

QString MatrixModel::groupLabel(int column) const {
    if (!m_snapshot || m_rows == 0) return {};
    const std::string& id = groupId(column);
    const auto* schema = m_snapshot->analysis->schema.get();
    const auto* group = schema ? schema->group(id) : nullptr;
    return QString::fromStdString(group ? group->label : id);
}

QString MatrixModel::toolTip(int row, int column, const dumpscope::GroupCell& cell) const {
    const auto& analysis = *m_snapshot->analysis;
    std::size_t equal = 0, divergent = 0, tolerated = 0, oneSided = 0, errors = 0, pending = 0;
    QStringList errorMessages; // each names its file and what is wrong: the cell says which
    for (std::size_t i : cell.buffers) {
        if (!m_snapshot->isDone(i)) {
            ++pending;
            continue;
        }
        const Status s = analysis.buffers[i].status;
        if (dumpscope::isDivergent(s))
            ++divergent;
        else if (dumpscope::isTolerated(s))
            ++tolerated;
        else if (dumpscope::isError(s)) {
            ++errors;
            errorMessages << QString::fromStdString(analysis.buffers[i].error).toHtmlEscaped();
        } else if (dumpscope::isOneSided(s))
            ++oneSided;
        else if (s == Status::equal)
            ++equal;
    }
    QStringList lines;
    lines << QStringLiteral("<b>step %1 · %2</b>")
                 .arg(analysis.matrix[row].step)
                 .arg(groupLabel(column).toHtmlEscaped());
    if (cell.buffers.empty())
        lines << tr("no buffer of this group in either run");
    else
        lines << tr("%1 of %2 buffers diverge").arg(divergent).arg(cell.buffers.size())
              << tr("equal: %1 · within tolerance: %2 · one-sided: %3 · error: %4")
                     .arg(equal)
                     .arg(tolerated)
                     .arg(oneSided)
                     .arg(errors);
    lines << errorMessages;
    if (pending > 0) lines << tr("%1 still being compared").arg(pending);
    if (divergent > 0) lines << tr("largest |Δ|: %1").arg(formatDelta(cell.maxAbsDelta));
    if (isRootCause(row, cell)) lines << tr("<b>root cause by dataflow</b>");
    if (const auto* culprit = culpritRow(row, cell); culprit && dumpscope::notJudged(*culprit))
        lines << tr("<b>not judged</b>: %1")
                     .arg(
                         QString::fromStdString(dumpscope::unjudgedText(*culprit)).toHtmlEscaped());
    if (isUnjudgedInput(row, cell))
        lines << tr("the root cause cannot be placed past this group: it feeds a divergent group");
    return lines.join(QStringLiteral("<br>"));
}

QVariant MatrixModel::data(const QModelIndex& index, int role) const {
    const dumpscope::GroupCell* c = cell(index);
    if (!c) return {};
    const bool pending = isPending(*c);
    const int row = index.row();
    switch (role) {
    case Qt::DisplayRole: {
        if (c->buffers.empty()) return QStringLiteral("–");
        QString text = QStringLiteral("%1/%2").arg(c->nDivergent).arg(c->buffers.size());
        // Tolerated differences read apart from divergences, as in the reports: "≈n/m".
        if (dumpscope::isTolerated(c->status)) {
            const auto& buffers = m_snapshot->analysis->buffers;
            const auto n = std::count_if(c->buffers.begin(), c->buffers.end(), [&](std::size_t i) {
                return dumpscope::differsBitwise(buffers[i].status);
            });
            text = QStringLiteral("≈%1/%2").arg(n).arg(c->buffers.size());
        }
        if (pending) text += QStringLiteral("…");
        return text;
    }
    case Qt::BackgroundRole:
        return matrix_colors::cellBrush(c->status, c->maxAbsDelta, pending);
    case Qt::ForegroundRole:
        return matrix_colors::textColor(c->status, c->maxAbsDelta, pending);
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignCenter);
    case Qt::ToolTipRole:
        return toolTip(row, index.column(), *c);
    case Qt::FontRole: {
        if (row != firstDivergentRow()) return {};
        QFont font;
        font.setBold(true);
        return font;
    }
    case StatusRole:
        return static_cast<int>(c->status);
    case PendingRole:
        return pending;
    case DivergentCountRole:
        return static_cast<qulonglong>(c->nDivergent);
    case BufferCountRole:
        return static_cast<qulonglong>(c->buffers.size());
    case MaxAbsDeltaRole:
        return c->maxAbsDelta;
    case RootCauseRole:
        return isRootCause(row, *c);
    case FirstDivergentStepRole:
        return row == firstDivergentRow();
    case StepRole:
        return static_cast<qulonglong>(m_snapshot->analysis->matrix[row].step);
    case GroupRole:
        return QString::fromStdString(c->group);
    case NotJudgedRole: {
        const auto* culprit = culpritRow(row, *c);
        return culprit && dumpscope::notJudged(*culprit);
    }
    case UnjudgedInputRole:
        return isUnjudgedInput(row, *c);
    default:
        return {};
    }
}

QVariant MatrixModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (!m_snapshot || section < 0) return {};
    if (orientation == Qt::Horizontal) {
        if (section >= m_columns) return {};
        const std::string& id = groupId(section);
        if (role == Qt::DisplayRole)
            return groupShortName(QString::fromStdString(id), groupLabel(section));
        if (role == Qt::ToolTipRole) return groupLabel(section);
        if (role == GroupRole) return QString::fromStdString(id);
        return {};
    }
    if (section >= m_rows) return {};
    const bool first = section == firstDivergentRow();
    const auto step = m_snapshot->analysis->matrix[section].step;
    switch (role) {
    case Qt::DisplayRole:
        // The arrow marks the first divergent step where the eye starts reading.
        return first ? QStringLiteral("▶ step %1").arg(step) : QStringLiteral("step %1").arg(step);
    case Qt::ToolTipRole:
        return first ? tr("step %1: the first divergent step").arg(step) : tr("step %1").arg(step);
    case Qt::FontRole: {
        if (!first) return {};
        QFont font;
        font.setBold(true);
        return font;
    }
    case Qt::ForegroundRole:
        return first ? QVariant(matrix_colors::diverge(1.0)) : QVariant();
    case FirstDivergentStepRole:
        return first;
    default:
        return {};
    }
}

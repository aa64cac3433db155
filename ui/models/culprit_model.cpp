#include "models/culprit_model.h"

#include "models/name_list_text.h"
#include "widgets/matrix_colors.h"

#include "dumpscope/verdict.h"

#include <QApplication>
#include <QPalette>

namespace {

// Why there is nothing to list, rather than an empty grid.
QString whyEmpty(const dumpscope::Analysis& analysis) {
    const std::string_view notCompared = dumpscope::notComparedReason(analysis);
    if (!notCompared.empty())
        return CulpritModel::tr("Nothing was compared: %1")
            .arg(QString::fromUtf8(notCompared.data(), qsizetype(notCompared.size())));
    if (analysis.buffers.empty())
        return CulpritModel::tr("Nothing was compared: no buffer in either run");
    return CulpritModel::tr("No divergent step: every group is equal at every step compared, so "
                            "no group is a culprit");
}

} // namespace

void CulpritModel::setSnapshot(SnapshotPtr snapshot) {
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_why.clear();
    if (m_snapshot && m_snapshot->analysis && m_snapshot->analysis->verdict.culprits.empty())
        m_why = whyEmpty(*m_snapshot->analysis);
    endResetModel();
}

int CulpritModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !m_snapshot || !m_snapshot->analysis) return 0;
    const auto& culprits = m_snapshot->analysis->verdict.culprits;
    return culprits.empty() ? 1 : static_cast<int>(culprits.size());
}

int CulpritModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : 2;
}

QVariant CulpritModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const auto& verdict = m_snapshot->analysis->verdict;
    if (verdict.culprits.empty()) {
        if (index.column() != 0) return {};
        if (role == Qt::DisplayRole || role == Qt::ToolTipRole) return m_why;
        if (role == Qt::ForegroundRole)
            return QApplication::palette().color(QPalette::PlaceholderText);
        return {};
    }
    const auto& row = verdict.culprits[std::size_t(index.row())];
    switch (role) {
    case GroupRole:
        return QString::fromStdString(row.group);
    case BufferRole:
        return row.divergentBuffers.empty() ? QString()
                                            : QString::fromStdString(row.divergentBuffers.front());
    case StepRole:
        // A click on the row opens its cell: the group at the first divergent step.
        return verdict.firstDivergentStep
                   ? QVariant::fromValue<quint64>(*verdict.firstDivergentStep)
                   : QVariant();
    default:
        break;
    }
    if (index.column() == 0)
        return role == Qt::DisplayRole ? QString::fromStdString(row.label) : QVariant();
    return statusData(row, role);
}

QVariant CulpritModel::statusData(const dumpscope::CulpritRow& row, int role) const {
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole && role != Qt::ForegroundRole) return {};
    QString text, tip; // the tip has the whole list where the cell shows it cut
    QColor color = QApplication::palette().color(QPalette::Text);
    const QString unjudged = QString::fromStdString(dumpscope::unjudgedText(row));
    if (dumpscope::notJudged(row)) {
        text = tr("NOT JUDGED — %1").arg(unjudged);
        color = matrix_colors::toleratedText();
    } else if (!row.divergentBuffers.empty()) {
        text = tr("DIVERGE in %1").arg(cutNames(row.divergentBuffers));
        tip = tr("DIVERGE in %1").arg(joinedNames(row.divergentBuffers));
        if (!unjudged.isEmpty()) {
            text += tr("; not judged: %1").arg(unjudged);
            tip += tr("; not judged: %1").arg(unjudged);
        }
        color = matrix_colors::divergeText();
    } else {
        text = row.present ? tr("EQUAL") : tr("(no dump)");
        if (row.present) color = matrix_colors::equalText();
    }
    if (role == Qt::ForegroundRole) return color;
    return role == Qt::ToolTipRole && !tip.isEmpty() ? tip : text;
}

QVariant CulpritModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section > 1) return {};
    if (role == Qt::DisplayRole) {
        if (section == 0) return tr("Group");
        const auto* analysis = m_snapshot ? m_snapshot->analysis.get() : nullptr;
        if (analysis && !analysis->verdict.culprits.empty() && analysis->verdict.firstDivergentStep)
            return tr("At step %1").arg(*analysis->verdict.firstDivergentStep);
        return tr("At the first divergent step");
    }
    if (role == Qt::ToolTipRole)
        return section == 0
                   ? tr("Schema group (id and label)")
                   : tr("The group's divergent buffers at the first divergent step, or EQUAL");
    return {};
}

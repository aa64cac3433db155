#include "models/name_pairing_model.h"

NamePairingModel::NamePairingModel(QObject* parent) : QAbstractTableModel(parent) {}

namespace {

QString howText(const dumpscope::NamePair& p) {
    using dumpscope::PairedBy;
    switch (p.by) {
    case PairedBy::map:
        return p.rule.empty() ? NamePairingModel::tr("set here")
                              : NamePairingModel::tr("map %1").arg(QString::fromStdString(p.rule));
    case PairedBy::wrapped_match:
        return NamePairingModel::tr("auto: name under wrapping modules, type and shape");
    case PairedBy::exact_match:
        return NamePairingModel::tr("auto: order, type and shape");
    case PairedBy::shape_match:
        return NamePairingModel::tr("auto: order and shape");
    }
    return {};
}

} // namespace

void NamePairingModel::setAlignment(std::shared_ptr<const dumpscope::NameAlignment> alignment) {
    beginResetModel();
    m_rows.clear();
    m_fixes.clear();
    if (alignment) {
        for (const auto& p : alignment->pairs)
            m_rows.push_back({p.nameA, p.nameB, howText(p)});
        for (const auto& n : alignment->unpairedA)
            m_rows.push_back({n, {}, tr("not paired: only in run A")});
        for (const auto& n : alignment->unpairedB)
            m_rows.push_back({{}, n, tr("not paired: only in run B")});
    }
    endResetModel();
}

int NamePairingModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int NamePairingModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NamePairingModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    if (role == FixedRole) return row.fixed;
    if (role != Qt::DisplayRole && role != Qt::EditRole && role != Qt::ToolTipRole) return {};
    switch (index.column()) {
    case NameAColumn:
        return QString::fromStdString(row.nameA);
    case NameBColumn:
        return QString::fromStdString(row.nameB);
    case HowColumn:
        return row.fixed ? tr("set here (re-run to apply)") : row.how;
    }
    return {};
}

QVariant NamePairingModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case NameAColumn:
        return tr("Run A");
    case NameBColumn:
        return tr("→ Run B");
    case HowColumn:
        return tr("Paired by");
    }
    return {};
}

Qt::ItemFlags NamePairingModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    if (index.column() == NameBColumn && !row.nameA.empty()) f |= Qt::ItemIsEditable;
    return f;
}

bool NamePairingModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !(flags(index) & Qt::ItemIsEditable)) return false;
    const std::string nameB = value.toString().trimmed().toStdString();
    Row& row = m_rows[static_cast<std::size_t>(index.row())];
    if (nameB.empty() || nameB == row.nameB) return false;
    row.nameB = nameB;
    row.fixed = true;
    std::erase_if(m_fixes, [&](const auto& fix) { return fix.first == row.nameA; });
    m_fixes.emplace_back(row.nameA, nameB);
    emit dataChanged(this->index(index.row(), 0), this->index(index.row(), ColumnCount - 1));
    return true;
}

#pragma once

#include "dumpscope/name_alignment.h"

#include <QAbstractTableModel>

#include <memory>
#include <string>
#include <vector>

// How the two runs' buffers were paired by name alignment: a row per pair of different names
// (run A's name, run B's, how), then a row per name of run A left unpaired (no B name), then per
// name of run B left unpaired (no A name). Run B's cell of a row with an A name is editable:
// typing another name of run B there is the fix the window re-runs the pair with.
class NamePairingModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { NameAColumn, NameBColumn, HowColumn, ColumnCount };
    enum Role {
        FixedRole = Qt::UserRole + 1, // bool: the row's B name was typed here, not yet applied
    };

    explicit NamePairingModel(QObject* parent = nullptr);

    // Null: the runs paired by name alone, no rows.
    void setAlignment(std::shared_ptr<const dumpscope::NameAlignment> alignment);

    // The pairings typed since setAlignment, in the order typed: (A name, B name).
    const std::vector<std::pair<std::string, std::string>>& fixes() const { return m_fixes; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

  private:
    struct Row {
        std::string nameA, nameB;
        QString how;
        bool fixed = false;
    };
    std::vector<Row> m_rows;
    std::vector<std::pair<std::string, std::string>> m_fixes;
};

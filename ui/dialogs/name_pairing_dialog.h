#pragma once

#include "dumpscope/name_alignment.h"

#include <QDialog>

#include <memory>

class NamePairingModel;
class QCheckBox;
class QTableView;

// Analysis → Name Pairing: how the two runs' differently named buffers were paired (run A's name
// → run B's, and how), and the names left unpaired. A person fixes a pairing by typing run B's
// name beside run A's, or turns pairing by production order, type and shape on or off, and
// re-runs the pair with that (Re-run accepts the dialog).
class NamePairingDialog : public QDialog {
    Q_OBJECT
  public:
    // `alignment`: the open pair's (null: paired by name alone); `mode`: the one it was run with.
    NamePairingDialog(std::shared_ptr<const dumpscope::NameAlignment> alignment,
                      dumpscope::AlignMode mode, QWidget* parent = nullptr);

    dumpscope::AlignMode alignMode() const;
    // `base` with the pairings typed here placed before its rules, one per name of run A.
    dumpscope::NameMap nameMap(const dumpscope::NameMap& base) const;

    NamePairingModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }

  private:
    NamePairingModel* m_model;
    QTableView* m_view;
    QCheckBox* m_auto;
};

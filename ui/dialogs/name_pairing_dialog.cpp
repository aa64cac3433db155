#include "dialogs/name_pairing_dialog.h"

#include "models/name_pairing_model.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

NamePairingDialog::NamePairingDialog(std::shared_ptr<const dumpscope::NameAlignment> alignment,
                                     dumpscope::AlignMode mode, QWidget* parent)
    : QDialog(parent), m_model(new NamePairingModel(this)), m_view(new QTableView),
      m_auto(new QCheckBox(tr("Pair the buffers left unpaired by production order, type and "
                              "shape"))) {
    setWindowTitle(tr("Name Pairing"));
    m_view->setObjectName(QStringLiteral("pairingView"));
    m_auto->setObjectName(QStringLiteral("autoCheck"));
    m_model->setAlignment(alignment);
    m_view->setModel(m_model);
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                            QAbstractItemView::AnyKeyPressed);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->verticalHeader()->hide();
    m_view->resizeColumnsToContents();
    m_auto->setChecked(mode == dumpscope::AlignMode::automatic);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QPushButton* rerun = buttons->addButton(tr("Re-run"), QDialogButtonBox::AcceptRole);
    rerun->setObjectName(QStringLiteral("rerunButton"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        alignment ? tr("Each row pairs a buffer of run A with one of run B named otherwise; it is "
                       "compared and reported as “A → B”. Type another name of run B beside "
                       "run A's to pair them instead, then Re-run.")
                  : tr("The runs' buffers paired by name alone. Turn on pairing by order to pair "
                       "the buffers whose names differ, then Re-run."));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_auto);
    layout->addWidget(buttons);
    resize(760, 420);
}

dumpscope::AlignMode NamePairingDialog::alignMode() const {
    return m_auto->isChecked() ? dumpscope::AlignMode::automatic : dumpscope::AlignMode::names;
}

dumpscope::NameMap NamePairingDialog::nameMap(const dumpscope::NameMap& base) const {
    dumpscope::NameMap map = base;
    for (const auto& [nameA, nameB] : m_model->fixes())
        map = dumpscope::withPairing(map, nameA, nameB);
    return map;
}

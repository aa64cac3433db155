#include "dialogs/open_candidates_dialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

OpenCandidatesDialog::OpenCandidatesDialog(const QString& startDirectory, QWidget* parent)
    : QDialog(parent), m_startDirectory(startDirectory), m_base(new QLineEdit),
      m_candidates(new QListWidget),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel)) {
    setWindowTitle(tr("Open Several Candidates"));
    m_base->setObjectName(QStringLiteral("baseEdit"));
    m_candidates->setObjectName(QStringLiteral("candidateList"));
    auto* browseBase = new QPushButton(tr("Browse…"));
    auto* add = new QPushButton(tr("Add Candidate…"));
    auto* remove = new QPushButton(tr("Remove"));

    auto* baseRow = new QHBoxLayout;
    baseRow->addWidget(m_base, 1);
    baseRow->addWidget(browseBase);
    auto* listButtons = new QVBoxLayout;
    listButtons->addWidget(add);
    listButtons->addWidget(remove);
    listButtons->addStretch(1);
    auto* listRow = new QHBoxLayout;
    listRow->addWidget(m_candidates, 1);
    listRow->addLayout(listButtons);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Base run folder:")));
    layout->addLayout(baseRow);
    layout->addWidget(new QLabel(tr("Candidates, in order. The first one is read as the noise "
                                    "floor: a rerun of the base's build.")));
    layout->addLayout(listRow, 1);
    layout->addWidget(m_buttons);

    auto pick = [this](const QString& title) {
        const QString dir = QFileDialog::getExistingDirectory(this, title, m_startDirectory);
        if (!dir.isEmpty()) m_startDirectory = dir;
        return dir;
    };
    connect(browseBase, &QPushButton::clicked, this, [this, pick] {
        if (const QString dir = pick(tr("Base Run")); !dir.isEmpty()) setBase(dir);
    });
    connect(add, &QPushButton::clicked, this, [this, pick] {
        if (const QString dir = pick(tr("Candidate Run")); !dir.isEmpty()) addCandidate(dir);
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        delete m_candidates->currentItem();
        updateOk();
    });
    connect(m_base, &QLineEdit::textChanged, this, &OpenCandidatesDialog::updateOk);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    updateOk();
}

QString OpenCandidatesDialog::base() const {
    return m_base->text().trimmed();
}

QStringList OpenCandidatesDialog::candidates() const {
    QStringList runs;
    for (int i = 0; i < m_candidates->count(); ++i)
        runs << m_candidates->item(i)->text();
    return runs;
}

void OpenCandidatesDialog::setBase(const QString& base) {
    m_base->setText(base);
}

void OpenCandidatesDialog::addCandidate(const QString& run) {
    m_candidates->addItem(run);
    updateOk();
}

void OpenCandidatesDialog::updateOk() {
    m_buttons->button(QDialogButtonBox::Open)
        ->setEnabled(!base().isEmpty() && m_candidates->count() > 0);
}

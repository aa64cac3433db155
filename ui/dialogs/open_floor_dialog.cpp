#include "dialogs/open_floor_dialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace {

// A folder field with its Browse… button.
QHBoxLayout* folderRow(QLineEdit* edit, QPushButton* browse) {
    auto* row = new QHBoxLayout;
    row->addWidget(edit, 1);
    row->addWidget(browse);
    return row;
}

} // namespace

OpenFloorDialog::OpenFloorDialog(const QString& startDirectory, QWidget* parent)
    : QDialog(parent), m_startDirectory(startDirectory), m_base(new QLineEdit),
      m_candidate(new QLineEdit), m_reruns(new QListWidget),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel)) {
    setWindowTitle(tr("Open with a Noise Floor"));
    m_base->setObjectName(QStringLiteral("baseEdit"));
    m_candidate->setObjectName(QStringLiteral("candidateEdit"));
    m_reruns->setObjectName(QStringLiteral("rerunList"));
    auto* browseBase = new QPushButton(tr("Browse…"));
    auto* browseCandidate = new QPushButton(tr("Browse…"));
    auto* add = new QPushButton(tr("Add Rerun…"));
    auto* remove = new QPushButton(tr("Remove"));

    auto* listButtons = new QVBoxLayout;
    listButtons->addWidget(add);
    listButtons->addWidget(remove);
    listButtons->addStretch(1);
    auto* listRow = new QHBoxLayout;
    listRow->addWidget(m_reruns, 1);
    listRow->addLayout(listButtons);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Base run folder (run A):")));
    layout->addLayout(folderRow(m_base, browseBase));
    layout->addWidget(new QLabel(tr("Candidate run folder (run B):")));
    layout->addLayout(folderRow(m_candidate, browseCandidate));
    layout->addWidget(new QLabel(tr("Reruns of the base's build. What they differ by is the noise "
                                    "floor: buffers of the candidate inside it are not counted "
                                    "as divergent.")));
    layout->addLayout(listRow, 1);
    layout->addWidget(m_buttons);

    connect(browseBase, &QPushButton::clicked, this, [this] {
        if (const QString dir = pick(tr("Base Run")); !dir.isEmpty()) setBase(dir);
    });
    connect(browseCandidate, &QPushButton::clicked, this, [this] {
        if (const QString dir = pick(tr("Candidate Run")); !dir.isEmpty()) setCandidate(dir);
    });
    connect(add, &QPushButton::clicked, this, [this] {
        if (const QString dir = pick(tr("Rerun of the Base's Build")); !dir.isEmpty())
            addRerun(dir);
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        delete m_reruns->currentItem();
        updateOk();
    });
    connect(m_base, &QLineEdit::textChanged, this, &OpenFloorDialog::updateOk);
    connect(m_candidate, &QLineEdit::textChanged, this, &OpenFloorDialog::updateOk);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    updateOk();
}

QString OpenFloorDialog::pick(const QString& title) {
    const QString dir = QFileDialog::getExistingDirectory(this, title, m_startDirectory);
    if (!dir.isEmpty()) m_startDirectory = dir;
    return dir;
}

QString OpenFloorDialog::base() const {
    return m_base->text().trimmed();
}

QString OpenFloorDialog::candidate() const {
    return m_candidate->text().trimmed();
}

QStringList OpenFloorDialog::reruns() const {
    QStringList runs;
    for (int i = 0; i < m_reruns->count(); ++i)
        runs << m_reruns->item(i)->text();
    return runs;
}

void OpenFloorDialog::setBase(const QString& base) {
    m_base->setText(base);
}

void OpenFloorDialog::setCandidate(const QString& candidate) {
    m_candidate->setText(candidate);
}

void OpenFloorDialog::addRerun(const QString& run) {
    m_reruns->addItem(run);
    updateOk();
}

bool OpenFloorDialog::canOpen() const {
    return m_buttons->button(QDialogButtonBox::Open)->isEnabled();
}

void OpenFloorDialog::updateOk() {
    m_buttons->button(QDialogButtonBox::Open)
        ->setEnabled(!base().isEmpty() && !candidate().isEmpty() && m_reruns->count() > 0);
}

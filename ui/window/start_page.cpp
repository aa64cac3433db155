#include "window/start_page.h"

#include "widgets/matrix_colors.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace {
constexpr int kPairRole = Qt::UserRole + 1;
}

StartPage::StartPage(QWidget* parent)
    : QWidget(parent), m_runA(new QLineEdit(this)), m_runB(new QLineEdit(this)),
      m_errorA(new QLabel(this)), m_errorB(new QLabel(this)),
      m_compare(new QPushButton(tr("Compare"), this)), m_recent(new QListWidget(this)) {
    auto* title = new QLabel(tr("<h2>dumpscope</h2>"
                                "<p>Compare the buffer dumps of two runs "
                                "(<tt>step_&lt;N&gt;_&lt;group&gt;_&lt;name&gt;.bin</tt>) and see "
                                "where they first diverge.</p>"
                                "<p>Drop two run folders, or one folder holding <tt>a/</tt> and "
                                "<tt>b/</tt>, anywhere on this window.</p>"),
                             this);
    title->setWordWrap(true);

    auto* demo = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay),
                                 tr("Open the demo pair"), this);
    demo->setObjectName(QStringLiteral("demoButton"));
    connect(demo, &QPushButton::clicked, this, &StartPage::demoRequested);

    auto* runs = new QGroupBox(tr("Open two runs"), this);
    auto* grid = new QGridLayout(runs);
    m_runA->setObjectName(QStringLiteral("runA"));
    m_runB->setObjectName(QStringLiteral("runB"));
    m_runA->setPlaceholderText(tr("run A folder"));
    m_runB->setPlaceholderText(tr("run B folder"));
    auto* browseA = new QPushButton(tr("Open Run A…"), runs);
    auto* browseB = new QPushButton(tr("Open Run B…"), runs);
    connect(browseA, &QPushButton::clicked, this,
            [this] { browse(m_runA, tr("Open Run A folder")); });
    connect(browseB, &QPushButton::clicked, this,
            [this] { browse(m_runB, tr("Open Run B folder")); });
    for (QLabel* error : {m_errorA, m_errorB}) {
        error->setWordWrap(true);
        error->setTextFormat(Qt::PlainText);
        error->hide();
    }
    m_errorA->setObjectName(QStringLiteral("runAError"));
    m_errorB->setObjectName(QStringLiteral("runBError"));
    grid->addWidget(new QLabel(tr("Run A"), runs), 0, 0);
    grid->addWidget(m_runA, 0, 1);
    grid->addWidget(browseA, 0, 2);
    grid->addWidget(m_errorA, 1, 1, 1, 2);
    grid->addWidget(new QLabel(tr("Run B"), runs), 2, 0);
    grid->addWidget(m_runB, 2, 1);
    grid->addWidget(browseB, 2, 2);
    grid->addWidget(m_errorB, 3, 1, 1, 2);
    grid->addWidget(m_compare, 4, 2);
    m_compare->setObjectName(QStringLiteral("compareButton"));
    connect(m_runA, &QLineEdit::textChanged, this, &StartPage::updateCompareButton);
    connect(m_runB, &QLineEdit::textChanged, this, &StartPage::updateCompareButton);
    connect(m_compare, &QPushButton::clicked, this, [this] {
        emit pairRequested({m_runA->text().trimmed(), m_runB->text().trimmed()});
    });
    // Enter in either field compares, once both are filled in.
    for (QLineEdit* field : {m_runA, m_runB})
        connect(field, &QLineEdit::returnPressed, this, [this] {
            if (m_compare->isEnabled()) m_compare->click();
        });
    // An error stays until its field is edited.
    connect(m_runA, &QLineEdit::textEdited, m_errorA, &QLabel::hide);
    connect(m_runB, &QLineEdit::textEdited, m_errorB, &QLabel::hide);
    updateCompareButton();

    auto* recentBox = new QGroupBox(tr("Recent pairs"), this);
    auto* recentLayout = new QVBoxLayout(recentBox);
    m_recent->setObjectName(QStringLiteral("recentPairs"));
    recentLayout->addWidget(m_recent);
    auto open = [this](QListWidgetItem* item) {
        const QStringList pair = item->data(kPairRole).toStringList();
        if (pair.size() == 2) emit pairRequested({pair[0], pair[1]});
    };
    connect(m_recent, &QListWidget::itemActivated, this, open);

    auto* column = new QVBoxLayout;
    column->addWidget(title);
    column->addWidget(demo, 0, Qt::AlignLeft);
    column->addWidget(runs);
    column->addWidget(recentBox, 1);
    auto* outer = new QHBoxLayout(this);
    outer->addStretch(1);
    outer->addLayout(column, 3);
    outer->addStretch(1);
}

void StartPage::setRecentPairs(const QList<RunPair>& pairs) {
    m_recent->clear();
    for (const RunPair& p : pairs) {
        auto* item = new QListWidgetItem(QStringLiteral("%1  ↔  %2").arg(p.runA, p.runB), m_recent);
        item->setData(kPairRole, QStringList{p.runA, p.runB});
        item->setToolTip(tr("A: %1\nB: %2").arg(p.runA, p.runB));
    }
    if (pairs.isEmpty()) {
        auto* item = new QListWidgetItem(tr("(none yet)"), m_recent);
        item->setFlags(Qt::NoItemFlags);
    }
}

void StartPage::setRunA(const QString& dir) {
    m_runA->setText(dir);
}
void StartPage::setRunB(const QString& dir) {
    m_runB->setText(dir);
}
QString StartPage::runA() const {
    return m_runA->text().trimmed();
}

void StartPage::setRunErrors(const QString& errorA, const QString& errorB) {
    const QColor colour = matrix_colors::errorText();
    for (auto [label, text] : {std::pair{m_errorA, errorA}, std::pair{m_errorB, errorB}}) {
        label->setText(text);
        QPalette palette = label->palette();
        palette.setColor(QPalette::WindowText, colour);
        label->setPalette(palette);
        label->setVisible(!text.isEmpty());
    }
}

QString StartPage::runErrorA() const {
    return m_errorA->isVisibleTo(this) ? m_errorA->text() : QString();
}
QString StartPage::runErrorB() const {
    return m_errorB->isVisibleTo(this) ? m_errorB->text() : QString();
}

void StartPage::browse(QLineEdit* edit, const QString& title) {
    const QString start = edit->text().isEmpty() ? m_startDirectory : edit->text();
    const QString dir = QFileDialog::getExistingDirectory(this, title, start);
    if (dir.isEmpty()) return;
    edit->setText(dir);
    emit directoryChosen(QFileInfo(dir).absolutePath());
}

void StartPage::updateCompareButton() {
    m_compare->setEnabled(!m_runA->text().trimmed().isEmpty() &&
                          !m_runB->text().trimmed().isEmpty());
}

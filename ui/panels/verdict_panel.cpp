#include "panels/verdict_panel.h"

#include "models/culprit_model.h"
#include "models/name_list_text.h"
#include "widgets/matrix_colors.h"

#include "dumpscope/verdict.h"

#include <QFont>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSet>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

using dumpscope::DecisionCase;

namespace {

QString caseName(DecisionCase c) {
    return QString::fromStdString(std::string(dumpscope::decisionCaseName(c)));
}

QLabel* sectionTitle(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    QFont font = label->font();
    font.setBold(true);
    label->setFont(font);
    return label;
}

} // namespace

VerdictPanel::VerdictPanel(QWidget* parent)
    : QWidget(parent), m_headline(new QLabel(this)), m_tree(new QTreeWidget(this)),
      m_text(new QPlainTextEdit(this)), m_culprits(new QTableView(this)),
      m_culpritModel(new CulpritModel(this)), m_rootCause(new QLabel(this)),
      m_warnings(new QLabel(this)), m_rootTitle(sectionTitle(tr("Root cause by dataflow"), this)) {
    m_headline->setObjectName(QStringLiteral("verdictHeadline"));
    m_headline->setWordWrap(true);
    m_headline->setTextFormat(Qt::PlainText);
    QFont big = m_headline->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.15);
    m_headline->setFont(big);

    m_tree->setObjectName(QStringLiteral("decisionTree"));
    m_tree->setHeaderHidden(true);
    m_tree->setRootIsDecorated(true);
    m_tree->setWordWrap(true);
    m_tree->setSelectionMode(QAbstractItemView::NoSelection);
    m_tree->setFocusPolicy(Qt::NoFocus);
    m_tree->setIndentation(12);

    m_text->setObjectName(QStringLiteral("interpretation"));
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    m_culprits->setObjectName(QStringLiteral("culpritTable"));
    m_culprits->setModel(m_culpritModel);
    m_culprits->verticalHeader()->hide();
    m_culprits->horizontalHeader()->setStretchLastSection(true);
    m_culprits->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_culprits->setSelectionMode(QAbstractItemView::NoSelection);
    m_culprits->setCursor(Qt::PointingHandCursor);
    connect(m_culprits, &QTableView::clicked, this, [this](const QModelIndex& index) {
        const QModelIndex group = index.siblingAtColumn(0);
        if (!group.data(CulpritModel::StepRole).isValid()) return;
        emit rootCauseActivated(group.data(CulpritModel::StepRole).toULongLong(),
                                group.data(CulpritModel::GroupRole).toString(),
                                group.data(CulpritModel::BufferRole).toString());
    });
    m_culprits->setWordWrap(false);

    m_rootCause->setObjectName(QStringLiteral("rootCause"));
    m_rootCause->setTextFormat(Qt::RichText);
    m_rootCause->setWordWrap(true);
    m_rootCause->setTextInteractionFlags(Qt::LinksAccessibleByMouse |
                                         Qt::LinksAccessibleByKeyboard);
    connect(m_rootCause, &QLabel::linkActivated, this, &VerdictPanel::onLink);

    m_warnings->setObjectName(QStringLiteral("warnings"));
    m_warnings->setWordWrap(true);
    m_warnings->setTextFormat(Qt::PlainText);
    // The divergent red of the palette in use (a lighter one on a dark desktop).
    QPalette warningPalette = m_warnings->palette();
    warningPalette.setColor(QPalette::WindowText, matrix_colors::divergeText());
    m_warnings->setPalette(warningPalette);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 0, 0, 0);
    layout->addWidget(m_headline);
    layout->addWidget(m_warnings);
    m_rootTitle->setObjectName(QStringLiteral("rootCauseTitle"));
    layout->addWidget(m_rootTitle);
    layout->addWidget(m_rootCause);
    auto* treeTitle = sectionTitle(tr("Decision tree"), this);
    auto* culpritTitle = sectionTitle(tr("Per-group culprit table"), this);
    auto* textTitle = sectionTitle(tr("Interpretation (reference wording)"), this);
    layout->addWidget(treeTitle);
    layout->addWidget(m_tree, 3);
    layout->addWidget(culpritTitle);
    layout->addWidget(m_culprits, 2);
    layout->addWidget(textTitle);
    layout->addWidget(m_text, 3);
    m_schemaOnly = {treeTitle, m_tree, culpritTitle, m_culprits, textTitle, m_text};
    // A run in its own terms has its root cause alone: it takes the panel's height.
    layout->addStretch(0);

    buildTree();
    clear();
}

// The reference script's branches in its own order: the first test that holds wins.
void VerdictPanel::buildTree() {
    m_anyNode = new QTreeWidgetItem(m_tree, {tr("Does any buffer diverge at any dumped step?")});
    auto* none = new QTreeWidgetItem(
        m_anyNode, {tr("no → all buffers match: the bug is outside the dumped groups")});
    none->setData(0, CaseRole, caseName(DecisionCase::all_equal));
    m_divergeNode = new QTreeWidgetItem(
        m_anyNode, {tr("yes → look at the groups diverged at the first divergent step")});
    struct Leaf {
        DecisionCase c;
        QString text;
        bool crossCheck;
    };
    const Leaf leaves[] = {
        {DecisionCase::g_only, tr("only G → (1) the PER K-loop sample is non-deterministic"),
         false},
        {DecisionCase::h_without_g,
         tr("H without G → (2) a head forward kernel is non-deterministic"), false},
        {DecisionCase::i, tr("I → (3) an upstream per-batch backward kernel is non-deterministic"),
         true},
        {DecisionCase::j,
         tr("J without I → (4) grad_h_accumulate_scaled or a head backward writing grad_h_t"),
         true},
        {DecisionCase::unexpected, tr("anything else → not in the expected set: unexpected, STOP"),
         false},
    };
    for (const Leaf& leaf : leaves) {
        auto* item = new QTreeWidgetItem(m_divergeNode, {leaf.text});
        item->setData(0, CaseRole, caseName(leaf.c));
        if (leaf.crossCheck)
            new QTreeWidgetItem(
                item, {tr("cross-check: I equal but final trunk grads diverge → the reducer "
                          "(reduce_axis0 / layer_norm_reduce_param_grads)")});
    }
    m_tree->expandAll();
}

QString VerdictPanel::cutList(const std::vector<std::string>& items, std::size_t shown) {
    return cutNames(items, shown);
}

void VerdictPanel::showTerms(dumpscope::VerdictTerms terms) {
    const bool own = terms == dumpscope::VerdictTerms::own;
    for (QWidget* w : m_schemaOnly)
        w->setVisible(!own);
    m_rootTitle->setText(own ? tr("Root cause in production order") : tr("Root cause by dataflow"));
}

void VerdictPanel::clear() {
    m_snapshot.reset();
    m_showAll = false;
    showTerms(dumpscope::VerdictTerms::schema);
    m_headline->setText(tr("No verdict yet"));
    m_text->clear();
    m_culpritModel->clear();
    m_rootCause->setText(tr("–"));
    m_warnings->hide();
    m_links.clear();
    highlightPath(dumpscope::Verdict{});
    // Nothing is on the path until a verdict exists.
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it) {
        (*it)->setData(0, OnPathRole, false);
        (*it)->setForeground(0, m_tree->palette().color(QPalette::PlaceholderText));
        (*it)->setBackground(0, Qt::NoBrush);
        QFont font = (*it)->font(0);
        font.setBold(false);
        (*it)->setFont(0, font);
    }
    m_cleared = true;
}

QString VerdictPanel::interpretation() const {
    return m_text->toPlainText();
}

void VerdictPanel::setSnapshot(SnapshotPtr snapshot) {
    if (!snapshot || !snapshot->analysis) {
        clear();
        return;
    }
    const auto& analysis = *snapshot->analysis;
    if (!snapshot->finished) {
        // Restyling every tree item on each progress update stalled the event loop.
        if (!m_cleared) clear();
        m_headline->setText(analysis.cancelled ? tr("Analysis cancelled: no verdict")
                                               : tr("Analysing… %1 of %2 buffers compared")
                                                     .arg(snapshot->nDone)
                                                     .arg(snapshot->total));
        return;
    }
    m_cleared = false;
    if (snapshot != m_snapshot) m_showAll = false;
    m_snapshot = snapshot;
    const auto& verdict = analysis.verdict;
    const auto& cause = verdict.rootCause;
    showTerms(analysis.terms);
    if (verdict.decisionCase == dumpscope::DecisionCase::not_compared) {
        m_headline->setText(
            tr("%1 (exit %2)").arg(QString::fromStdString(verdict.text)).arg(verdict.exitCode));
    } else if (verdict.exitCode == 0 && verdict.nOneSided > 0) {
        // Never "all equal" while buffers of one run had nothing to be compared with.
        m_headline->setText(tr("Buffers in both runs equal at every step, but %n buffer(s) in one "
                               "run only were not compared (exit 0)",
                               nullptr, static_cast<int>(verdict.nOneSided)));
    } else if (verdict.exitCode == 0) {
        m_headline->setText(tr("All buffers equal at every step (exit 0)"));
    } else if (verdict.firstDivergentStep && analysis.terms == dumpscope::VerdictTerms::own) {
        QString headline = tr("First divergent step %1 · root %2").arg(*verdict.firstDivergentStep);
        headline =
            headline.arg(cause.buffers.empty() ? tr("not determined") : cutNames(cause.buffers, 2));
        if (!cause.kinds.empty())
            headline += QStringLiteral(" (%1)").arg(QString::fromUtf8(
                dumpscope::kindName(cause.kinds.front()).data(),
                static_cast<int>(dumpscope::kindName(cause.kinds.front()).size())));
        if (!cause.downstream.empty())
            headline +=
                tr(" · %n more downstream", nullptr, static_cast<int>(cause.downstream.size()));
        headline += tr(" (exit %1)").arg(verdict.exitCode);
        if (verdict.nOneSided > 0)
            headline +=
                tr(" · %n buffer(s) in one run only", nullptr, static_cast<int>(verdict.nOneSided));
        m_headline->setText(headline);
    } else if (verdict.firstDivergentStep) {
        QString headline = tr("First divergent step %1 · diverged: %2 (exit %3)")
                               .arg(*verdict.firstDivergentStep)
                               .arg(cutNames(verdict.divergedGroups))
                               .arg(verdict.exitCode);
        if (verdict.nOneSided > 0)
            headline +=
                tr(" · %n buffer(s) in one run only", nullptr, static_cast<int>(verdict.nOneSided));
        m_headline->setText(headline);
    } else if (verdict.exitCode == 1) {
        // Never "equal": files outside the schema differ.
        m_headline->setText(tr("The runs differ, only in unclassified files: the schema's "
                               "buffers all match (exit 1)"));
    } else {
        m_headline->setText(tr("Input missing or malformed (exit %1)").arg(verdict.exitCode));
    }
    QStringList warnings;
    if (!analysis.errorA.empty()) warnings << tr("Run A: %1").arg(analysis.errorA.c_str());
    if (!analysis.errorB.empty()) warnings << tr("Run B: %1").arg(analysis.errorB.c_str());
    if (const std::string oneSided = dumpscope::oneSidedWarning(verdict); !oneSided.empty())
        warnings << QString::fromStdString(oneSided);
    for (const auto& line : dumpscope::undecidedRootLines(analysis))
        warnings << tr("Root cause not determined: %1").arg(QString::fromStdString(line));
    // What could not be read, in the verdict's own words: a refused file is why it is not judged.
    int refusals = 0;
    for (const auto& b : analysis.buffers)
        if (!b.pending && dumpscope::isError(b.status) && refusals++ < 5)
            warnings << tr("Not read: %1").arg(QString::fromStdString(b.error));
    for (const auto& w : analysis.warnings)
        warnings << QString::fromStdString(w);
    m_warnings->setText(warnings.join(QLatin1Char('\n')));
    m_warnings->setVisible(!warnings.isEmpty());
    m_text->setPlainText(QString::fromStdString(verdict.text));
    highlightPath(verdict);
    fillCulprits(snapshot);
    if (analysis.terms == dumpscope::VerdictTerms::own && cause.step)
        fillOwnRootCause(analysis);
    else
        fillRootCause(analysis);
}

void VerdictPanel::highlightPath(const dumpscope::Verdict& verdict) {
    // Missing or malformed input without any divergence stops before the tree (exit 2, as the
    // reference): no branch was taken, so none is highlighted.
    const bool noTree = verdict.exitCode == 2 && !verdict.firstDivergentStep;
    const QString chosen = noTree ? QString() : caseName(verdict.decisionCase);
    if (verdict.firstDivergentStep)
        m_divergeNode->setText(0, tr("yes → first divergent step %1, diverged: %2")
                                      .arg(*verdict.firstDivergentStep)
                                      .arg(cutNames(verdict.divergedGroups)));
    else
        m_divergeNode->setText(0, tr("yes → look at the groups diverged at the first divergent "
                                     "step"));
    // The path: the chosen leaf, everything above it, and its cross-check below it.
    QSet<QTreeWidgetItem*> path;
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it) {
        if (chosen.isEmpty() || (*it)->data(0, CaseRole).toString() != chosen) continue;
        for (QTreeWidgetItem* p = *it; p; p = p->parent())
            path.insert(p);
        for (int i = 0; i < (*it)->childCount(); ++i)
            path.insert((*it)->child(i));
    }
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it) {
        QTreeWidgetItem* item = *it;
        const bool onPath = path.contains(item);
        item->setData(0, OnPathRole, onPath);
        item->setToolTip(0, item->text(0)); // the panel is narrow: long branches are elided
        QFont font = item->font(0);
        font.setBold(onPath);
        item->setFont(0, font);
        // The palette's own highlight, so a dark desktop gets a dark path and light text.
        const QPalette& palette = m_tree->palette();
        item->setForeground(
            0, palette.color(onPath ? QPalette::HighlightedText : QPalette::PlaceholderText));
        item->setBackground(0, onPath ? palette.brush(QPalette::Highlight) : QBrush(Qt::NoBrush));
    }
}

void VerdictPanel::fillCulprits(const SnapshotPtr& snapshot) {
    m_culprits->clearSpans();
    m_culpritModel->setSnapshot(snapshot);
    if (!m_culpritModel->emptyReason().isEmpty()) m_culprits->setSpan(0, 0, 1, 2);
    m_culprits->resizeColumnToContents(0);
}

// The verdict panel's root cause in the schema's terms: each root group as a link, its root
// buffers as links (cut, the rest on demand), the suggestion and the notes; and the links' clicks.
#include "panels/verdict_panel.h"

#include "models/name_pair_key.h"

#include "dumpscope/verdict.h"

#include <QLabel>

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace {

const QString kShowAll = QString::fromLatin1(VerdictPanel::kShowAllLink);

} // namespace

QString VerdictPanel::layoutLines(const dumpscope::Analysis& analysis) {
    QString text;
    for (const std::string& line :
         {dumpscope::precisionVerdict(analysis), dumpscope::crossRankVerdict(analysis)})
        if (!line.empty())
            text += QStringLiteral("<br>%1").arg(QString::fromStdString(line).toHtmlEscaped());
    return text;
}

QString VerdictPanel::rootLink(LinkTarget target, const QString& text) {
    m_links.push_back(std::move(target));
    return QStringLiteral("<a href=\"rc:%1\">%2</a>")
        .arg(m_links.size() - 1)
        .arg(text.toHtmlEscaped());
}

void VerdictPanel::fillRootCause(const dumpscope::Analysis& analysis) {
    m_links.clear();
    m_rootCause->setToolTip(QString());
    const auto& cause = analysis.verdict.rootCause;
    QStringList undecided; // why the root cause stops short of a divergent group
    for (const auto& line : dumpscope::undecidedRootLines(analysis))
        undecided << QString::fromStdString(line).toHtmlEscaped();
    if (cause.step && cause.groups.empty() && !undecided.isEmpty()) {
        m_rootCause->setText(tr("step %1 · not determined: an input could not be judged")
                                 .arg(*cause.step)
                                 .toHtmlEscaped() +
                             QStringLiteral("<br>") + undecided.join(QStringLiteral("<br>")));
        return;
    }
    if (!cause.step || cause.groups.empty()) {
        const auto& verdict = analysis.verdict;
        m_rootCause->setText(verdict.decisionCase == dumpscope::DecisionCase::not_compared
                                 ? tr("none: nothing was compared")
                             : verdict.exitCode == 1 ? tr("none: only unclassified files diverge")
                                                     : tr("none: no divergence"));
        return;
    }
    // Which root buffer is in which group, read once from the buffers of the root step: asking
    // the whole run for each root buffer made the panel cost roots × buffers. The set holds
    // views of the root buffers alone: a key copied for each of a step's 100,000 buffers cost
    // the final verdict 70 ms of the GUI thread.
    const std::unordered_set<std::string_view> rootNames(cause.buffers.begin(),
                                                         cause.buffers.end());
    std::unordered_set<NamePair, NamePairHash> atRootStep;
    for (const auto& b : analysis.buffers)
        if (b.step == *cause.step && rootNames.count(b.name)) atRootStep.emplace(b.group, b.name);
    const bool severalSources = cause.groups.size() > 1;        // each source then shows its kind
    std::unordered_map<NamePair, QString, NamePairHash> kindOf; // of each source
    if (severalSources)
        for (const auto& source : cause.sources) {
            const auto name = dumpscope::kindName(source.kind);
            kindOf[NamePair(source.group, source.buffer)] += QStringLiteral(" (%1)").arg(
                QString::fromUtf8(name.data(), static_cast<int>(name.size())));
        }
    QStringList parts;
    for (const auto& groupId : cause.groups) {
        const QString group = QString::fromStdString(groupId);
        // Links are numbered in reading order: the group, then its buffers.
        QString part = tr("step %1 · group %2")
                           .arg(*cause.step)
                           .arg(rootLink({*cause.step, group, {}}, group));
        QStringList buffers;
        std::size_t left = 0; // the group's root buffers past the cut
        for (const auto& name : cause.buffers) {
            if (!atRootStep.count(NamePair(groupId, name))) continue;
            if (!m_showAll && static_cast<std::size_t>(buffers.size()) >= dumpscope::kListedNames) {
                ++left;
                continue;
            }
            QString shownBuffer = rootLink({*cause.step, group, QString::fromStdString(name)},
                                           QString::fromStdString(name));
            if (const auto kind = kindOf.find(NamePair(groupId, name)); kind != kindOf.end())
                shownBuffer += kind->second;
            buffers << shownBuffer;
        }
        if (left > 0)
            buffers << tr("… and %1 more (<a href=\"%2\">show all</a>)").arg(left).arg(kShowAll);
        if (!buffers.isEmpty()) part += QStringLiteral(": ") + buffers.join(QStringLiteral(", "));
        parts << part;
    }
    QString text = parts.join(QStringLiteral("<br>"));
    if (!cause.suggestion.empty())
        text += QStringLiteral("<br><i>%1</i>")
                    .arg(QString::fromStdString(cause.suggestion).toHtmlEscaped());
    if (!undecided.isEmpty())
        text += QStringLiteral("<br>") + tr("not determined beyond that:").toHtmlEscaped() +
                QStringLiteral("<br>") + undecided.join(QStringLiteral("<br>"));
    for (const auto& note : dumpscope::rootCauseNotes(analysis))
        text += QStringLiteral("<br><b>%1</b> %2")
                    .arg(tr("note:").toHtmlEscaped(), QString::fromStdString(note).toHtmlEscaped());
    m_rootCause->setText(text + layoutLines(analysis));
}

void VerdictPanel::onLink(const QString& link) {
    if (link == kShowAll) {
        m_showAll = true;
        if (m_snapshot) {
            const auto& analysis = *m_snapshot->analysis;
            if (analysis.terms == dumpscope::VerdictTerms::own && analysis.verdict.rootCause.step)
                fillOwnRootCause(analysis);
            else
                fillRootCause(analysis);
        }
        return;
    }
    if (!link.startsWith(QStringLiteral("rc:"))) return;
    bool ok = false;
    const int i = link.mid(3).toInt(&ok);
    if (!ok || i < 0 || i >= static_cast<int>(m_links.size())) return;
    const LinkTarget& t = m_links[i];
    emit rootCauseActivated(t.step, t.group, t.buffer);
}

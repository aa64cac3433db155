// The verdict panel's root cause for a run in its own terms: the root(s) as links, why, the
// suggestion, and the downstream buffers counted, the rest on demand.
#include "panels/verdict_panel.h"

#include "dumpscope/verdict.h"

#include <QLabel>

#include <algorithm>

void VerdictPanel::fillOwnRootCause(const dumpscope::Analysis& analysis) {
    m_links.clear();
    const auto& cause = analysis.verdict.rootCause;
    const quint64 step = *cause.step;
    if (cause.sources.empty()) {
        m_rootCause->setText(
            tr("step %1 · not determined: no divergent buffer there was compared").arg(step));
        return;
    }
    const auto kindText = [](dumpscope::Kind k) {
        const auto name = dumpscope::kindName(k);
        return QString::fromUtf8(name.data(), static_cast<int>(name.size()));
    };
    // Each root, a link to its cell and buffer, with its kind and rank.
    QStringList roots;
    std::size_t left = 0;
    for (const auto& source : cause.sources) {
        if (!m_showAll && static_cast<std::size_t>(roots.size()) >= dumpscope::kListedNames) {
            ++left;
            continue;
        }
        QString root = rootLink({step, QString::fromStdString(source.group),
                                 QString::fromStdString(source.buffer)},
                                QString::fromStdString(source.buffer)) +
                       QStringLiteral(" (%1").arg(kindText(source.kind));
        if (source.rank) root += tr(", rank %1").arg(*source.rank);
        roots << root + QStringLiteral(")");
    }
    if (left > 0) roots << tr("… and %1 more").arg(left);
    QString text =
        (cause.sources.size() > 1 ? tr("step %1 · roots: ") : tr("step %1 · root: ")).arg(step) +
        roots.join(QStringLiteral(", "));
    const bool byInputs =
        std::any_of(cause.sources.begin(), cause.sources.end(),
                    [](const dumpscope::RootSource& r) { return r.declaredInputs; });
    const QString why =
        byInputs ? tr("divergent, while every captured input that fed it is equal")
                 : tr("the first divergent buffer in production order: %1")
                       .arg(QString::fromUtf8(
                           dumpscope::orderSourceText(*cause.order).data(),
                           static_cast<int>(dumpscope::orderSourceText(*cause.order).size())));
    text += QStringLiteral("<br>") + why.toHtmlEscaped();
    if (!cause.suggestion.empty())
        text += QStringLiteral("<br><i>%1</i>")
                    .arg(QString::fromStdString(cause.suggestion).toHtmlEscaped());
    if (!cause.downstream.empty()) {
        // Counted, with the first few named; the rest on demand (and all in the tooltip).
        const std::size_t n = cause.downstream.size();
        text += QStringLiteral("<br>") +
                tr("%n more diverge downstream, produced after it: ", nullptr, static_cast<int>(n))
                    .toHtmlEscaped() +
                (m_showAll ? QString::fromStdString(dumpscope::namesCut(cause.downstream, n))
                           : cutList(cause.downstream, 3))
                    .toHtmlEscaped();
        if (!m_showAll && n > 4)
            text += QStringLiteral(" (<a href=\"%1\">%2</a>)")
                        .arg(QString::fromLatin1(kShowAllLink),
                             tr("show all %1").arg(n).toHtmlEscaped());
    }
    if (left > 0 && !m_showAll)
        text += QStringLiteral("<br><a href=\"%1\">%2</a>")
                    .arg(QString::fromLatin1(kShowAllLink), tr("show every root").toHtmlEscaped());
    for (const auto& note : dumpscope::rootCauseNotes(analysis))
        text += QStringLiteral("<br><b>%1</b> %2")
                    .arg(tr("note:").toHtmlEscaped(), QString::fromStdString(note).toHtmlEscaped());
    m_rootCause->setText(text + layoutLines(analysis));
    m_rootCause->setToolTip(
        cause.downstream.empty()
            ? QString()
            : tr("Downstream at step %1: %2").arg(step).arg(cutList(cause.downstream, 40)));
}

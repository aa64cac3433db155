#include "models/buffer_search.h"
#include "workers/buffer_names.h"

#include <QCompleter>
#include <QSortFilterProxyModel>
#include <QStringListModel>

#include <set>

std::optional<BufferLocation> locateBuffer(const dumpscope::Analysis& analysis, const QString& text,
                                           std::optional<quint64> preferredStep) {
    const QString wanted = text.trimmed();
    if (wanted.isEmpty()) return std::nullopt;
    // An exact name wins over one that merely contains the text.
    QString name;
    for (const auto& b : analysis.buffers) {
        const QString n = QString::fromStdString(b.name);
        if (n.compare(wanted, Qt::CaseInsensitive) == 0) {
            name = n;
            break;
        }
        if (name.isEmpty() && n.contains(wanted, Qt::CaseInsensitive)) name = n;
    }
    if (name.isEmpty()) return std::nullopt;
    const dumpscope::BufferResult *preferred = nullptr, *divergent = nullptr, *first = nullptr;
    for (const auto& b : analysis.buffers) {
        if (QString::fromStdString(b.name) != name) continue;
        if (preferredStep && b.step == *preferredStep) preferred = &b;
        if (dumpscope::isDivergent(b.status) && !b.pending &&
            (!divergent || b.step < divergent->step))
            divergent = &b;
        if (!first || b.step < first->step) first = &b;
    }
    const auto* chosen = preferred ? preferred : divergent ? divergent : first;
    return BufferLocation{chosen->step, QString::fromStdString(chosen->group), name};
}

BufferSearch::BufferSearch(QWidget* parent)
    : QLineEdit(parent), m_names(new QStringListModel(this)), m_completer(new QCompleter(this)) {
    setObjectName(QStringLiteral("bufferSearch"));
    setPlaceholderText(tr("Find a buffer by name (Ctrl+F)"));
    setToolTip(tr("Typing filters the buffers of the cell; Enter or a suggestion jumps to the "
                  "cell holding that buffer (this step if it has it, else its first divergent "
                  "step)"));
    setClearButtonEnabled(true);
    m_completer->setModel(m_names);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setFilterMode(Qt::MatchContains);
    m_completer->setCompletionMode(QCompleter::PopupCompletion);
    setCompleter(m_completer);
    connect(m_completer, qOverload<const QString&>(&QCompleter::activated), this,
            &BufferSearch::bufferChosen);
    connect(this, &QLineEdit::returnPressed, this, [this] { emit bufferChosen(text()); });
    connect(this, &QLineEdit::textChanged, this, [this](const QString& text) {
        if (m_proxy) m_proxy->setFilterFixedString(text.trimmed());
    });
}

void BufferSearch::setSnapshot(const SnapshotPtr& snapshot) {
    // Every snapshot of one plan, the final one included, lists the same buffers: their names
    // are known, and listing them again would cost every buffer on each snapshot.
    const bool sameBuffers = snapshot && m_namesOf != 0 && snapshot->planSerial == m_namesOf;
    m_namesOf = snapshot ? snapshot->planSerial : 0;
    if (sameBuffers) return;
    const QStringList names = !snapshot ? QStringList()
                              : snapshot->bufferNames
                                  ? *snapshot->bufferNames
                                  : (++m_namesListed, sortedBufferNames(*snapshot->analysis));
    if (names != m_names->stringList()) m_names->setStringList(names);
}

void BufferSearch::setFilterTarget(QSortFilterProxyModel* proxy, int column) {
    m_proxy = proxy;
    m_proxy->setFilterKeyColumn(column);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterFixedString(text().trimmed());
}

void BufferSearch::activate() {
    setFocus(Qt::ShortcutFocusReason);
    selectAll();
}

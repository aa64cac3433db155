#pragma once

#include "workers/analysis_snapshot.h"

#include <QLineEdit>

#include <cstdint>
#include <optional>

class QCompleter;
class QSortFilterProxyModel;
class QStringListModel;

// Where a buffer is shown: the matrix cell (step, group) that lists it.
struct BufferLocation {
    quint64 step = 0;
    QString group;
    QString name;
};

// The cell to show for buffer `text` (its name, case-insensitive; else the first name that
// contains it): at `preferredStep` when that step has it, else at the first step where it
// diverges, else at the first step that has it. Nothing when no buffer matches.
std::optional<BufferLocation> locateBuffer(const dumpscope::Analysis& analysis, const QString& text,
                                           std::optional<quint64> preferredStep);

// The find-a-buffer field over the buffer list (Ctrl+F). Typing filters the cell's list to the
// names containing the text; the completer offers every buffer name of the analysis, and Enter
// or a picked name asks to jump to the cell that holds it.
class BufferSearch : public QLineEdit {
    Q_OBJECT
  public:
    explicit BufferSearch(QWidget* parent = nullptr);

    // The names to complete from; the proxy's `column` is filtered by the text.
    void setSnapshot(const SnapshotPtr& snapshot);
    void setFilterTarget(QSortFilterProxyModel* proxy, int column);
    // Focus and select the text, ready to type over (what Ctrl+F does).
    void activate();
    QCompleter* nameCompleter() const { return m_completer; }
    // How many snapshots the names were listed from here, on the GUI thread (each listing reads
    // every buffer); a snapshot of the analysis worker brings its plan's names with it.
    int namesListed() const { return m_namesListed; }

  signals:
    void bufferChosen(const QString& text);

  private:
    QStringListModel* m_names;
    QCompleter* m_completer;
    QSortFilterProxyModel* m_proxy = nullptr;
    std::uint64_t m_namesOf = 0; // planSerial of the snapshot the names were listed from, or 0
    int m_namesListed = 0;
};

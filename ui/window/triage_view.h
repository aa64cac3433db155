#pragma once

#include "workers/analysis_snapshot.h"

#include <QByteArray>
#include <QWidget>

#include <functional>
#include <optional>

class BufferPanel;
class BufferSearch;
class DivergenceMapPanel;
class ElementPanel;
class HistogramPanel;
class MatrixModel;
class MatrixView;
class QMenu;
class RankPanel;
class QSplitter;
class QTimer;
class ValueHeatmapPanel;
class VerdictPanel;

// The triage layout of an open pair: matrix and legend, the cell's buffers, the selected
// buffer's elements, Δ histograms and divergence map, and the verdict side panel, wired to
// each other.
// Selection flows one way: cell -> buffer list -> element table and histograms.
class TriageView : public QWidget {
    Q_OBJECT
  public:
    explicit TriageView(QWidget* parent = nullptr);

    // How a snapshot that finishes the analysis reaches the panels. `now`: all in this call.
    // `inTurns`: the matrix and verdict now, the cell's buffer list one event-loop turn later
    // and the buffer's details (element table, histograms, map) one more turn later, so that
    // each turn repaints a part of the window instead of the whole of it in one stall.
    enum class Pace { now, inTurns };

    // A new snapshot of the current analysis (same pair: selection is kept). `shown` is called
    // once every panel shows it: before returning, or after the last turn. A later snapshot or
    // clear() first completes the turns still pending.
    void setSnapshot(SnapshotPtr snapshot, Pace pace = Pace::now, std::function<void()> shown = {});
    void clear();
    const SnapshotPtr& snapshot() const { return m_snapshot; }

    // Selects the cell of (step, group) and, when given, the buffer named `buffer` in it.
    bool selectCell(quint64 step, const QString& group, const QString& buffer = {});
    // Selects the cell holding the buffer named (or partly named) `text`, and that buffer;
    // see locateBuffer(). False when no buffer matches.
    bool findBuffer(const QString& text);

    QByteArray saveState() const;
    bool restoreState(const QByteArray& state);

    // The panes the View menu shows and hides: a title and the pane's outermost widget.
    struct Pane {
        QString title;
        QWidget* widget = nullptr;
    };
    const QList<Pane>& panes() const { return m_panes; }
    // Every pane shown, at the default proportions.
    void resetLayout();

    MatrixModel* matrixModel() const { return m_matrixModel; }
    MatrixView* matrixView() const { return m_matrixView; }
    BufferPanel* bufferPanel() const { return m_bufferPanel; }
    BufferSearch* bufferSearch() const { return m_bufferSearch; }
    ElementPanel* elementPanel() const { return m_elementPanel; }
    HistogramPanel* histogramPanel() const { return m_histogramPanel; }
    DivergenceMapPanel* divergenceMapPanel() const { return m_divergenceMapPanel; }
    ValueHeatmapPanel* valueHeatmapPanel() const { return m_valueHeatmapPanel; }
    VerdictPanel* verdictPanel() const { return m_verdictPanel; }
    RankPanel* rankPanel() const { return m_rankPanel; }

    // The matrix header's menu for a column: open its group alone into its children (its names
    // one dotted component deeper) or close the opened group it lies in back into one, or cut
    // every group a level deeper or shallower; empty for a schema's groups. The caller owns it.
    QMenu* groupMenu(int column);

  signals:
    void layoutReset();
    // The user asked for the groups of buffers without a schema at this depth (0: chosen).
    void groupDepthRequested(int depth);
    // The user asked for this group alone to be opened into its children (`open`), or closed
    // back into one group with whatever was opened inside it.
    void groupOpenRequested(const QString& group, bool open);

  private:
    void applyDefaultSizes();
    void showCell(const QModelIndex& index);
    void showBuffer(int bufferIndex);
    void selectDefaultCell();
    void setCurrentCell(const QModelIndex& index);
    // After a snapshot: a finished analysis opens on its default cell (unless the user picked
    // one), else the current cell is shown again; then the selected buffer's details.
    void refreshCell(bool finishedNow);
    void refreshBuffer(bool finishedNow);
    void nextTurn();
    void completePendingTurns();
    // The snapshot the panels show: the one given, or its view of the rank chosen.
    SnapshotPtr shownOf(const SnapshotPtr& snapshot) const;
    // The current element's block, outlined on the divergence map and the heatmaps alike.
    void markElement(std::optional<quint64> element);

    SnapshotPtr m_snapshot;
    SnapshotPtr m_allRanks; // as given to setSnapshot(), every rank
    MatrixModel* m_matrixModel;
    MatrixView* m_matrixView;
    BufferPanel* m_bufferPanel;
    BufferSearch* m_bufferSearch;
    ElementPanel* m_elementPanel;
    HistogramPanel* m_histogramPanel;
    DivergenceMapPanel* m_divergenceMapPanel;
    ValueHeatmapPanel* m_valueHeatmapPanel;
    VerdictPanel* m_verdictPanel;
    RankPanel* m_rankPanel;
    QList<QSplitter*> m_splitters; // outer, main, top, bottom
    QList<Pane> m_panes;
    int m_shownBuffer = -1; // buffer the element table and histograms show, -1 none
    std::shared_ptr<const dumpscope::Analysis> m_shownAnalysis; // ...and the analysis it is from
    // Pace::inTurns: what the next turn shows, its timer, and the caller's `shown`.
    enum class Turn { none, cell, buffer };
    Turn m_nextTurn = Turn::none;
    QTimer* m_turnTimer;
    std::function<void()> m_shownCallback;
    bool m_holdDetails = false; // the cell's turn: the details wait for their own turn
};

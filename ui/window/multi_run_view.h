#pragma once

#include "workers/analysis_request.h"
#include "workers/analysis_snapshot.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class AnalysisWorker;
class MatrixModel;
class MatrixView;
class MultiSummaryModel;
class QHBoxLayout;
class QLabel;
class QTableView;

// A base against several candidates: one step x group matrix per pair side by side (the same
// MatrixModel and MatrixView as the triage view), and the summary below: each candidate's first
// divergence, ranked, and its reading against the noise floor (candidate 1). The pairs are
// compared one after the other, each by its own AnalysisWorker, so the noise floor is known
// first and the disk reads the base once at a time. Activating a cell (double-click or Enter)
// asks for that pair in the triage view.
class MultiRunView : public QWidget {
    Q_OBJECT
  public:
    explicit MultiRunView(QWidget* parent = nullptr);
    ~MultiRunView() override;

    // Compares `base` with each candidate; `settings` gives everything but the two runs.
    void open(const QString& base, const QStringList& candidates,
              const AnalysisRequest& settings = {});
    void cancel();
    void clear();

    QString base() const { return m_base; }
    QStringList candidates() const { return m_candidates; }
    int candidateCount() const;
    MatrixModel* matrixModel(int candidate) const;
    MatrixView* matrixView(int candidate) const;
    QTableView* summaryView() const { return m_summaryView; }
    MultiSummaryModel* summaryModel() const { return m_summaryModel; }
    // The latest snapshot of the base against `candidate`.
    SnapshotPtr snapshot(int candidate) const;
    bool isRunning() const;
    bool isFinished() const;

  signals:
    void pairActivated(int candidate, quint64 step, const QString& group);
    // Every pair's analysis has finished (or failed): the summary is final.
    void finished();

  private:
    struct Column;
    void startNext();
    void show(int candidate, SnapshotPtr snapshot);
    void pairEnded(int candidate, const QString& message);
    void updateFloorText();

    QString m_base;
    QStringList m_candidates;
    AnalysisRequest m_settings;
    std::vector<Column> m_columns;
    int m_next = 0; // the candidate whose pair starts next
    bool m_cancelled = false;
    QWidget* m_matrices;
    QHBoxLayout* m_matrixLayout;
    MultiSummaryModel* m_summaryModel;
    QTableView* m_summaryView;
    QLabel* m_floorText;
};

#pragma once

#include "workers/analysis_snapshot.h"

#include <QWidget>

#include <cstdint>
#include <vector>

class QLabel;
class QPlainTextEdit;
class QTableWidget;
class QTreeWidget;
class QTreeWidgetItem;

// The verdict side panel: the reference's decision tree with the path taken highlighted, its
// interpretation text, the per-group culprit table and the root cause by dataflow as links.
class VerdictPanel : public QWidget {
    Q_OBJECT
  public:
    enum Role {
        OnPathRole = Qt::UserRole + 1, // bool: the verdict went through this node
        CaseRole,                      // QString: decisionCaseName of a leaf, empty elsewhere
    };

    explicit VerdictPanel(QWidget* parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    void clear();

    QTreeWidget* decisionTree() const { return m_tree; }
    QString interpretation() const;

  signals:
    // A root-cause link: select this step's cell of `group`, then `buffer` (may be empty).
    void rootCauseActivated(quint64 step, const QString& group, const QString& buffer);

  private:
    void buildTree();
    void highlightPath(const dumpscope::Verdict& verdict);
    void fillCulprits(const dumpscope::Analysis& analysis);
    void fillRootCause(const dumpscope::Analysis& analysis);
    void onLink(const QString& link);

    struct LinkTarget {
        quint64 step;
        QString group;
        QString buffer;
    };

    QLabel* m_headline;
    QTreeWidget* m_tree;
    QPlainTextEdit* m_text;
    QTableWidget* m_culprits;
    QLabel* m_rootCause;
    QLabel* m_warnings;
    QTreeWidgetItem* m_anyNode = nullptr;
    QTreeWidgetItem* m_divergeNode = nullptr;
    std::vector<LinkTarget> m_links;
    bool m_cleared = false; // the panel shows no verdict: progress updates touch the headline only
};

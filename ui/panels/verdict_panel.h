#pragma once

#include "workers/analysis_snapshot.h"

#include <QWidget>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

class QLabel;
class QPlainTextEdit;
class QTableView;
class CulpritModel;
class QTreeWidget;
class QTreeWidgetItem;

// The verdict side panel. For a run in the schema's terms: the reference's decision tree with
// the path taken highlighted, its interpretation text, the per-group culprit table and the root
// cause by dataflow as links. For a run in its own terms: the root cause in production order
// alone, its root buffer(s) as links and how many diverge downstream. Every list is cut to a few
// names; "show all" opens the rest on demand.
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

    // The link that shows every cut list of the panel whole.
    static constexpr const char* kShowAllLink = "show-all";
    // A list of names as the panel shows it: cut past `shown` (dumpscope::namesCut).
    static QString cutList(const std::vector<std::string>& items, std::size_t shown);
    QString interpretation() const;

  signals:
    // A root-cause link: select this step's cell of `group`, then `buffer` (may be empty).
    void rootCauseActivated(quint64 step, const QString& group, const QString& buffer);

  private:
    void buildTree();
    void highlightPath(const dumpscope::Verdict& verdict);
    void fillCulprits(const SnapshotPtr& snapshot);
    void fillRootCause(const dumpscope::Analysis& analysis);
    void onLink(const QString& link);
    void fillOwnRootCause(const dumpscope::Analysis& analysis);
    void showTerms(dumpscope::VerdictTerms terms);

    struct LinkTarget {
        quint64 step;
        QString group;
        QString buffer;
    };
    // An <a> to `target`, numbered in m_links in reading order; onLink follows it.
    QString rootLink(LinkTarget target, const QString& text);
    // The lines of the runs' layout under the root cause: across precisions, across ranks.
    static QString layoutLines(const dumpscope::Analysis& analysis);

    QLabel* m_headline;
    QTreeWidget* m_tree;
    QPlainTextEdit* m_text;
    QTableView* m_culprits;
    CulpritModel* m_culpritModel;
    QLabel* m_rootCause;
    QLabel* m_warnings;
    QLabel* m_rootTitle;
    std::vector<QWidget*> m_schemaOnly; // the tree, the culprit table, the reference's wording
    SnapshotPtr m_snapshot;             // what "show all" lists again
    bool m_showAll = false;             // the cut lists shown whole, until the next snapshot
    QTreeWidgetItem* m_anyNode = nullptr;
    QTreeWidgetItem* m_divergeNode = nullptr;
    std::vector<LinkTarget> m_links;
    bool m_cleared = false; // the panel shows no verdict: progress updates touch the headline only
};

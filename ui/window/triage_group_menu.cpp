// The matrix header's menu: the groups of buffers read without a schema are their names' module
// tree cut at one depth. This opens the clicked group alone into its children, or closes it back,
// and moves the cut of every group a level.
#include "window/triage_view.h"

#include "models/matrix_model.h"

#include "dumpscope/analyze.h"
#include "dumpscope/option_ranges.h"

#include <QAction>
#include <QMenu>

#include <algorithm>

QMenu* TriageView::groupMenu(int column) {
    auto* menu = new QMenu(this);
    if (!m_snapshot || !m_snapshot->analysis || column < 0) return menu;
    const auto& an = *m_snapshot->analysis;
    const auto depth = static_cast<int>(an.groupDepth);
    if (depth == 0) return menu; // every group is the schema's
    const QString group =
        m_matrixModel->headerData(column, Qt::Horizontal, MatrixModel::GroupRole).toString();
    // A group has children when one of its buffers' names goes deeper than the group's id.
    const std::string id = group.toStdString();
    const bool hasChildren =
        std::any_of(an.buffers.begin(), an.buffers.end(), [&](const dumpscope::BufferResult& b) {
            return b.group == id && b.name.size() > id.size() + 1 &&
                   b.name.compare(0, id.size() + 1, id + ".") == 0;
        });
    QAction* open = menu->addAction(tr("Open %1 into its children").arg(group));
    open->setObjectName(QStringLiteral("openGroup"));
    open->setEnabled(hasChildren);
    connect(open, &QAction::triggered, this,
            [this, group] { emit groupOpenRequested(group, true); });
    // The innermost opened group this column lies in: the column itself or one of its children.
    std::string parent;
    for (const std::string& opened : an.openedGroups)
        if (dumpscope::isWithinGroup(id, opened) && opened.size() > parent.size()) parent = opened;
    const QString parentName = QString::fromStdString(parent);
    QAction* close =
        menu->addAction(parent.empty() ? tr("Close this group back into its parent")
                                       : tr("Close %1 back into one group").arg(parentName));
    close->setObjectName(QStringLiteral("closeGroup"));
    close->setEnabled(!parent.empty());
    connect(close, &QAction::triggered, this,
            [this, parentName] { emit groupOpenRequested(parentName, false); });

    menu->addSeparator();
    const int deepest = static_cast<int>(dumpscope::kGroupDepthRange.max);
    QAction* deeper = menu->addAction(tr("Group every name at depth %1").arg(depth + 1));
    deeper->setObjectName(QStringLiteral("deeperGroups"));
    deeper->setEnabled(depth < deepest);
    connect(deeper, &QAction::triggered, this,
            [this, depth] { emit groupDepthRequested(depth + 1); });
    QAction* shallower = menu->addAction(tr("Close the groups to depth %1").arg(depth - 1));
    shallower->setObjectName(QStringLiteral("shallowerGroups"));
    shallower->setEnabled(depth > 1);
    connect(shallower, &QAction::triggered, this,
            [this, depth] { emit groupDepthRequested(depth - 1); });
    QAction* chosen = menu->addAction(tr("Group at the depth chosen by itself"));
    chosen->setObjectName(QStringLiteral("chosenGroupDepth"));
    connect(chosen, &QAction::triggered, this, [this] { emit groupDepthRequested(0); });
    return menu;
}

// The matrix header's menu: the groups of buffers read without a schema are their names' module
// tree cut at one depth, and this opens a group into its children or closes the groups a level.
#include "window/triage_view.h"

#include "models/matrix_model.h"

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
    const int deepest = static_cast<int>(dumpscope::kGroupDepthRange.max);
    QAction* open = menu->addAction(
        tr("Open %1 into its children (group every name at depth %2)").arg(group).arg(depth + 1));
    open->setEnabled(hasChildren && depth < deepest);
    connect(open, &QAction::triggered, this,
            [this, depth] { emit groupDepthRequested(depth + 1); });
    QAction* close = menu->addAction(tr("Close the groups to depth %1").arg(depth - 1));
    close->setEnabled(depth > 1);
    connect(close, &QAction::triggered, this,
            [this, depth] { emit groupDepthRequested(depth - 1); });
    QAction* chosen = menu->addAction(tr("Group at the depth chosen by itself"));
    connect(chosen, &QAction::triggered, this, [this] { emit groupDepthRequested(0); });
    return menu;
}

#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// Two run directories to compare.
struct RunPair {
    QString runA;
    QString runB;
    bool operator==(const RunPair&) const = default;
};

// What dropped or given folders mean: two folders are run A and run B; one folder holding
// `a/` and `b/` (the demo's and the shared samples' layout) is that pair. Anything else: none.
std::optional<RunPair> pairFromFolders(const QStringList& folders);

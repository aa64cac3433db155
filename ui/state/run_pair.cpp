#include "state/run_pair.h"

#include <QDir>
#include <QFileInfo>

std::optional<RunPair> pairFromFolders(const QStringList& folders) {
    for (const QString& f : folders)
        if (!QFileInfo(f).isDir()) return std::nullopt;
    if (folders.size() == 2) return RunPair{folders[0], folders[1]};
    if (folders.size() == 1) {
        const QDir dir(folders[0]);
        if (QFileInfo(dir.filePath(QStringLiteral("a"))).isDir() &&
            QFileInfo(dir.filePath(QStringLiteral("b"))).isDir())
            return RunPair{dir.filePath(QStringLiteral("a")), dir.filePath(QStringLiteral("b"))};
    }
    return std::nullopt;
}

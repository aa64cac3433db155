#include "workers/buffer_names.h"

#include <QString>

#include <set>

QStringList sortedBufferNames(const dumpscope::Analysis& analysis) {
    std::set<QString> unique;
    for (const auto& b : analysis.buffers)
        unique.insert(QString::fromStdString(b.name));
    return QStringList(unique.begin(), unique.end());
}

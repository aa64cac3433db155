#include "panels/buffer_pair_reason.h"

#include "dumpscope/buffer_source.h"
#include "dumpscope/shards.h"

#include <QObject>
#include <QStringList>

using namespace dumpscope;

namespace buffer_pair {

const BufferResult* find(const std::shared_ptr<const Analysis>& analysis, int bufferIndex) {
    if (analysis && bufferIndex >= 0 && std::size_t(bufferIndex) < analysis->buffers.size())
        return &analysis->buffers[std::size_t(bufferIndex)];
    return nullptr;
}

QString noElementData(const Analysis& analysis, const BufferResult& buffer) {
    if (hasElementData(buffer)) return {};
    // The element views read each side as one type from one file: these pairs are neither, and
    // their verdict is in the statistics and the line below.
    if (const CrossPrecision* p = buffer.precision())
        return QObject::tr("This pair is compared across precisions (%1 in run A, %2 in run B): "
                           "the element views read both sides as one type, so they are not "
                           "shown. Its verdict: %3.")
            .arg(QString::fromUtf8(dtypeName(p->typeOf(true)).data()),
                 QString::fromUtf8(dtypeName(p->typeOf(false)).data()),
                 QString::fromStdString(precisionText(*p)));
    if (const ShardedPair* s = buffer.shards())
        return QObject::tr("This buffer is joined from shards (%1): the element views read one "
                           "file per side, so they are not shown. The statistics are the whole "
                           "tensor's.")
            .arg(QString::fromStdString(shardText(*s, buffer.stats.firstDiff)));
    if (const auto* ranks = buffer.crossRank()) {
        QStringList lines;
        for (const auto& d : *ranks)
            lines << QString::fromStdString(crossRankText(d));
        return QObject::tr("This rank's copy of a replicated tensor is not its peers': %1. The "
                           "other run holds no copy at this rank, so there is no pair to show.")
            .arg(lines.join(QStringLiteral("; ")));
    }
    return QObject::tr("Only fingerprints of this buffer were captured, so its elements cannot be "
                       "shown. Full tensors are needed: capture this step with %1.")
        .arg(QString::fromStdString(fullTensorsCall(analysis, buffer)));
}

QString noPairReason(const Analysis* analysis, const BufferResult* buffer) {
    if (!buffer) return QObject::tr("Select a buffer to see where its differences sit.");
    if (buffer->pending) return QObject::tr("Not compared yet.");
    if (analysis && !hasElementData(*buffer)) return noElementData(*analysis, *buffer);
    if (isError(buffer->status))
        return QObject::tr("No comparison: %1").arg(QString::fromStdString(buffer->error));
    if (isOneSided(buffer->status))
        return buffer->status == Status::only_in_a
                   ? QObject::tr("Only in run A: nothing to compare.")
                   : QObject::tr("Only in run B: nothing to compare.");
    if (buffer->status == Status::length_mismatch)
        return QObject::tr("The runs' lengths differ (%1 vs %2 elements): no map.")
            .arg(buffer->stats.nA)
            .arg(buffer->stats.nB);
    return {};
}

QString key(const Analysis& analysis, const BufferResult& buffer) {
    QString key = QString::fromStdString(dumpscope::sourceA(analysis, buffer).displayName() + '\n' +
                                         dumpscope::sourceB(analysis, buffer).displayName()) +
                  QStringLiteral("\n%1 %2 %3 %4")
                      .arg(int(buffer.dtype))
                      .arg(buffer.stats.hashA)
                      .arg(buffer.stats.hashB)
                      .arg(buffer.stats.nA);
    for (std::uint64_t d : buffer.shape)
        key += QStringLiteral(" %1").arg(d);
    return key;
}

} // namespace buffer_pair

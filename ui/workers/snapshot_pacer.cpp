#include "workers/snapshot_pacer.h"

#include <algorithm>

SnapshotPacer::SnapshotPacer(std::size_t total, Clock::time_point planned,
                             Clock::duration shareSpacing)
    : m_share(std::max<std::size_t>(1, total / kSharesPerRun)), m_shareSpacing(shareSpacing),
      m_last(planned) {}

bool SnapshotPacer::due(Clock::time_point now) const {
    if (m_since == 0) return false;
    if (m_since >= m_share) return now - m_last >= m_shareSpacing;
    return now - m_last >= std::max<Clock::duration>(kMinInterval, kCostFactor * m_lastCost);
}

void SnapshotPacer::taken(Clock::time_point start, Clock::time_point end) {
    m_since = 0;
    m_last = end;
    m_lastCost = end - start;
}

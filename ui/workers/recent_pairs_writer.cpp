#include "workers/recent_pairs_writer.h"

#include "state/settings.h"

#include <utility>

namespace {

void writePairs(const QString& file, const QList<RunPair>& pairs) {
    Settings settings(file);
    for (const RunPair& pair : pairs)
        settings.addRecentPair(pair);
    settings.sync();
}

} // namespace

RecentPairsWriter::RecentPairsWriter(QString settingsFile, QObject* parent)
    : QObject(parent), m_file(std::move(settingsFile)) {}

RecentPairsWriter::~RecentPairsWriter() {
    if (m_thread.joinable()) m_thread.join(); // its queued finishBatch() dies with this object
    if (!m_queued.isEmpty()) writePairs(m_file, m_queued);
}

void RecentPairsWriter::add(const RunPair& pair) {
    m_queued.append(pair);
    if (m_queued.size() == 1 && !m_thread.joinable())
        QMetaObject::invokeMethod(this, &RecentPairsWriter::startNext, Qt::QueuedConnection);
}

QList<RunPair> RecentPairsWriter::withPending(QList<RunPair> stored) const {
    for (const QList<RunPair>* pairs : {&m_inFlight, &m_queued})
        for (const RunPair& pair : *pairs)
            stored = Settings::withRecentPair(std::move(stored), pair);
    return stored;
}

void RecentPairsWriter::startNext() {
    if (m_queued.isEmpty() || m_thread.joinable()) return;
    m_inFlight = std::exchange(m_queued, {});
    m_thread = std::thread([this, file = m_file, pairs = m_inFlight] {
        writePairs(file, pairs);
        QMetaObject::invokeMethod(this, &RecentPairsWriter::finishBatch, Qt::QueuedConnection);
    });
}

void RecentPairsWriter::finishBatch() {
    m_thread.join();
    m_inFlight.clear();
    emit written();
    if (!m_queued.isEmpty()) startNext();
}

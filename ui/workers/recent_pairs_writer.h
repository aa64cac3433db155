#pragma once

#include "state/run_pair.h"

#include <QList>
#include <QObject>
#include <QString>

#include <thread>

// Adds opened pairs to the settings' recent list from a thread of its own. When QSettings
// syncs it rewrites its whole file, with two fdatasyncs: 9-14 ms in the GUI bench's traces
// and more on a busy disk, which used to land on the GUI thread in the turn after an open,
// while the triage view paints its first analysis. Pairs reach the file in the order added.
//
// The thread starts in the event-loop turn after add(), so the caller's turn can still read
// the settings freely: QSettings objects of one process share a file's state, and a reader
// waits while another thread writes that file. The destructor waits for the write in flight
// and writes what is still queued, so a window closed right after an open remembers the pair.
class RecentPairsWriter : public QObject {
    Q_OBJECT
  public:
    // `settingsFile` as for Settings: empty for the platform's default location.
    explicit RecentPairsWriter(QString settingsFile, QObject* parent = nullptr);
    ~RecentPairsWriter() override;

    void add(const RunPair& pair);
    // The recent list as it will be once every added pair is written: `stored` (what the
    // settings hold now) with the added pairs in front, the latest first.
    QList<RunPair> withPending(QList<RunPair> stored) const;

  signals:
    void written(); // a batch of pairs is in the file; emitted on the writer's owner thread

  private:
    void startNext();
    void finishBatch();

    QString m_file;
    QList<RunPair> m_queued;   // added, not yet handed to a thread
    QList<RunPair> m_inFlight; // being written by m_thread
    std::thread m_thread;
};

#pragma once

#include "run_pair.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <memory>

class QSettings;

// Everything dumpscope remembers between sessions, typed, in one place. Window and splitter
// state carry a version: a layout change bumps kLayoutVersion and old state is ignored instead
// of restoring a broken layout.
class Settings {
  public:
    static constexpr int kLayoutVersion = 1;
    static constexpr int kMaxRecentPairs = 10;

    // `iniFile` empty: the platform's default location for dumpscope.
    explicit Settings(const QString& iniFile = {});
    ~Settings();
    Settings(const Settings&) = delete;
    Settings& operator=(const Settings&) = delete;

    // Most recent first, without duplicates.
    QList<RunPair> recentPairs() const;
    void addRecentPair(const RunPair& pair);
    void clearRecentPairs();

    QString lastDirectory() const;
    void setLastDirectory(const QString& dir);

    // Empty when absent or saved by another layout version.
    QByteArray windowGeometry() const;
    QByteArray windowState() const;
    QByteArray splitterState() const;
    void setWindowGeometry(const QByteArray& state);
    void setWindowState(const QByteArray& state);
    void setSplitterState(const QByteArray& state);

    void sync();

  private:
    QByteArray layoutValue(const char* key) const;
    void setLayoutValue(const char* key, const QByteArray& value);

    std::unique_ptr<QSettings> m_settings;
};

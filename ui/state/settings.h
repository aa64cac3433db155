#pragma once

#include "state/analysis_settings.h"
#include "state/run_pair.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <map>
#include <memory>
#include <string>
#include <vector>

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
    // `pairs` with `pair` in front, an older copy of it removed, at most kMaxRecentPairs long.
    static QList<RunPair> withRecentPair(QList<RunPair> pairs, const RunPair& pair);
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

    // Tolerances and rounding threshold: the defaults (bitwise, 1e-4) until the user sets them.
    AnalysisSettings analysisSettings() const;
    void setAnalysisSettings(const AnalysisSettings& settings);

    // Shapes the user typed, by buffer name, for every pair opened (a buffer name means the same
    // tensor across runs of one trainer). The text as typed ("batch, 1024"); an empty text clears.
    QString bufferShape(const QString& buffer) const;
    void setBufferShape(const QString& buffer, const QString& text);
    // All typed shapes as dimension words, for AnalyzeOptions::shapes.
    std::map<std::string, std::vector<std::string>> bufferShapes() const;

    void sync();

  private:
    QByteArray layoutValue(const char* key) const;
    void setLayoutValue(const char* key, const QByteArray& value);

    std::unique_ptr<QSettings> m_settings;
};

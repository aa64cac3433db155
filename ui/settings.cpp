#include "settings.h"

#include <QSettings>

Settings::Settings(const QString& iniFile)
    : m_settings(iniFile.isEmpty() ? std::make_unique<QSettings>(QStringLiteral("dumpscope"),
                                                                 QStringLiteral("dumpscope"))
                                   : std::make_unique<QSettings>(iniFile, QSettings::IniFormat)) {}

Settings::~Settings() = default;

QList<RunPair> Settings::recentPairs() const {
    QList<RunPair> pairs;
    const int n = m_settings->beginReadArray(QStringLiteral("recent"));
    for (int i = 0; i < n; ++i) {
        m_settings->setArrayIndex(i);
        RunPair pair{m_settings->value(QStringLiteral("runA")).toString(),
                     m_settings->value(QStringLiteral("runB")).toString()};
        if (!pair.runA.isEmpty() && !pair.runB.isEmpty() && !pairs.contains(pair)) pairs << pair;
    }
    m_settings->endArray();
    return pairs;
}

void Settings::addRecentPair(const RunPair& pair) {
    QList<RunPair> pairs = recentPairs();
    pairs.removeAll(pair);
    pairs.prepend(pair);
    while (pairs.size() > kMaxRecentPairs)
        pairs.removeLast();
    m_settings->beginWriteArray(QStringLiteral("recent"), static_cast<int>(pairs.size()));
    for (int i = 0; i < pairs.size(); ++i) {
        m_settings->setArrayIndex(i);
        m_settings->setValue(QStringLiteral("runA"), pairs[i].runA);
        m_settings->setValue(QStringLiteral("runB"), pairs[i].runB);
    }
    m_settings->endArray();
}

void Settings::clearRecentPairs() {
    m_settings->remove(QStringLiteral("recent"));
}

QString Settings::lastDirectory() const {
    return m_settings->value(QStringLiteral("lastDirectory")).toString();
}

void Settings::setLastDirectory(const QString& dir) {
    m_settings->setValue(QStringLiteral("lastDirectory"), dir);
}

QByteArray Settings::layoutValue(const char* key) const {
    if (m_settings->value(QStringLiteral("layout/version")).toInt() != kLayoutVersion) return {};
    return m_settings->value(QStringLiteral("layout/") + QLatin1String(key)).toByteArray();
}

void Settings::setLayoutValue(const char* key, const QByteArray& value) {
    m_settings->setValue(QStringLiteral("layout/version"), kLayoutVersion);
    m_settings->setValue(QStringLiteral("layout/") + QLatin1String(key), value);
}

QByteArray Settings::windowGeometry() const {
    return layoutValue("geometry");
}
QByteArray Settings::windowState() const {
    return layoutValue("windowState");
}
QByteArray Settings::splitterState() const {
    return layoutValue("splitters");
}
void Settings::setWindowGeometry(const QByteArray& state) {
    setLayoutValue("geometry", state);
}
void Settings::setWindowState(const QByteArray& state) {
    setLayoutValue("windowState", state);
}
void Settings::setSplitterState(const QByteArray& state) {
    setLayoutValue("splitters", state);
}

void Settings::sync() {
    m_settings->sync();
}

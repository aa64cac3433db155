#include "state/settings.h"

#include "dumpscope/option_ranges.h"
#include "dumpscope/shape.h"

#include <QSettings>
#include <QVariantMap>

#include <optional>

namespace {

// An unset QSettings value reads as "no tolerance", a number as that tolerance.
// A stored value outside the range the dialog and the command line accept (NaN, a negative or
// absurd tolerance written into the file by hand) is not used: the setting keeps its default.
std::optional<double> optionalDouble(const QVariant& v, const dumpscope::RealRange& range) {
    bool ok = false;
    const double d = v.toDouble(&ok);
    return v.isValid() && ok && range.contains(d) ? std::optional<double>(d) : std::nullopt;
}

QVariant variantOf(const std::optional<double>& d) {
    return d ? QVariant(*d) : QVariant();
}

} // namespace

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

QList<RunPair> Settings::withRecentPair(QList<RunPair> pairs, const RunPair& pair) {
    pairs.removeAll(pair);
    pairs.prepend(pair);
    while (pairs.size() > kMaxRecentPairs)
        pairs.removeLast();
    return pairs;
}

void Settings::addRecentPair(const RunPair& pair) {
    const QList<RunPair> pairs = withRecentPair(recentPairs(), pair);
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

AnalysisSettings Settings::analysisSettings() const {
    AnalysisSettings s;
    s.tolerance.atol =
        optionalDouble(m_settings->value(QStringLiteral("analysis/atol")), dumpscope::kAtolRange);
    s.tolerance.rtol =
        optionalDouble(m_settings->value(QStringLiteral("analysis/rtol")), dumpscope::kRtolRange);
    const QVariant ulp = m_settings->value(QStringLiteral("analysis/ulp"));
    bool ok = false;
    const qulonglong n = ulp.toULongLong(&ok);
    if (ulp.isValid() && ok && dumpscope::kUlpRange.contains(n)) s.tolerance.ulp = n;
    s.verdictTolerance = m_settings->value(QStringLiteral("analysis/verdictTolerance")).toBool();
    if (const auto r = optionalDouble(m_settings->value(QStringLiteral("analysis/rounding")),
                                      dumpscope::kRoundingThresholdRange))
        s.roundingThreshold = *r;
    return s;
}

void Settings::setAnalysisSettings(const AnalysisSettings& s) {
    auto put = [this](const QString& key, const QVariant& value) {
        if (value.isValid())
            m_settings->setValue(key, value);
        else
            m_settings->remove(key);
    };
    put(QStringLiteral("analysis/atol"), variantOf(s.tolerance.atol));
    put(QStringLiteral("analysis/rtol"), variantOf(s.tolerance.rtol));
    put(QStringLiteral("analysis/ulp"),
        s.tolerance.ulp ? QVariant(qulonglong(*s.tolerance.ulp)) : QVariant());
    m_settings->setValue(QStringLiteral("analysis/verdictTolerance"), s.verdictTolerance);
    m_settings->setValue(QStringLiteral("analysis/rounding"), s.roundingThreshold);
}

// One map value rather than a key per buffer: an unclassified file's name may hold '/' or
// other characters QSettings treats as key syntax.
QString Settings::bufferShape(const QString& buffer) const {
    return m_settings->value(QStringLiteral("shapes")).toMap().value(buffer).toString();
}

void Settings::setBufferShape(const QString& buffer, const QString& text) {
    QVariantMap shapes = m_settings->value(QStringLiteral("shapes")).toMap();
    if (text.trimmed().isEmpty())
        shapes.remove(buffer);
    else
        shapes.insert(buffer, text.trimmed());
    m_settings->setValue(QStringLiteral("shapes"), shapes);
}

std::map<std::string, std::vector<std::string>> Settings::bufferShapes() const {
    std::map<std::string, std::vector<std::string>> shapes;
    const QVariantMap stored = m_settings->value(QStringLiteral("shapes")).toMap();
    for (auto it = stored.cbegin(); it != stored.cend(); ++it) {
        auto words = dumpscope::parseShapeText(it.value().toString().toStdString());
        if (!words.empty()) shapes[it.key().toStdString()] = std::move(words);
    }
    return shapes;
}

void Settings::sync() {
    m_settings->sync();
}

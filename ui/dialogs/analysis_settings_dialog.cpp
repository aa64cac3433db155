#include "dialogs/analysis_settings_dialog.h"

#include "widgets/matrix_colors.h"

#include "dumpscope/option_ranges.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>
#include <optional>

namespace {

QLineEdit* field(const char* objectName, const QString& placeholder, const QString& tip) {
    auto* edit = new QLineEdit;
    edit->setObjectName(QLatin1String(objectName));
    edit->setPlaceholderText(placeholder);
    edit->setToolTip(tip);
    edit->setClearButtonEnabled(true);
    return edit;
}

QString numberText(const std::optional<double>& v) {
    return v ? QString::number(*v, 'g', 17) : QString();
}

// Empty: not used. Otherwise a number in `range` ("1e-6", "0.001"), the command line's.
bool readTolerance(const QLineEdit* edit, const dumpscope::RealRange& range,
                   std::optional<double>& out) {
    const QString text = edit->text().trimmed();
    if (text.isEmpty()) {
        out.reset();
        return true;
    }
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (!ok || !range.contains(v)) return false;
    out = v;
    return true;
}

QString words(const dumpscope::RealRange& range) {
    return QString::fromUtf8(range.words.data(), static_cast<qsizetype>(range.words.size()));
}
QString words(const dumpscope::CountRange& range) {
    return QString::fromUtf8(range.words.data(), static_cast<qsizetype>(range.words.size()));
}

} // namespace

AnalysisSettingsDialog::AnalysisSettingsDialog(const AnalysisSettings& initial, QWidget* parent)
    : QDialog(parent),
      m_atol(field("atol", tr("not used"), tr("Absolute tolerance: |A − B| ≤ atol + rtol·|B|"))),
      m_rtol(field("rtol", tr("not used"), tr("Relative tolerance: |A − B| ≤ atol + rtol·|B|"))),
      m_ulp(field("ulp", tr("not used"), tr("At most this many units in the last place apart"))),
      m_verdictTolerance(new QCheckBox(tr("Within-tolerance buffers do not count as divergent"))),
      m_rounding(field("roundingThreshold", QString(),
                       tr("max|Δ| / max(|A|, |B|) over a buffer at or below this is rounding, "
                          "above it numeric"))),
      m_error(new QLabel),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel |
                                     QDialogButtonBox::RestoreDefaults)) {
    setWindowTitle(tr("Analysis Settings"));
    m_verdictTolerance->setObjectName(QStringLiteral("verdictTolerance"));
    m_rounding->setClearButtonEnabled(false);
    m_error->setObjectName(QStringLiteral("settingsError"));
    QPalette errorPalette = m_error->palette();
    errorPalette.setColor(QPalette::WindowText, matrix_colors::errorText());
    m_error->setPalette(errorPalette);
    m_error->setWordWrap(true);
    m_error->hide();

    auto* note = new QLabel(tr("Buffers whose differences all pass every tolerance given are "
                               "<i>within tolerance</i> (pale yellow in the matrix). The verdict "
                               "stays bitwise unless the box below is ticked."));
    note->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(tr("&atol:"), m_atol);
    form->addRow(tr("&rtol:"), m_rtol);
    form->addRow(tr("&ULP:"), m_ulp);
    form->addRow(QString(), m_verdictTolerance);
    form->addRow(tr("Rounding &threshold:"), m_rounding);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(note);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &AnalysisSettingsDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
            &AnalysisSettingsDialog::restoreDefaults);
    setSettings(initial);
}

void AnalysisSettingsDialog::setSettings(const AnalysisSettings& s) {
    m_atol->setText(numberText(s.tolerance.atol));
    m_rtol->setText(numberText(s.tolerance.rtol));
    m_ulp->setText(s.tolerance.ulp ? QString::number(*s.tolerance.ulp) : QString());
    m_verdictTolerance->setChecked(s.verdictTolerance);
    m_rounding->setText(QString::number(s.roundingThreshold, 'g', 17));
    m_error->hide();
}

void AnalysisSettingsDialog::restoreDefaults() {
    setSettings(AnalysisSettings{});
}

std::optional<AnalysisSettings> AnalysisSettingsDialog::settings(QString* error) const {
    AnalysisSettings s;
    auto fail = [error](const QString& message) {
        if (error) *error = message;
        return std::nullopt;
    };
    using dumpscope::kAtolRange, dumpscope::kRtolRange, dumpscope::kUlpRange,
        dumpscope::kRoundingThresholdRange;
    if (!readTolerance(m_atol, kAtolRange, s.tolerance.atol))
        return fail(tr("atol must be %1, or empty").arg(words(kAtolRange)));
    if (!readTolerance(m_rtol, kRtolRange, s.tolerance.rtol))
        return fail(tr("rtol must be %1, or empty").arg(words(kRtolRange)));
    if (const QString text = m_ulp->text().trimmed(); !text.isEmpty()) {
        bool ok = false;
        const qulonglong n = text.toULongLong(&ok);
        if (!ok || !kUlpRange.contains(n))
            return fail(tr("ULP must be %1, or empty").arg(words(kUlpRange)));
        s.tolerance.ulp = n;
    }
    s.verdictTolerance = m_verdictTolerance->isChecked();
    bool ok = false;
    s.roundingThreshold = m_rounding->text().trimmed().toDouble(&ok);
    if (!ok || !kRoundingThresholdRange.contains(s.roundingThreshold))
        return fail(tr("the rounding threshold must be %1").arg(words(kRoundingThresholdRange)));
    return s;
}

void AnalysisSettingsDialog::accept() {
    QString error;
    if (!settings(&error)) {
        m_error->setText(error);
        m_error->show();
        return;
    }
    QDialog::accept();
}

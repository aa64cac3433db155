#pragma once

#include "state/analysis_settings.h"

#include <QDialog>

#include <optional>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

// Analysis → Analysis Settings: atol, rtol, ULP, whether the verdict follows the tolerance,
// and the rounding threshold. An empty tolerance field means "not used"; the dialog accepts only
// when every field reads as a number of its kind.
class AnalysisSettingsDialog : public QDialog {
    Q_OBJECT
  public:
    explicit AnalysisSettingsDialog(const AnalysisSettings& initial, QWidget* parent = nullptr);

    void setSettings(const AnalysisSettings& settings);
    // The settings the fields hold; nullopt (and `error` says which field) when one is invalid.
    std::optional<AnalysisSettings> settings(QString* error = nullptr) const;

    void accept() override;

  private:
    void restoreDefaults();

    QLineEdit* m_atol;
    QLineEdit* m_rtol;
    QLineEdit* m_ulp;
    QCheckBox* m_verdictTolerance;
    QLineEdit* m_rounding;
    QLabel* m_error;
    QDialogButtonBox* m_buttons;
};

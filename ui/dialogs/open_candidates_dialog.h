#pragma once

#include <QDialog>
#include <QStringList>

class QDialogButtonBox;
class QLineEdit;
class QListWidget;

// File > Open Several Candidates: a base run folder and the candidates to compare with it, in
// order (the first candidate is read as the noise floor: a rerun of the base's build).
class OpenCandidatesDialog : public QDialog {
    Q_OBJECT
  public:
    explicit OpenCandidatesDialog(const QString& startDirectory, QWidget* parent = nullptr);

    QString base() const;
    QStringList candidates() const;
    void setBase(const QString& base);
    void addCandidate(const QString& run);

  private:
    void updateOk();

    QString m_startDirectory;
    QLineEdit* m_base;
    QListWidget* m_candidates;
    QDialogButtonBox* m_buttons;
};

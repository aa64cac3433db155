#pragma once

#include <QDialog>
#include <QStringList>

class QDialogButtonBox;
class QLineEdit;
class QListWidget;

// File > Open with a Noise Floor: a base run, a candidate, and one or more reruns of the base's
// build whose run-to-run noise the pair is read over.
class OpenFloorDialog : public QDialog {
    Q_OBJECT
  public:
    explicit OpenFloorDialog(const QString& startDirectory, QWidget* parent = nullptr);

    QString base() const;
    QString candidate() const;
    QStringList reruns() const;
    void setBase(const QString& base);
    void setCandidate(const QString& candidate);
    void addRerun(const QString& run);
    // Open is enabled: a base, a candidate and at least one rerun.
    bool canOpen() const;

  private:
    void updateOk();
    QString pick(const QString& title);

    QString m_startDirectory;
    QLineEdit* m_base;
    QLineEdit* m_candidate;
    QListWidget* m_reruns;
    QDialogButtonBox* m_buttons;
};

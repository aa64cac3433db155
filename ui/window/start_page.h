#pragma once

#include "state/run_pair.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

// What the window shows with no pair open: the demo, Open Run A / Run B, and the recent pairs.
class StartPage : public QWidget {
    Q_OBJECT
  public:
    explicit StartPage(QWidget* parent = nullptr);

    void setRecentPairs(const QList<RunPair>& pairs);
    // Pre-fills run A (a single dropped folder) or run B.
    void setRunA(const QString& dir);
    void setRunB(const QString& dir);
    QString runA() const;
    // Why a run folder could not be opened, shown under its field until the field changes;
    // empty: no error.
    void setRunErrors(const QString& errorA, const QString& errorB);
    QString runErrorA() const;
    QString runErrorB() const;
    // Where the folder dialogs start.
    void setStartDirectory(const QString& dir) { m_startDirectory = dir; }

  signals:
    void demoRequested();
    void pairRequested(const RunPair& pair);
    void directoryChosen(const QString& dir); // remembered as the next dialogs' start

  private:
    void browse(QLineEdit* edit, const QString& title);
    void updateCompareButton();

    QLineEdit* m_runA;
    QLineEdit* m_runB;
    QLabel* m_errorA;
    QLabel* m_errorB;
    QPushButton* m_compare;
    QListWidget* m_recent;
    QString m_startDirectory;
};

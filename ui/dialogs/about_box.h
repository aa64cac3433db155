#pragma once

#include <QMessageBox>

// Help → About dumpscope: the version (the core's, as dumpscope-cli --version prints it) and
// the Qt version it runs on and was built with.
class AboutBox : public QMessageBox {
    Q_OBJECT
  public:
    explicit AboutBox(QWidget* parent = nullptr);
    static QString aboutText();
};

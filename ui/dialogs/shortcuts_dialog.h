#pragma once

#include <QDialog>

class QMenuBar;
class QTableWidget;

// Help → Keyboard Shortcuts: every menu action that has a shortcut, read from the menu bar
// itself, so the list is the actions' own and cannot drift from them; then the keys that work
// inside the panes (moving through the tables), which are no menu action.
class ShortcutsDialog : public QDialog {
    Q_OBJECT
  public:
    explicit ShortcutsDialog(const QMenuBar* menuBar, QWidget* parent = nullptr);

    QTableWidget* table() const { return m_table; }

  private:
    QTableWidget* m_table;
};

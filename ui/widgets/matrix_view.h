#pragma once

#include <QTableView>

// The step x group matrix: coloured cells, the root-cause outline and the first divergent step's
// marker. Arrow keys move between cells; the current cell is the one whose buffers are listed.
class MatrixView : public QTableView {
    Q_OBJECT
  public:
    explicit MatrixView(QWidget* parent = nullptr);
    void setModel(QAbstractItemModel* model) override;

    // Whether the user moved the current cell (mouse or keys) since the last reset: the window
    // then keeps the user's cell instead of jumping to the root cause when the analysis ends.
    bool userNavigated() const { return m_userNavigated; }
    void resetUserNavigated() { m_userNavigated = false; }
    // A column header as drawn: the group's id and label words, elided at the right to the
    // column's width, so that the id stays.
    QString headerText(int column) const;

  protected:
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

  signals:
    // The current cell changed (keyboard or mouse); invalid when the matrix was cleared.
    void cellChanged(const QModelIndex& index);

  private:
    void fitHeaderMinimum();
    bool m_userNavigated = false;
};

#pragma once

#include <QTableView>

// A table whose first column stays in place when the table scrolls sideways: a second view,
// showing only that column, lies over it and shares the model, the selection model, the row
// heights, the vertical scroll position and the sort indicator. Only the main view takes the
// keyboard; a click on the frozen column selects the row in both and hands the focus over.
class FrozenColumnView : public QTableView {
    Q_OBJECT
  public:
    explicit FrozenColumnView(QWidget* parent = nullptr);
    void setModel(QAbstractItemModel* model) override;
    void setSelectionModel(QItemSelectionModel* selectionModel) override;
    // Scrolls to the row; for the first column only vertically, as it is always in sight.
    void scrollTo(const QModelIndex& index, ScrollHint hint = EnsureVisible) override;

    // The view over the first column (tests; delegates and context menus of the column).
    QTableView* frozenView() const { return m_frozen; }
    // Sizes the first column to its contents, but to at most half the viewport's width, now and
    // whenever the view is resized: it never scrolls away, so it must leave room for the rest.
    void fitFrozenColumn();

  protected:
    void resizeEvent(QResizeEvent* event) override;
    QModelIndex moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers) override;
    void updateGeometries() override;

  private:
    void hideOtherColumns();
    void syncSortIndicator();
    void updateFrozenGeometry();

    void applyFrozenWidth();

    QTableView* m_frozen;
    int m_contentWidth = 0; // what the first column's cells and header ask for
};

#pragma once

#include <QTableView>

// The step x group matrix: coloured cells, the root-cause outline and the first divergent step's
// marker. Arrow keys move between cells; the current cell is the one whose buffers are listed.
class MatrixView : public QTableView {
    Q_OBJECT
public:
    explicit MatrixView(QWidget* parent = nullptr);
    void setModel(QAbstractItemModel* model) override;

signals:
    // The current cell changed (keyboard or mouse); invalid when the matrix was cleared.
    void cellChanged(const QModelIndex& index);
};

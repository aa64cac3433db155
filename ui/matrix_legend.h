#pragma once

#include <QWidget>

// The matrix's colour key, drawn from matrix_colors so it always matches the cells.
class MatrixLegend : public QWidget {
    Q_OBJECT
  public:
    explicit MatrixLegend(QWidget* parent = nullptr);
};

#pragma once

#include <QList>
#include <QWidget>

class QLabel;

// The matrix's colour key, drawn from matrix_colors so it always matches the cells.
class MatrixLegend : public QWidget {
    Q_OBJECT
  public:
    explicit MatrixLegend(QWidget* parent = nullptr);

  protected:
    // A new palette (dark or light desktop) redraws the swatches in the new colours.
    void changeEvent(QEvent* event) override;

  private:
    void paintSwatches();
    QList<QLabel*> m_swatches;
};

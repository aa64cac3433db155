#pragma once

#include "panels/buffer_pass.h"

#include "dumpscope/divergence_map.h"
#include "dumpscope/result.h"

#include <QColor>
#include <QImage>
#include <QString>
#include <QWidget>

#include <filesystem>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QLabel;

// Where the selected buffer's differences sit: the core's DivergenceMap drawn as an image, one
// block of elements per cell, coloured by log10 of the block's max|Δ| (grey: equal; blue: a NaN
// or Inf on one side only). Rows × columns for a shaped buffer, a density strip for a flat one.
// The map is computed in a thread, only while the panel is visible; results of a buffer that is
// no longer selected are dropped by sequence number. Hover names a block's range, count and
// max|Δ|; a click asks for the block's first differing element (elementClicked).
class DivergenceMapPanel : public QWidget {
    Q_OBJECT
  public:
    explicit DivergenceMapPanel(QWidget* parent = nullptr);
    ~DivergenceMapPanel() override; // stops and joins its threads

    void setBuffer(std::shared_ptr<const dumpscope::Analysis> analysis, int bufferIndex);
    void clear();
    // Outlines the cell holding `element` (the element the table was asked to show); nullopt:
    // none. Kept across maps of the same buffer, cleared with a new buffer.
    void setMarkedElement(std::optional<quint64> element);
    std::optional<quint64> markedElement() const { return m_marked; }

    // For the window and the tests.
    const dumpscope::DivergenceMap* map() const { return m_map.get(); } // null until computed
    const QImage& image() const { return m_image; } // one pixel per cell, row by row
    QString statusText() const;
    bool isComputing() const { return m_computing; }
    QRect mapRect() const; // where the cells are drawn; empty without a map
    QRect cellRect(quint32 row, quint32 col) const;
    std::optional<std::pair<quint32, quint32>> cellAt(const QPoint& pos) const;
    QString cellText(quint32 row, quint32 col) const; // the hover text of a cell
    QString hoverText() const { return m_hoverText; }

    static QColor equalColor();
    static QColor nonFiniteColor();
    // Position 0 (the map's smallest cell max|Δ|) .. 1 (its largest) on the log colour scale.
    static QColor scaleColor(double t);

  signals:
    void mapReady(); // the current buffer's map, or why there is none, is shown
    void elementClicked(quint64 index);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

  private:
    static constexpr int kLegendWidth = 104; // right of the map
    void start();
    void finish(std::shared_ptr<const dumpscope::DivergenceMap> map);
    void showMessage(const QString& text);
    QColor cellColor(const dumpscope::MapCell& cell) const;
    void paintAxes(QPainter& p, const QRect& area) const;
    void paintLegend(QPainter& p, const QRect& area) const;

    QLabel* m_status;
    std::optional<quint64> m_marked;

    BufferPass m_pass; // the buffer asked for, computed again only when its pair changes

    std::shared_ptr<const dumpscope::DivergenceMap> m_map;
    QImage m_image;
    double m_loLog = 0, m_hiLog = 0; // the colour scale's ends: log10 of the cells' max|Δ|
    QString m_hoverText;

    bool m_computing = false;
};

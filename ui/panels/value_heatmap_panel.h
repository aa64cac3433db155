#pragma once

#include "panels/buffer_pass.h"

#include "dumpscope/result.h"
#include "dumpscope/value_heatmap.h"

#include <QColor>
#include <QImage>
#include <QString>
#include <QWidget>

#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QLabel;

// The selected buffer's values as three images on the divergence map's grid: A's and B's
// largest-magnitude value per block on one shared diverging scale (blue below 0, red above,
// symmetric around 0 so that the two sides compare by eye), and the block's max|Δ| on the map's
// own log scale. NaN and ±Inf have colours of their own. Only for a shaped buffer (two or more
// dimensions): a flat one says why and leaves it to the divergence map's strip. Computed in a
// thread, only while the panel is visible, like the map. The current element's block is
// outlined on all three; a click asks for the block's first differing element (elementClicked).
class ValueHeatmapPanel : public QWidget {
    Q_OBJECT
  public:
    enum Image { SideA, SideB, Delta };

    explicit ValueHeatmapPanel(QWidget* parent = nullptr);
    ~ValueHeatmapPanel() override; // stops and joins its threads

    void setBuffer(std::shared_ptr<const dumpscope::Analysis> analysis, int bufferIndex);
    void clear();
    // Outlines the cell holding `element` on the three images; nullopt: none. Kept across
    // heatmaps of the same buffer, cleared with a new buffer.
    void setMarkedElement(std::optional<quint64> element);
    std::optional<quint64> markedElement() const { return m_marked; }

    // For the window and the tests.
    const dumpscope::ValueHeatmap* heatmap() const { return m_heat.get(); } // null until computed
    const QImage& image(Image which) const { return m_images[which]; }      // a pixel per cell
    QString statusText() const;
    bool isComputing() const { return m_computing; }
    QRect imageRect(Image which) const; // where its cells are drawn; empty without a heatmap
    QRect cellRect(Image which, quint32 row, quint32 col) const;
    std::optional<std::pair<quint32, quint32>> cellAt(const QPoint& pos) const;
    QString cellText(quint32 row, quint32 col) const; // the hover text of a cell

    // The A/B scale: a value in [-limit, limit] (clamped), blue through the palette's neutral
    // to red; NaN and ±Inf their own colours.
    static QColor valueColor(double value, double limit);
    static QColor nanColor();
    static QColor infColor();

  signals:
    void heatmapReady(); // the current buffer's heatmaps, or why there are none, are shown
    void elementClicked(quint64 index);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void showEvent(QShowEvent* event) override;

  private:
    void start();
    void finish(std::shared_ptr<const dumpscope::ValueHeatmap> heat);
    void showMessage(const QString& text);
    QColor deltaColor(const dumpscope::HeatCell& cell) const;
    int legendHeight() const;
    void paintLegends(QPainter& p) const;

    QLabel* m_status;
    std::optional<quint64> m_marked;

    BufferPass m_pass; // the buffer asked for, computed again only when its pair changes

    std::shared_ptr<const dumpscope::ValueHeatmap> m_heat;
    std::array<QImage, 3> m_images;
    double m_loLog = 0, m_hiLog = 0; // the |Δ| scale's ends, log10

    bool m_computing = false;
};

#pragma once

#include "dumpscope/result.h"

#include <QString>
#include <QWidget>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QBarSet;
class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QStackedWidget;

// Bar charts of the selected buffer's differences, straight from its BufferStats histograms:
// log10|Δ| per decade, or ULP distance per power of two. Bars run from the lowest to the highest
// non-empty bin, then the bins without a number (|Δ| = 0, infinite, NaN side). Hovering a bar
// shows its count; clicking it emits the bin so the element table can list exactly its elements.
class HistogramPanel : public QWidget {
    Q_OBJECT
  public:
    enum class Mode { delta, ulp };

    explicit HistogramPanel(QWidget* parent = nullptr);

    void setBuffer(std::shared_ptr<const dumpscope::Analysis> analysis, int bufferIndex);
    void clear();

    Mode mode() const { return m_mode; }
    void setMode(Mode mode);

    // What is shown, for the window and the tests.
    bool isEmptyState() const;
    QString emptyText() const;
    int barCount() const { return int(m_bins.size()); }
    int barBin(int bar) const { return m_bins.at(std::size_t(bar)); }
    quint64 barValue(int bar) const { return m_counts.at(std::size_t(bar)); }
    QString barLabel(int bar) const;
    QBarSet* barSet() const { return m_set; }
    QChart* chart() const { return m_chart; }
    QString hoverText() const { return m_hoverText; }

    // "|Δ| in [1e-5, 1e-4)", "ULP distance in [2^3, 2^4)", "NaN on a side", ...
    static QString binDescription(bool ulp, int bin);

    // The core's countAxis (dumpscope/chart_axis.h) in at most five steps, as QValueAxis takes
    // it: the top and the tick count.
    struct CountAxis {
        quint64 top = 1;
        int ticks = 2;
    };
    static CountAxis countAxis(quint64 highest);

    // The bar the element table is filtered to, drawn in the palette's highlight; -1 none.
    int selectedBar() const;

  public slots:
    void clearSelectedBar(); // the element table's filter went

  signals:
    void deltaDecadeClicked(int decade); // a decade, or kDecadeZero / kDecadeInfinite / kDecadeNan
    void ulpBinClicked(int bin);         // a power of two, or kUlpUndefined

  protected:
    void changeEvent(QEvent* event) override; // a palette change re-themes the chart

  private:
    void applyTheme();
    void rebuild();
    void barHovered(bool status, int index);
    void barClicked(int index);

    QComboBox* m_modeBox;
    QStackedWidget* m_stack;
    QLabel* m_empty;
    QChartView* m_chartView;
    QChart* m_chart;
    QBarSet* m_set = nullptr; // owned by the chart's series

    std::shared_ptr<const dumpscope::Analysis> m_analysis;
    int m_bufferIndex = -1;
    Mode m_mode = Mode::delta;
    std::vector<int> m_bins;       // bin of each bar
    std::vector<quint64> m_counts; // count of each bar
    QString m_hoverText;
    // The bin of the clicked bar and the mode it was clicked in: kept across rebuilds of the
    // same buffer (a new snapshot, a theme change), dropped with a new buffer.
    std::optional<std::pair<Mode, int>> m_selectedBin;
};

#include "panels/histogram_panel.h"

#include "panels/buffer_pair_reason.h"

#include "dumpscope/chart_axis.h"
#include "dumpscope/diff_index.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCursor>
#include <QEvent>
#include <QLabel>
#include <QStackedWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include "widgets/matrix_colors.h"

#include <algorithm>

using namespace dumpscope;

HistogramPanel::HistogramPanel(QWidget* parent)
    : QWidget(parent), m_modeBox(new QComboBox), m_stack(new QStackedWidget), m_empty(new QLabel),
      m_chartView(new QChartView), m_chart(new QChart) {
    m_modeBox->addItem(tr("log10 |Δ| per decade"));
    m_modeBox->addItem(tr("ULP distance per power of two"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(2, 2, 2, 2));
    // QChartView makes a default chart of its own and setChart() only releases it, never
    // deletes it (documented): without the delete it leaked with its title's text document.
    QChart* defaultChart = m_chartView->chart();
    m_chartView->setChart(m_chart);
    delete defaultChart;
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setObjectName(QStringLiteral("histogramChart"));
    m_stack->addWidget(m_empty);
    m_stack->addWidget(m_chartView);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_modeBox);
    layout->addWidget(m_stack, 1);

    connect(m_modeBox, &QComboBox::currentIndexChanged, this,
            [this](int index) { setMode(index == 1 ? Mode::ulp : Mode::delta); });
    applyTheme();
    rebuild();
}

// Qt Charts ignores the widget palette: the chart takes the dark or light theme the matrix
// colours use, bars included.
void HistogramPanel::applyTheme() {
    const QChart::ChartTheme theme =
        matrix_colors::darkPalette() ? QChart::ChartThemeDark : QChart::ChartThemeLight;
    if (m_chart->theme() == theme) return;
    m_chart->setTheme(theme);
    m_chart->legend()->hide();
    rebuild();
}

void HistogramPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
        applyTheme();
}

void HistogramPanel::setBuffer(std::shared_ptr<const Analysis> analysis, int bufferIndex) {
    const bool valid =
        analysis && bufferIndex >= 0 && std::size_t(bufferIndex) < analysis->buffers.size();
    const auto fileOf = [](const std::shared_ptr<const Analysis>& a, int i) {
        return a ? a->buffers[std::size_t(i)].fileName : std::string();
    };
    if (!valid || !m_analysis || fileOf(analysis, bufferIndex) != fileOf(m_analysis, m_bufferIndex))
        m_selectedBin.reset();
    m_analysis = valid ? std::move(analysis) : nullptr;
    m_bufferIndex = valid ? bufferIndex : -1;
    rebuild();
}

void HistogramPanel::clear() {
    setBuffer(nullptr, -1);
}

void HistogramPanel::setMode(Mode mode) {
    if (mode == m_mode) return;
    m_mode = mode;
    const QSignalBlocker block(m_modeBox);
    m_modeBox->setCurrentIndex(mode == Mode::ulp ? 1 : 0);
    rebuild();
}

bool HistogramPanel::isEmptyState() const {
    return m_stack->currentWidget() == m_empty;
}
QString HistogramPanel::emptyText() const {
    return isEmptyState() ? m_empty->text() : QString();
}

QString HistogramPanel::binDescription(bool ulp, int bin) {
    if (ulp) {
        if (bin == kUlpUndefined) return tr("no ULP distance (NaN on a side)");
        return tr("ULP distance in [2^%1, 2^%2)").arg(bin).arg(bin + 1);
    }
    if (bin == kDecadeZero) return tr("|Δ| = 0 (only the sign of zero differs)");
    if (bin == kDecadeInfinite) return tr("an infinite |Δ|");
    if (bin == kDecadeNan) return tr("NaN on a side");
    return tr("|Δ| in [1e%1, 1e%2)").arg(bin).arg(bin + 1);
}

QString HistogramPanel::barLabel(int bar) const {
    const int bin = barBin(bar);
    if (m_mode == Mode::ulp)
        return bin == kUlpUndefined ? tr("NaN") : QStringLiteral("2^%1").arg(bin);
    if (bin == kDecadeZero) return tr("±0");
    if (bin == kDecadeInfinite) return tr("Inf");
    if (bin == kDecadeNan) return tr("NaN");
    return QStringLiteral("1e%1").arg(bin);
}

namespace {

// Appends the bars of `counts` (bin i is numbered i + offset): the core's usedRange(), the
// same bars the HTML report draws.
template <std::size_t N>
void appendSpan(const LazyCounts<N>& counts, int offset, std::vector<int>& bins,
                std::vector<quint64>& values) {
    const auto [lo, hi] = counts.usedRange();
    for (std::size_t i = lo; i < hi; ++i) {
        bins.push_back(int(i) + offset);
        values.push_back(counts[i]);
    }
}

void appendSpecial(int bin, std::uint64_t count, std::vector<int>& bins,
                   std::vector<quint64>& values) {
    if (count == 0) return;
    bins.push_back(bin);
    values.push_back(count);
}

} // namespace

void HistogramPanel::rebuild() {
    m_chart->removeAllSeries(); // deletes the series and with it the bar set
    m_set = nullptr;
    for (QAbstractAxis* axis : m_chart->axes()) {
        m_chart->removeAxis(axis);
        delete axis;
    }
    m_bins.clear();
    m_counts.clear();
    m_hoverText.clear();

    const BufferResult* buffer =
        m_analysis ? &m_analysis->buffers[std::size_t(m_bufferIndex)] : nullptr;
    QString empty;
    if (!buffer) {
        empty = tr("Select a buffer to see the distribution of its differences.");
    } else if (buffer->pending) {
        empty = tr("Not compared yet.");
    } else if (isError(buffer->status)) {
        empty = tr("No comparison: %1").arg(QString::fromStdString(buffer->error));
    } else if (isOneSided(buffer->status)) {
        empty = buffer->status == Status::only_in_a ? tr("Only in run A: nothing to compare.")
                                                    : tr("Only in run B: nothing to compare.");
    } else if (!hasElementData(*buffer)) {
        empty = buffer_pair::noElementData(*m_analysis, *buffer);
    } else if (buffer->stats.nDiff == 0) {
        empty = buffer->status == Status::length_mismatch
                    ? tr("The common elements are equal; only the lengths differ (%1 vs %2).")
                          .arg(buffer->stats.nA)
                          .arg(buffer->stats.nB)
                    : tr("No differences in this buffer.");
    }
    if (!empty.isEmpty()) {
        m_empty->setText(empty);
        m_stack->setCurrentWidget(m_empty);
        return;
    }

    const BufferStats& stats = buffer->stats;
    if (m_mode == Mode::delta) {
        appendSpan(stats.deltaHistogram.counts, DeltaHistogram::kMinDecade, m_bins, m_counts);
        appendSpecial(kDecadeZero, stats.deltaHistogram.zero, m_bins, m_counts);
        appendSpecial(kDecadeInfinite, stats.deltaHistogram.infinite, m_bins, m_counts);
        appendSpecial(kDecadeNan, stats.deltaHistogram.nan, m_bins, m_counts);
    } else {
        appendSpan(stats.ulpHistogram.counts, 0, m_bins, m_counts);
        appendSpecial(kUlpUndefined, stats.ulpHistogram.undefined, m_bins, m_counts);
    }

    m_set = new QBarSet(tr("Differences"));
    QStringList labels;
    quint64 highest = 0;
    for (int bar = 0; bar < barCount(); ++bar) {
        *m_set << double(m_counts[std::size_t(bar)]);
        labels << barLabel(bar);
        highest = std::max(highest, m_counts[std::size_t(bar)]);
    }
    auto* series = new QBarSeries;
    series->append(m_set);
    series->setBarWidth(0.9);
    m_chart->addSeries(series);
    auto* x = new QBarCategoryAxis;
    x->append(labels);
    x->setTitleText(m_mode == Mode::delta ? tr("|Δ| decade") : tr("ULP distance"));
    // Labels lying down are elided to "1…" as soon as a bar is narrower than its label;
    // standing, each reads whole at any width.
    x->setLabelsAngle(-90);
    auto* y = new QValueAxis;
    const CountAxis axis = countAxis(highest);
    y->setRange(0, double(axis.top));
    y->setTickCount(axis.ticks);
    y->setLabelFormat(QStringLiteral("%.0f"));
    y->setTitleText(tr("elements"));
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    connect(m_set, &QBarSet::hovered, this, &HistogramPanel::barHovered);
    connect(m_set, &QBarSet::clicked, this, &HistogramPanel::barClicked);
    m_set->setSelectedColor(palette().color(QPalette::Highlight));
    if (m_selectedBin && m_selectedBin->first == m_mode)
        for (int bar = 0; bar < barCount(); ++bar)
            if (barBin(bar) == m_selectedBin->second) m_set->selectBar(bar);
    m_stack->setCurrentWidget(m_chartView);
}

HistogramPanel::CountAxis HistogramPanel::countAxis(quint64 highest) {
    const dumpscope::CountAxis axis = dumpscope::countAxis(highest, 5);
    return {axis.top, int(axis.top / axis.step) + 1};
}

int HistogramPanel::selectedBar() const {
    if (!m_set) return -1;
    const QList<int> selected = m_set->selectedBars();
    return selected.isEmpty() ? -1 : selected.front();
}

void HistogramPanel::clearSelectedBar() {
    m_selectedBin.reset();
    if (m_set) m_set->deselectAllBars();
}

void HistogramPanel::barHovered(bool status, int index) {
    if (!status || index < 0 || index >= barCount()) {
        m_hoverText.clear();
        QToolTip::hideText();
        return;
    }
    m_hoverText = tr("%1 elements with %2\nClick to list them")
                      .arg(barValue(index))
                      .arg(binDescription(m_mode == Mode::ulp, barBin(index)));
    QToolTip::showText(QCursor::pos(), m_hoverText, m_chartView);
}

void HistogramPanel::barClicked(int index) {
    if (index < 0 || index >= barCount()) return;
    m_selectedBin = std::pair{m_mode, barBin(index)};
    m_set->deselectAllBars();
    m_set->selectBar(index);
    if (m_mode == Mode::ulp)
        emit ulpBinClicked(barBin(index));
    else
        emit deltaDecadeClicked(barBin(index));
}

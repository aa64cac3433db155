#include "panels/value_heatmap_panel.h"

#include "panels/buffer_pair_reason.h"
#include "panels/divergence_map_panel.h"

#include <QLabel>

#include <algorithm>
#include <cmath>

using namespace dumpscope;

ValueHeatmapPanel::ValueHeatmapPanel(QWidget* parent)
    : QWidget(parent), m_status(addMapStatus(this, QStringLiteral("valueHeatmapStatus"))) {
    clear();
}

ValueHeatmapPanel::~ValueHeatmapPanel() = default;

void ValueHeatmapPanel::clear() {
    setBuffer(nullptr, -1);
}

void ValueHeatmapPanel::setMarkedElement(std::optional<quint64> element) {
    if (element == m_marked) return;
    m_marked = element;
    update();
}

void ValueHeatmapPanel::setBuffer(std::shared_ptr<const Analysis> analysis, int bufferIndex) {
    const BufferResult* buffer = buffer_pair::find(analysis, bufferIndex);
    QString message = buffer_pair::noPairReason(analysis.get(), buffer);
    // Values are worth seeing in an equal buffer too; only the shape decides.
    if (message.isEmpty() && buffer->shape.size() < 2)
        message = tr("%1 is flat (%2 elements, no shape of two or more dimensions): no heatmaps. "
                     "The divergence map shows it as a strip.")
                      .arg(QString::fromStdString(buffer->name))
                      .arg(buffer->stats.nA);
    if (!message.isEmpty()) {
        m_pass.forget();
        m_marked.reset();
        showMessage(message);
        emit heatmapReady();
        return;
    }
    if (!m_pass.take(*analysis, *buffer)) return;
    m_marked.reset();
    if (isVisible()) start();
}

void ValueHeatmapPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_pass.waiting()) start();
}

void ValueHeatmapPanel::showMessage(const QString& text) {
    m_heat.reset();
    m_images = {};
    m_computing = false;
    m_status->setText(text);
    update();
}

QString ValueHeatmapPanel::statusText() const {
    return m_status->text();
}

void ValueHeatmapPanel::start() {
    const QString name = m_pass.name();
    showMessage(tr("Computing the heatmaps of %1…").arg(name));
    m_computing = true;
    // A cell per pixel at most in each of the three images.
    const int imageWidth = (width() - 24) / 3;
    const int imageHeight = height() - m_status->sizeHint().height() - legendHeight() - 40;
    MapResolution resolution;
    resolution.rows = std::uint32_t(std::clamp(imageHeight, 16, 128));
    resolution.cols = std::uint32_t(std::clamp(imageWidth, 16, 128));

    m_pass.start<ValueHeatmap>(
        this,
        [resolution](const BufferSource& a, const BufferSource& b, DType dtype,
                     const std::vector<std::uint64_t>& shape, const ScanProgressFn& progress) {
            return computeValueHeatmap(a, b, dtype, shape, resolution, progress);
        },
        [this, name](int percent) {
            m_status->setText(tr("Computing the heatmaps of %1… %2%").arg(name).arg(percent));
        },
        [this](std::shared_ptr<const ValueHeatmap> result) { finish(std::move(result)); });
}

void ValueHeatmapPanel::finish(std::shared_ptr<const ValueHeatmap> heat) {
    if (!heat->ok()) {
        showMessage(tr("No heatmaps: %1").arg(QString::fromStdString(heat->error)));
        emit heatmapReady();
        return;
    }
    m_loLog = heat->deltaHigh > 0 ? std::log10(heat->deltaLow) : 0;
    m_hiLog = heat->deltaHigh > 0 ? std::log10(heat->deltaHigh) : 0;
    m_heat = std::move(heat);
    const ValueHeatmap& h = *m_heat;
    for (QImage& image : m_images)
        image = QImage(int(h.gridCols), int(h.gridRows), QImage::Format_RGB32);
    for (quint32 r = 0; r < h.gridRows; ++r)
        for (quint32 c = 0; c < h.gridCols; ++c) {
            const HeatCell& cell = h.cell(r, c);
            m_images[SideA].setPixelColor(int(c), int(r), valueColor(cell.a.peak, h.peakLimit));
            m_images[SideB].setPixelColor(int(c), int(r), valueColor(cell.b.peak, h.peakLimit));
            m_images[Delta].setPixelColor(int(c), int(r), deltaColor(cell));
        }
    m_computing = false;
    m_status->setText(tr("%1: %2 rows × %3 columns, %4 × %5 elements per cell; each cell's value "
                         "of largest magnitude. Click a cell for its first difference.")
                          .arg(m_pass.name())
                          .arg(h.rows)
                          .arg(h.cols)
                          .arg(h.rowsPerCell)
                          .arg(h.colsPerCell));
    update();
    emit heatmapReady();
}

// The divergence map's colours, so that the |Δ| image reads like the map beside it.
QColor ValueHeatmapPanel::deltaColor(const HeatCell& cell) const {
    if (cell.nDiff == 0) return DivergenceMapPanel::equalColor();
    if (std::isnan(cell.maxAbsDelta) || std::isinf(cell.maxAbsDelta))
        return DivergenceMapPanel::nonFiniteColor();
    if (cell.maxAbsDelta <= 0) return DivergenceMapPanel::scaleColor(0); // ±0, NaN payloads
    if (m_hiLog <= m_loLog) return DivergenceMapPanel::scaleColor(1);
    return DivergenceMapPanel::scaleColor((std::log10(cell.maxAbsDelta) - m_loLog) /
                                          (m_hiLog - m_loLog));
}

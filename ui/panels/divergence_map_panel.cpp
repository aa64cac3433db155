#include "panels/divergence_map_panel.h"
#include "panels/buffer_pair_reason.h"

#include <QLabel>

#include <algorithm>
#include <cmath>

using namespace dumpscope;

DivergenceMapPanel::DivergenceMapPanel(QWidget* parent)
    : QWidget(parent), m_status(addMapStatus(this, QStringLiteral("divergenceMapStatus"))) {
    clear();
}

DivergenceMapPanel::~DivergenceMapPanel() = default;

void DivergenceMapPanel::clear() {
    setBuffer(nullptr, -1);
}

void DivergenceMapPanel::setMarkedElement(std::optional<quint64> element) {
    if (element == m_marked) return;
    m_marked = element;
    update();
}

void DivergenceMapPanel::setBuffer(std::shared_ptr<const Analysis> analysis, int bufferIndex) {
    const BufferResult* buffer = buffer_pair::find(analysis, bufferIndex);
    QString message = buffer_pair::noPairReason(analysis.get(), buffer);
    if (message.isEmpty() && buffer->stats.nDiff == 0)
        message = tr("No differences in this buffer.");
    if (!message.isEmpty()) {
        m_pass.forget();
        m_marked.reset();
        showMessage(message);
        emit mapReady();
        return;
    }
    // A newer snapshot of the same, unchanged pair keeps the map.
    if (!m_pass.take(*analysis, *buffer)) return;
    m_marked.reset();
    if (isVisible()) start();
}

void DivergenceMapPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_pass.waiting()) start();
}

void DivergenceMapPanel::showMessage(const QString& text) {
    m_map.reset();
    m_image = QImage();
    m_hoverText.clear();
    m_computing = false;
    m_status->setText(text);
    update();
}

void DivergenceMapPanel::start() {
    const QString name = m_pass.name();
    showMessage(tr("Computing the divergence map of %1…").arg(name));
    m_computing = true;
    // One cell per pixel or two at most: finer than the screen shows would only drop cells.
    const QRect room = rect().adjusted(60, m_status->sizeHint().height() + 30, -kLegendWidth, -30);
    MapResolution resolution;
    resolution.rows = std::uint32_t(std::clamp(room.height(), 16, 128));
    resolution.cols = std::uint32_t(std::clamp(room.width(), 16, 128));
    resolution.bins = std::uint32_t(std::clamp(room.width(), 16, 512));

    m_pass.start<DivergenceMap>(
        this,
        [resolution](const BufferSource& a, const BufferSource& b, DType dtype,
                     const std::vector<std::uint64_t>& shape, const ScanProgressFn& progress) {
            return computeDivergenceMap(a, b, dtype, shape, resolution, progress);
        },
        [this, name](int percent) {
            m_status->setText(tr("Computing the divergence map of %1… %2%").arg(name).arg(percent));
        },
        [this](std::shared_ptr<const DivergenceMap> result) { finish(std::move(result)); });
}

void DivergenceMapPanel::finish(std::shared_ptr<const DivergenceMap> map) {
    if (!map->ok()) {
        showMessage(tr("No map: %1").arg(QString::fromStdString(map->error)));
        emit mapReady();
        return;
    }
    // The colour scale runs from this map's smallest cell max|Δ| to its largest, in log10.
    double lo = INFINITY, hi = 0;
    for (const MapCell& c : map->cells)
        if (c.nDiff && c.maxAbsDelta > 0 && std::isfinite(c.maxAbsDelta)) {
            lo = std::min(lo, c.maxAbsDelta);
            hi = std::max(hi, c.maxAbsDelta);
        }
    m_loLog = std::isfinite(lo) ? std::log10(lo) : 0;
    m_hiLog = hi > 0 ? std::log10(hi) : 0;
    m_map = std::move(map);
    m_image = QImage(int(m_map->gridCols), int(m_map->gridRows), QImage::Format_RGB32);
    for (quint32 r = 0; r < m_map->gridRows; ++r)
        for (quint32 c = 0; c < m_map->gridCols; ++c)
            m_image.setPixelColor(int(c), int(r), cellColor(m_map->cell(r, c)));
    m_computing = false;

    const DivergenceMap& m = *m_map;
    QString shape;
    for (std::uint64_t d : m_pass.shape())
        shape += (shape.isEmpty() ? QString() : QStringLiteral(" × ")) + QString::number(d);
    QString layout = m.flat ? tr("flat, %1 elements in %2 bins of %3")
                                  .arg(m.cols)
                                  .arg(m.gridCols)
                                  .arg(m.colsPerCell)
                            : tr("%1 rows × %2 columns, %3 × %4 elements per cell")
                                  .arg(m.rows)
                                  .arg(m.cols)
                                  .arg(m.rowsPerCell)
                                  .arg(m.colsPerCell);
    if (m_pass.shape().size() > 2) layout = tr("[%1] read as %2").arg(shape, layout);
    m_status->setText(tr("%1: %2; %3 differ, max|Δ| %4. Click a cell for its first difference.")
                          .arg(m_pass.name(), layout)
                          .arg(m.total.nDiff)
                          .arg(QString::number(m.total.maxAbsDelta, 'g', 6)));
    update();
    emit mapReady();
}

#include "panels/divergence_map_panel.h"
#include "panels/buffer_pair_reason.h"
#include "workers/background_job.h"
#include "workers/pass_job.h"

#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

using namespace dumpscope;

struct DivergenceMapPanel::Job : BackgroundJob {};

DivergenceMapPanel::DivergenceMapPanel(QWidget* parent) : QWidget(parent), m_status(new QLabel) {
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText); // messages carry file names
    m_status->setObjectName(QStringLiteral("divergenceMapStatus"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_status);
    layout->addStretch(1);
    setMouseTracking(true);
    setMinimumHeight(160);
    clear();
}

DivergenceMapPanel::~DivergenceMapPanel() {
    stopAndJoinAll(m_jobs);
}

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
        m_key.clear();
        m_marked.reset();
        stopJobs();
        showMessage(message);
        emit mapReady();
        return;
    }
    // A newer snapshot of the same, unchanged pair keeps the map.
    const QString key = buffer_pair::key(*analysis, *buffer);
    if (key == m_key) return;
    m_key = key;
    m_marked.reset();
    m_name = QString::fromStdString(buffer->name);
    m_sourceA = sourceA(*analysis, *buffer);
    m_sourceB = sourceB(*analysis, *buffer);
    m_dtype = buffer->dtype;
    m_shape = buffer->shape;
    m_waiting = true;
    if (isVisible()) start();
}

void DivergenceMapPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_waiting) start();
}

void DivergenceMapPanel::showMessage(const QString& text) {
    m_map.reset();
    m_image = QImage();
    m_hoverText.clear();
    m_computing = false;
    m_waiting = false;
    m_status->setText(text);
    update();
}

void DivergenceMapPanel::stopJobs() {
    ++m_sequence; // whatever a running job still posts is stale from now on
    stopAll(m_jobs);
}

void DivergenceMapPanel::start() {
    stopJobs();
    reapExited(m_jobs);
    showMessage(tr("Computing the divergence map of %1…").arg(m_name));
    m_computing = true;
    // One cell per pixel or two at most: finer than the screen shows would only drop cells.
    const QRect room = rect().adjusted(60, m_status->sizeHint().height() + 30, -kLegendWidth, -30);
    MapResolution resolution;
    resolution.rows = std::uint32_t(std::clamp(room.height(), 16, 128));
    resolution.cols = std::uint32_t(std::clamp(room.width(), 16, 128));
    resolution.bins = std::uint32_t(std::clamp(room.width(), 16, 512));

    auto job = std::make_shared<Job>();
    const quint64 seq = m_sequence;
    startPassJob<DivergenceMap>(
        this, job,
        [a = m_sourceA, b = m_sourceB, dtype = m_dtype, shape = m_shape,
         resolution](const ScanProgressFn& progress) {
            return computeDivergenceMap(a, b, dtype, shape, resolution, progress);
        },
        [this, seq](int percent) {
            if (seq == m_sequence)
                m_status->setText(
                    tr("Computing the divergence map of %1… %2%").arg(m_name).arg(percent));
        },
        [this, seq](std::shared_ptr<const DivergenceMap> result) {
            if (seq == m_sequence) finish(std::move(result));
        });
    m_jobs.push_back(job);
}

void DivergenceMapPanel::finish(std::shared_ptr<const DivergenceMap> map) {
    reapExited(m_jobs);
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
    for (std::uint64_t d : m_shape)
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
    if (m_shape.size() > 2) layout = tr("[%1] read as %2").arg(shape, layout);
    m_status->setText(tr("%1: %2; %3 differ, max|Δ| %4. Click a cell for its first difference.")
                          .arg(m_name, layout)
                          .arg(m.total.nDiff)
                          .arg(QString::number(m.total.maxAbsDelta, 'g', 6)));
    update();
    emit mapReady();
}

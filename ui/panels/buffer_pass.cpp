#include "panels/buffer_pass.h"

#include "panels/buffer_pair_reason.h"

#include <QLabel>
#include <QVBoxLayout>
#include <QWidget>

BufferPass::~BufferPass() {
    stopAndJoinAll(m_jobs);
}

bool BufferPass::take(const dumpscope::Analysis& analysis, const dumpscope::BufferResult& buffer) {
    const QString key = buffer_pair::key(analysis, buffer);
    if (key == m_key) return false;
    m_key = key;
    m_name = QString::fromStdString(buffer.name);
    m_sourceA = dumpscope::sourceA(analysis, buffer);
    m_sourceB = dumpscope::sourceB(analysis, buffer);
    m_dtype = buffer.dtype;
    m_shape = buffer.shape;
    m_waiting = true;
    return true;
}

void BufferPass::forget() {
    m_key.clear();
    m_waiting = false;
    stop();
}

void BufferPass::stop() {
    ++m_sequence;
    stopAll(m_jobs);
}

QLabel* addMapStatus(QWidget* panel, const QString& objectName) {
    auto* status = new QLabel;
    status->setWordWrap(true);
    status->setTextFormat(Qt::PlainText);
    status->setObjectName(objectName);
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(status);
    layout->addStretch(1);
    panel->setMouseTracking(true);
    panel->setMinimumHeight(160);
    return status;
}

QRect gridCellRect(const QRect& area, quint32 rows, quint32 cols, quint32 row, quint32 col) {
    if (area.isEmpty() || row >= rows || col >= cols) return {};
    auto edge = [](quint64 i, int extent, quint32 cells) {
        return int((i * quint64(extent) + cells - 1) / cells);
    };
    const int x0 = edge(col, area.width(), cols), x1 = edge(col + 1, area.width(), cols);
    const int y0 = edge(row, area.height(), rows), y1 = edge(row + 1, area.height(), rows);
    return QRect(area.left() + x0, area.top() + y0, x1 - x0, y1 - y0);
}

std::optional<std::pair<quint32, quint32>> gridCellAt(const QRect& area, quint32 rows, quint32 cols,
                                                      const QPoint& pos) {
    if (area.isEmpty() || !area.contains(pos)) return std::nullopt;
    return std::pair{quint32(quint64(pos.y() - area.top()) * rows / quint64(area.height())),
                     quint32(quint64(pos.x() - area.left()) * cols / quint64(area.width()))};
}

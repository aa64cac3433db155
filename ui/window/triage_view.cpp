#include "window/triage_view.h"

#include "dumpscope/rank_view.h"

#include "models/buffer_list_model.h"
#include "models/buffer_search.h"
#include "models/matrix_model.h"
#include "panels/buffer_panel.h"
#include "panels/divergence_map_panel.h"
#include "panels/element_panel.h"
#include "panels/histogram_panel.h"
#include "panels/matrix_legend.h"
#include "panels/rank_panel.h"
#include "panels/value_heatmap_panel.h"
#include "panels/verdict_panel.h"
#include "widgets/matrix_view.h"

#include <QDataStream>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenu>
#include <QMetaObject>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace {

constexpr quint32 kStateMagic = 0x44535456; // "DSTV"

QWidget* titled(const QString& title, QWidget* content, QWidget* extra = nullptr) {
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()), box);
    layout->addWidget(label);
    layout->addWidget(content, 1);
    if (extra) layout->addWidget(extra);
    return box;
}

} // namespace

TriageView::TriageView(QWidget* parent)
    : QWidget(parent), m_matrixModel(new MatrixModel(this)), m_matrixView(new MatrixView),
      m_bufferPanel(new BufferPanel), m_bufferSearch(new BufferSearch),
      m_elementPanel(new ElementPanel), m_histogramPanel(new HistogramPanel),
      m_divergenceMapPanel(new DivergenceMapPanel), m_valueHeatmapPanel(new ValueHeatmapPanel),
      m_verdictPanel(new VerdictPanel), m_rankPanel(new RankPanel), m_turnTimer(new QTimer(this)) {
    // 1 ms, not 0: with a zero interval the next turn could run in the same pass of the event
    // loop, before a timer that was already due (TriageTurns' 1 ms tick then missed a turn).
    m_turnTimer->setSingleShot(true);
    m_turnTimer->setInterval(1);
    m_turnTimer->setTimerType(Qt::PreciseTimer);
    connect(m_turnTimer, &QTimer::timeout, this, &TriageView::nextTurn);
    m_matrixView->setObjectName(QStringLiteral("matrixView"));
    m_matrixView->setModel(m_matrixModel);

    auto* top = new QSplitter(Qt::Horizontal);
    auto* matrixWithRanks = new QWidget;
    auto* matrixLayout = new QVBoxLayout(matrixWithRanks);
    matrixLayout->setContentsMargins(0, 0, 0, 0);
    matrixLayout->setSpacing(2);
    matrixLayout->addWidget(m_rankPanel);
    matrixLayout->addWidget(m_matrixView, 1);
    QWidget* matrixPane = titled(tr("Steps × groups"), matrixWithRanks, new MatrixLegend);
    top->addWidget(matrixPane);
    auto* buffers = new QWidget;
    auto* buffersLayout = new QVBoxLayout(buffers);
    buffersLayout->setContentsMargins(0, 0, 0, 0);
    buffersLayout->setSpacing(2);
    buffersLayout->addWidget(m_bufferSearch);
    buffersLayout->addWidget(m_bufferPanel, 1);
    m_bufferSearch->setFilterTarget(m_bufferPanel->proxy(), BufferListModel::NameColumn);
    connect(m_bufferSearch, &QLineEdit::textChanged, m_bufferPanel, &BufferPanel::setFilterNote);
    QWidget* buffersPane = titled(tr("Buffers of the cell"), buffers);
    top->addWidget(buffersPane);

    auto* bottom = new QSplitter(Qt::Horizontal);
    QWidget* elementsPane = titled(tr("Elements"), m_elementPanel);
    bottom->addWidget(elementsPane);
    // Both describe the selected buffer's differences: one pane, two tabs.
    auto* details = new QTabWidget;
    details->setObjectName(QStringLiteral("bufferDetailTabs"));
    details->addTab(m_histogramPanel, tr("Δ histogram"));
    details->addTab(m_divergenceMapPanel, tr("Divergence map"));
    details->addTab(m_valueHeatmapPanel, tr("Heatmaps"));
    // A narrow pane scrolls its tabs rather than cutting their titles ("stogram").
    details->tabBar()->setElideMode(Qt::ElideNone);
    details->tabBar()->setUsesScrollButtons(true);
    bottom->addWidget(details);

    auto* main = new QSplitter(Qt::Vertical);
    main->addWidget(top);
    main->addWidget(bottom);

    auto* outer = new QSplitter(Qt::Horizontal);
    outer->addWidget(main);
    QWidget* verdictPane = titled(tr("Verdict"), m_verdictPanel);
    outer->addWidget(verdictPane);
    // A smaller window takes from both sides, two parts from the panes to one from the verdict.
    outer->setStretchFactor(0, 2);
    outer->setStretchFactor(1, 1);
    m_splitters = {outer, main, top, bottom};
    for (QSplitter* s : m_splitters)
        s->setChildrenCollapsible(false);
    m_panes = {{tr("Matrix"), matrixPane},
               {tr("Buffers of the Cell"), buffersPane},
               {tr("Elements"), elementsPane},
               {tr("Histogram, Divergence Map and Heatmaps"), details},
               {tr("Verdict"), verdictPane}};
    // The least each pane needs to stay usable: a few matrix columns, a buffer name with its
    // counts, a few element columns, a chart, the verdict's headline. Together they fit a
    // 1024 × 700 window; the splitters never squeeze a pane below them.
    const QFontMetrics fm = fontMetrics();
    const int em = fm.horizontalAdvance(QLatin1Char('M'));
    const auto atLeast = [](QWidget* pane, int width, int height) {
        // Never below what the pane's own controls need to show their words whole.
        pane->setMinimumSize(pane->minimumSizeHint().expandedTo(QSize(width, height)));
    };
    atLeast(matrixPane, 14 * em, 8 * fm.height());
    atLeast(buffersPane, 22 * em, 8 * fm.height());
    atLeast(elementsPane, 24 * em, 10 * fm.height());
    atLeast(details, 18 * em, 10 * fm.height());
    atLeast(verdictPane, 20 * em, 10 * fm.height());
    applyDefaultSizes();

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(outer);

    connect(m_matrixView, &MatrixView::cellChanged, this, &TriageView::showCell);
    m_matrixView->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_matrixView->horizontalHeader(), &QWidget::customContextMenuRequested, this,
            [this](const QPoint& at) {
                QMenu* menu = groupMenu(m_matrixView->horizontalHeader()->logicalIndexAt(at));
                if (menu->isEmpty()) {
                    delete menu;
                    return;
                }
                menu->setAttribute(Qt::WA_DeleteOnClose);
                menu->popup(m_matrixView->horizontalHeader()->mapToGlobal(at));
            });
    connect(m_bufferPanel, &BufferPanel::bufferSelected, this, &TriageView::showBuffer);
    connect(m_bufferSearch, &BufferSearch::bufferChosen, this, &TriageView::findBuffer);
    // Enter drills down: matrix -> buffer list -> element table, all from the keyboard.
    connect(m_matrixView, &QAbstractItemView::activated, this,
            [this] { m_bufferPanel->view()->setFocus(Qt::OtherFocusReason); });
    connect(m_bufferPanel->view(), &QAbstractItemView::activated, this,
            [this] { m_elementPanel->view()->setFocus(Qt::OtherFocusReason); });
    connect(m_histogramPanel, &HistogramPanel::deltaDecadeClicked, m_elementPanel,
            &ElementPanel::filterToDeltaDecade);
    connect(m_histogramPanel, &HistogramPanel::ulpBinClicked, m_elementPanel,
            &ElementPanel::filterToUlpBin);
    connect(m_elementPanel, &ElementPanel::rangeFilterCleared, m_histogramPanel,
            &HistogramPanel::clearSelectedBar);
    connect(m_divergenceMapPanel, &DivergenceMapPanel::elementClicked, m_elementPanel,
            &ElementPanel::showElement);
    connect(m_valueHeatmapPanel, &ValueHeatmapPanel::elementClicked, m_elementPanel,
            &ElementPanel::showElement);
    connect(m_divergenceMapPanel, &DivergenceMapPanel::elementClicked, this,
            [this](quint64 e) { markElement(e); });
    connect(m_valueHeatmapPanel, &ValueHeatmapPanel::elementClicked, this,
            [this](quint64 e) { markElement(e); });
    // The element table's current row is the current element. Read once the table has placed
    // it (queued): its own handler of the same signal, and a jump's placing, come first.
    connect(m_elementPanel->view()->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this] {
                QMetaObject::invokeMethod(
                    this, [this] { markElement(m_elementPanel->currentElement()); },
                    Qt::QueuedConnection);
            });
    // The element table's "show in the divergence map": that tab, with the element's block
    // outlined.
    connect(m_elementPanel, &ElementPanel::elementShown, this, [this, details](quint64 element) {
        details->setCurrentWidget(m_divergenceMapPanel);
        markElement(element);
    });
    // Another rank: the same snapshot again, seen from that rank; the cell is kept by name.
    connect(m_rankPanel, &RankPanel::rankChanged, this, [this] {
        if (m_allRanks) setSnapshot(m_allRanks);
    });
    connect(m_rankPanel, &RankPanel::stepChosen, this, [this](quint64 step) {
        QString group;
        if (const auto* cell = m_matrixModel->cell(m_matrixView->currentIndex()))
            group = QString::fromStdString(cell->group);
        if (!group.isEmpty() && selectCell(step, group)) return;
        // Else the step's first divergent cell, or its first cell.
        if (!m_snapshot || !m_snapshot->analysis) return;
        for (const auto& row : m_snapshot->analysis->matrix) {
            if (row.step != step || row.cells.empty()) continue;
            const auto divergent = std::find_if(row.cells.begin(), row.cells.end(),
                                                [](const auto& c) { return c.nDivergent > 0; });
            selectCell(step, QString::fromStdString(
                                 (divergent != row.cells.end() ? *divergent : row.cells[0]).group));
            return;
        }
    });
    connect(m_verdictPanel, &VerdictPanel::rootCauseActivated, this,
            [this](quint64 step, const QString& group, const QString& buffer) {
                selectCell(step, group, buffer);
            });
}

void TriageView::markElement(std::optional<quint64> element) {
    m_divergenceMapPanel->setMarkedElement(element);
    m_valueHeatmapPanel->setMarkedElement(element);
}

void TriageView::setSnapshot(SnapshotPtr snapshot, Pace pace, std::function<void()> shown) {
    completePendingTurns();
    const bool wasFinished = m_snapshot && m_snapshot->finished;
    // Where the user is, by name: a matrix that grows (a watched run dumped a new step) resets
    // its model, and the same cell and buffer are selected again afterwards.
    quint64 keptStep = 0;
    QString keptGroup, keptBuffer;
    if (const QModelIndex current = m_matrixView->currentIndex(); current.isValid() && m_snapshot) {
        keptStep = current.data(MatrixModel::StepRole).toULongLong();
        if (const auto* cell = m_matrixModel->cell(current))
            keptGroup = QString::fromStdString(cell->group);
        const auto& buffers = m_snapshot->analysis->buffers;
        if (const int b = m_bufferPanel->selectedBuffer(); b >= 0 && b < int(buffers.size()))
            keptBuffer = QString::fromStdString(buffers[b].name);
    }
    m_allRanks = snapshot;
    m_rankPanel->setSnapshot(snapshot.get());
    m_snapshot = shownOf(snapshot);
    m_matrixModel->setSnapshot(m_snapshot);
    if (!keptGroup.isEmpty() && !m_matrixView->currentIndex().isValid())
        selectCell(keptStep, keptGroup, keptBuffer);
    m_verdictPanel->setSnapshot(m_snapshot);
    m_bufferSearch->setSnapshot(m_snapshot);
    const bool nowFinished = m_snapshot && m_snapshot->finished && !wasFinished;
    if (pace == Pace::inTurns && nowFinished) {
        m_shownCallback = std::move(shown);
        m_nextTurn = Turn::cell;
        m_turnTimer->start();
        return;
    }
    refreshCell(nowFinished);
    refreshBuffer(nowFinished);
    if (shown) shown();
}

SnapshotPtr TriageView::shownOf(const SnapshotPtr& snapshot) const {
    const auto rank = m_rankPanel->rank();
    if (!snapshot || !snapshot->analysis || !rank) return snapshot;
    auto view = std::make_shared<AnalysisSnapshot>(*snapshot);
    view->analysis = std::make_shared<const dumpscope::Analysis>(
        dumpscope::rankView(*snapshot->analysis, *rank));
    // Its buffers are numbered anew: nothing is known of what changed since the last one.
    view->serial = 0;
    view->planSerial = 0;
    view->changes.reset();
    view->bufferNames.reset();  // the rank's own, listed from its view
    view->rankOverview.reset(); // every rank's, not the view's
    return view;
}

void TriageView::refreshCell(bool finishedNow) {
    // Unless the user picked a cell meanwhile, a finished analysis opens on its root cause.
    if (finishedNow && !m_matrixView->userNavigated())
        selectDefaultCell();
    else if (const QModelIndex current = m_matrixView->currentIndex(); current.isValid())
        showCell(current);
}

void TriageView::refreshBuffer(bool finishedNow) {
    // The element table and histograms show a buffer once it is compared; the final snapshot
    // replaces the progress copy they were given.
    const int selected = m_bufferPanel->selectedBuffer();
    if (selected >= 0 && (selected != m_shownBuffer || finishedNow)) showBuffer(selected);
}

void TriageView::nextTurn() {
    switch (m_nextTurn) {
    case Turn::none:
        return;
    case Turn::cell:
        m_holdDetails = true;
        refreshCell(true);
        m_holdDetails = false;
        m_nextTurn = Turn::buffer;
        m_turnTimer->start();
        return;
    case Turn::buffer:
        m_nextTurn = Turn::none;
        refreshBuffer(true);
        if (auto shown = std::exchange(m_shownCallback, {})) shown();
        return;
    }
}

void TriageView::completePendingTurns() {
    while (m_nextTurn != Turn::none)
        nextTurn();
    m_turnTimer->stop();
}

void TriageView::clear() {
    completePendingTurns();
    m_snapshot.reset();
    m_allRanks.reset();
    m_rankPanel->setRank(std::nullopt);
    m_rankPanel->setSnapshot(nullptr);
    m_shownBuffer = -1;
    m_shownAnalysis.reset();
    m_matrixView->resetUserNavigated();
    m_matrixModel->clear();
    m_bufferPanel->clear();
    m_bufferSearch->clear();
    m_bufferSearch->setSnapshot(nullptr);
    m_elementPanel->clear();
    m_histogramPanel->clear();
    m_divergenceMapPanel->clear();
    m_valueHeatmapPanel->clear();
    m_verdictPanel->clear();
}

// Opens where the engineer would look first: the root buffer (the first source, in its group's
// cell at the root cause's step), else the input that kept it from being determined, else the
// first cell.
void TriageView::selectDefaultCell() {
    const auto& verdict = m_snapshot->analysis->verdict;
    const auto& cause = verdict.rootCause;
    if (cause.step && !cause.sources.empty()) {
        const auto& root = cause.sources.front();
        if (selectCell(*cause.step, QString::fromStdString(root.group),
                       QString::fromStdString(root.buffer)))
            return;
    }
    if (cause.step && !cause.groups.empty()) {
        const QString buffer =
            cause.buffers.empty() ? QString() : QString::fromStdString(cause.buffers.front());
        if (selectCell(*cause.step, QString::fromStdString(cause.groups.front()), buffer)) return;
    }
    // No group could be blamed past an input that was not judged: that input is where to look.
    if (cause.step && cause.groups.empty() && !cause.unjudgedInputs.empty())
        for (const auto& row : verdict.culprits)
            if (row.group == cause.unjudgedInputs.front() && !row.unjudged.empty() &&
                selectCell(*cause.step, QString::fromStdString(row.group),
                           QString::fromStdString(row.unjudged.front().name)))
                return;
    if (m_matrixModel->rowCount() > 0 && m_matrixModel->columnCount() > 0)
        setCurrentCell(m_matrixModel->index(0, 0));
}

// Like setCurrentIndex, but refreshes the buffer list even when the cell is already current
// (its snapshot may have changed).
void TriageView::setCurrentCell(const QModelIndex& index) {
    if (m_matrixView->currentIndex() == index)
        showCell(index);
    else
        m_matrixView->setCurrentIndex(index);
    m_matrixView->scrollTo(index);
}

bool TriageView::selectCell(quint64 step, const QString& group, const QString& buffer) {
    const QModelIndex index = m_matrixModel->indexOf(step, group.toStdString());
    if (!index.isValid()) return false;
    setCurrentCell(index);
    // A buffer hidden by the search field's filter is shown by clearing the filter.
    if (!buffer.isEmpty() && !m_bufferPanel->selectBuffer(buffer) &&
        !m_bufferSearch->text().isEmpty()) {
        m_bufferSearch->clear();
        m_bufferPanel->selectBuffer(buffer);
    }
    return true;
}

bool TriageView::findBuffer(const QString& text) {
    if (!m_snapshot) return false;
    std::optional<quint64> currentStep;
    if (const QModelIndex current = m_matrixView->currentIndex(); current.isValid())
        currentStep = current.data(MatrixModel::StepRole).toULongLong();
    const auto where = locateBuffer(*m_snapshot->analysis, text, currentStep);
    return where && selectCell(where->step, where->group, where->name);
}

void TriageView::showCell(const QModelIndex& index) {
    const dumpscope::GroupCell* cell = m_matrixModel->cell(index);
    if (!cell) {
        m_bufferPanel->clear();
        return;
    }
    const QString title =
        tr("Step %1 · %2: %3 of %4 buffers diverge")
            .arg(index.data(MatrixModel::StepRole).toULongLong())
            .arg(m_matrixModel->headerData(index.column(), Qt::Horizontal, Qt::ToolTipRole)
                     .toString())
            .arg(cell->nDivergent)
            .arg(cell->buffers.size());
    m_bufferPanel->setCell(m_snapshot, title, cell->buffers);
    // A fresh cell with nothing selected yet: show its first buffer's elements right away.
    if (m_bufferPanel->selectedBuffer() < 0 && !cell->buffers.empty()) {
        auto* view = m_bufferPanel->view();
        view->setCurrentIndex(view->model()->index(0, 0));
    }
}

void TriageView::showBuffer(int bufferIndex) {
    if (m_holdDetails) return; // the buffer's own turn shows it
    if (bufferIndex < 0 || !m_snapshot || !m_snapshot->isDone(bufferIndex)) {
        m_shownBuffer = -1;
        m_shownAnalysis.reset();
        m_elementPanel->clear();
        m_histogramPanel->clear();
        m_divergenceMapPanel->clear();
        m_valueHeatmapPanel->clear();
        return;
    }
    // Selection and snapshot paths may both ask for the same buffer; index it once.
    if (bufferIndex == m_shownBuffer && m_shownAnalysis == m_snapshot->analysis) return;
    m_shownBuffer = bufferIndex;
    m_shownAnalysis = m_snapshot->analysis;
    m_elementPanel->setBuffer(m_snapshot->analysis, bufferIndex);
    m_histogramPanel->setBuffer(m_snapshot->analysis, bufferIndex);
    m_divergenceMapPanel->setBuffer(m_snapshot->analysis, bufferIndex);
    m_valueHeatmapPanel->setBuffer(m_snapshot->analysis, bufferIndex);
}

// Proportions for the default 1500 × 950 window, scaled by the splitters to any other size.
void TriageView::applyDefaultSizes() {
    m_splitters[0]->setSizes({1010, 480}); // outer: the panes, the verdict
    m_splitters[1]->setSizes({330, 560});  // main: top row, bottom row
    m_splitters[2]->setSizes({330, 680});  // the buffer list needs the width, the matrix the height
    m_splitters[3]->setSizes({620, 390});  // elements, histogram and map
}

void TriageView::resetLayout() {
    for (const Pane& pane : m_panes)
        pane.widget->show();
    applyDefaultSizes();
    emit layoutReset();
}

QByteArray TriageView::saveState() const {
    QByteArray state;
    QDataStream out(&state, QIODevice::WriteOnly);
    out << kStateMagic << static_cast<quint32>(m_splitters.size());
    for (const QSplitter* s : m_splitters)
        out << s->saveState();
    return state;
}

bool TriageView::restoreState(const QByteArray& state) {
    QDataStream in(state);
    quint32 magic = 0, count = 0;
    in >> magic >> count;
    if (magic != kStateMagic || count != static_cast<quint32>(m_splitters.size())) return false;
    for (QSplitter* s : m_splitters) {
        QByteArray one;
        in >> one;
        s->restoreState(one);
    }
    return in.status() == QDataStream::Ok;
}

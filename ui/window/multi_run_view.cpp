#include "window/multi_run_view.h"

#include "models/matrix_model.h"
#include "models/multi_summary_model.h"
#include "panels/matrix_legend.h"
#include "widgets/matrix_view.h"
#include "workers/analysis_worker.h"

#include "dumpscope/multi_report.h"

#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

struct MultiRunView::Column {
    QWidget* box = nullptr;
    QLabel* title = nullptr;
    MatrixModel* model = nullptr;
    MatrixView* view = nullptr;
    AnalysisWorker* worker = nullptr;
    SnapshotPtr snapshot;
    bool ended = false; // finished, failed or cancelled
};

MultiRunView::MultiRunView(QWidget* parent)
    : QWidget(parent), m_matrices(new QWidget), m_matrixLayout(new QHBoxLayout(m_matrices)),
      m_summaryModel(new MultiSummaryModel(this)), m_summaryView(new QTableView),
      m_floorText(new QLabel) {
    m_matrixLayout->setContentsMargins(2, 2, 2, 2);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setWidget(m_matrices);

    auto* top = new QWidget;
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(new QLabel(tr("<b>The base against each candidate</b> — double-click a "
                                       "cell to open that pair in the triage view")));
    topLayout->addWidget(scroll, 1);
    topLayout->addWidget(new MatrixLegend);

    m_summaryView->setObjectName(QStringLiteral("multiSummaryView"));
    m_summaryView->setModel(m_summaryModel);
    m_summaryView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_summaryView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_summaryView->verticalHeader()->hide();
    m_summaryView->horizontalHeader()->setStretchLastSection(true);
    m_floorText->setObjectName(QStringLiteral("noiseFloorText"));
    m_floorText->setWordWrap(true);
    m_floorText->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* bottom = new QWidget;
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(new QLabel(tr("<b>Which candidate diverges first where</b>")));
    bottomLayout->addWidget(m_summaryView, 1);
    bottomLayout->addWidget(m_floorText);

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(top);
    split->addWidget(bottom);
    split->setSizes({560, 300});
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(split);

    // A summary row opens its candidate's pair where it first diverges.
    connect(m_summaryView, &QAbstractItemView::activated, this, [this](const QModelIndex& index) {
        const int k = index.data(MultiSummaryModel::CandidateRole).toInt();
        const auto cause =
            snapshot(k) ? snapshot(k)->analysis->verdict.rootCause : dumpscope::RootCause{};
        emit pairActivated(k, cause.step.value_or(0),
                           cause.groups.empty() ? QString()
                                                : QString::fromStdString(cause.groups.front()));
    });
}

// The workers go first: their threads may still be reading the runs.
MultiRunView::~MultiRunView() {
    for (auto& c : m_columns)
        delete c.worker;
}

int MultiRunView::candidateCount() const {
    return static_cast<int>(m_columns.size());
}

MatrixModel* MultiRunView::matrixModel(int k) const {
    return k >= 0 && k < candidateCount() ? m_columns[static_cast<std::size_t>(k)].model : nullptr;
}

MatrixView* MultiRunView::matrixView(int k) const {
    return k >= 0 && k < candidateCount() ? m_columns[static_cast<std::size_t>(k)].view : nullptr;
}

SnapshotPtr MultiRunView::snapshot(int k) const {
    return k >= 0 && k < candidateCount() ? m_columns[static_cast<std::size_t>(k)].snapshot
                                          : nullptr;
}

bool MultiRunView::isRunning() const {
    return std::any_of(m_columns.begin(), m_columns.end(),
                       [](const Column& c) { return c.worker->isRunning(); });
}

bool MultiRunView::isFinished() const {
    return !m_columns.empty() &&
           std::all_of(m_columns.begin(), m_columns.end(), [](const Column& c) { return c.ended; });
}

void MultiRunView::clear() {
    for (auto& c : m_columns) {
        delete c.worker;
        delete c.box;
    }
    m_columns.clear();
    m_next = 0;
    m_cancelled = false;
    m_base.clear();
    m_candidates.clear();
    m_summaryModel->clear();
    m_floorText->clear();
}

void MultiRunView::open(const QString& base, const QStringList& candidates,
                        const AnalysisRequest& settings) {
    clear();
    m_base = base;
    m_candidates = candidates;
    m_settings = settings;
    for (int k = 0; k < candidates.size(); ++k) {
        Column c;
        c.box = new QWidget;
        auto* layout = new QVBoxLayout(c.box);
        layout->setContentsMargins(2, 2, 2, 2);
        c.title = new QLabel;
        c.title->setWordWrap(true);
        c.model = new MatrixModel(c.box);
        c.view = new MatrixView;
        c.view->setObjectName(QStringLiteral("candidateMatrix%1").arg(k + 1));
        c.view->setModel(c.model);
        c.view->setMinimumWidth(260);
        layout->addWidget(c.title);
        layout->addWidget(c.view, 1);
        m_matrixLayout->addWidget(c.box, 1);
        connect(c.view, &QAbstractItemView::activated, this, [this, k](const QModelIndex& index) {
            emit pairActivated(k, index.data(MatrixModel::StepRole).toULongLong(),
                               index.data(MatrixModel::GroupRole).toString());
        });
        c.worker = new AnalysisWorker;
        auto shown = [this, k](quint64, SnapshotPtr s) { show(k, std::move(s)); };
        connect(c.worker, &AnalysisWorker::planned, this, shown);
        connect(c.worker, &AnalysisWorker::progressed, this, shown);
        connect(c.worker, &AnalysisWorker::finished, this, [this, k](quint64, SnapshotPtr s) {
            show(k, std::move(s));
            pairEnded(k, {});
        });
        connect(c.worker, &AnalysisWorker::failed, this,
                [this, k](quint64, const QString& message) { pairEnded(k, message); });
        connect(c.worker, &AnalysisWorker::cancelled, this,
                [this, k] { pairEnded(k, tr("cancelled")); });
        // Until its turn, a pair shows its two runs and nothing compared.
        auto placeholder = std::make_shared<dumpscope::Analysis>();
        placeholder->runA = base.toStdString();
        placeholder->runB = candidates[k].toStdString();
        auto s = std::make_shared<AnalysisSnapshot>();
        s->analysis = std::move(placeholder);
        c.snapshot = std::move(s);
        m_columns.push_back(std::move(c));
        show(k, m_columns.back().snapshot);
    }
    startNext();
}

void MultiRunView::startNext() {
    if (m_cancelled || m_next >= candidateCount()) return;
    const int k = m_next++;
    AnalysisRequest request = m_settings;
    request.runA = m_base;
    request.runB = m_candidates[k];
    m_columns[static_cast<std::size_t>(k)].worker->start(request);
}

void MultiRunView::cancel() {
    m_cancelled = true;
    for (auto& c : m_columns)
        c.worker->cancel();
}

void MultiRunView::show(int k, SnapshotPtr snapshot) {
    Column& c = m_columns[static_cast<std::size_t>(k)];
    c.snapshot = std::move(snapshot);
    c.model->setSnapshot(c.snapshot);
    const auto& verdict = c.snapshot->analysis->verdict;
    QString state = tr("waiting");
    if (c.snapshot->finished)
        state = verdict.firstDivergentStep
                    ? tr("first divergence at step %1").arg(*verdict.firstDivergentStep)
                    : tr("exit code %1").arg(verdict.exitCode);
    else if (c.snapshot->total > 0)
        state = tr("comparing %1 / %2 buffers").arg(c.snapshot->nDone).arg(c.snapshot->total);
    c.title->setText(
        tr("<b>Candidate %1</b>%2: %3<br>%4")
            .arg(k + 1)
            .arg(k == 0 && candidateCount() > 1 ? tr(" (noise floor)") : QString())
            .arg(QDir::toNativeSeparators(m_candidates[k]).toHtmlEscaped(), state.toHtmlEscaped()));
    std::vector<SnapshotPtr> all;
    for (const auto& col : m_columns)
        all.push_back(col.snapshot);
    m_summaryModel->setSnapshots(std::move(all));
    updateFloorText();
}

void MultiRunView::pairEnded(int k, const QString& message) {
    Column& c = m_columns[static_cast<std::size_t>(k)];
    c.ended = true;
    if (!message.isEmpty())
        c.title->setText(tr("<b>Candidate %1</b>: %2<br>not compared: %3")
                             .arg(k + 1)
                             .arg(QDir::toNativeSeparators(m_candidates[k]).toHtmlEscaped(),
                                  message.toHtmlEscaped()));
    startNext();
    if (isFinished()) {
        updateFloorText();
        emit finished();
    }
}

void MultiRunView::updateFloorText() {
    const auto& summary = m_summaryModel->summary();
    if (!m_summaryModel->allFinished() || summary.againstFloor.empty()) {
        m_floorText->clear();
        return;
    }
    QString text = QStringLiteral("<b>%1</b>")
                       .arg(tr("Against the noise floor (%1):")
                                .arg(QString::fromStdString(dumpscope::noiseFloorIntro(summary))
                                         .toHtmlEscaped()));
    for (const auto& f : summary.againstFloor)
        text += QStringLiteral("<br>• <i>%1</i>: %2")
                    .arg(QString::fromUtf8(dumpscope::floorReadingName(f.reading).data()),
                         QString::fromStdString(f.text).toHtmlEscaped());
    m_floorText->setText(text);
}

#include "panels/element_panel.h"

#include "panels/buffer_pair_reason.h"

#include "models/element_table_model.h"
#include "panels/histogram_panel.h"
#include "widgets/differing_suffix_delegate.h"
#include "workers/background_job.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QScrollBar>
#include <QShortcut>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

using namespace dumpscope;

ElementPanel::ElementPanel(QWidget* parent)
    : QWidget(parent), m_model(new ElementTableModel(this)), m_view(new QTableView),
      m_scroll(new QScrollBar(Qt::Vertical)), m_onlyDiffering(new QCheckBox), m_goTo(new QLineEdit),
      m_previous(new QToolButton), m_next(new QToolButton), m_copy(new QToolButton),
      m_export(new QToolButton), m_filterBar(new QWidget), m_filterLabel(new QLabel),
      m_status(new QLabel) {
    m_onlyDiffering->setText(tr("Only differing"));
    m_onlyDiffering->setToolTip(tr("List only the elements whose bits differ"));
    m_goTo->setObjectName(QStringLiteral("goToIndex"));
    m_goTo->setPlaceholderText(tr("Go to index"));
    m_goTo->setToolTip(tr("An element index as the table shows it: (31, 8), 31, 8 or 31 8 for a "
                          "shaped buffer, or a flat index"));
    m_goTo->setValidator(new QRegularExpressionValidator(
        QRegularExpression(QStringLiteral("[0-9,() \\t]{0,80}")), m_goTo));
    // Wide enough for a two-dimensional index of a large buffer, whatever the window's width.
    m_goTo->setMinimumWidth(
        m_goTo->fontMetrics().horizontalAdvance(QStringLiteral("(000000, 00000)")) + 16);
    m_goTo->setMaximumWidth(m_goTo->minimumWidth() * 3 / 2);
    m_previous->setText(tr("◀"));
    m_previous->setToolTip(tr("Previous difference (Shift+N)"));
    m_next->setText(tr("▶"));
    m_next->setToolTip(tr("Next difference (N)"));
    m_copy->setText(tr("Copy"));
    m_copy->setToolTip(
        tr("Copy the selected rows as tab-separated text, with the column titles (Ctrl+C)"));
    m_export->setText(tr("CSV…"));
    m_export->setToolTip(tr("Save the differing elements as CSV"));

    auto* tools = new QHBoxLayout;
    tools->setContentsMargins(0, 0, 0, 0);
    tools->addWidget(m_onlyDiffering);
    tools->addWidget(m_goTo);
    tools->addWidget(m_previous);
    tools->addWidget(m_next);
    tools->addStretch(1);
    tools->addWidget(m_copy);
    tools->addWidget(m_export);

    auto* clearFilter = new QToolButton;
    clearFilter->setText(tr("Clear filter"));
    auto* filterLayout = new QHBoxLayout(m_filterBar);
    filterLayout->setContentsMargins(0, 0, 0, 0);
    filterLayout->addWidget(m_filterLabel, 1);
    filterLayout->addWidget(clearFilter);
    m_filterBar->hide();

    m_view->setModel(m_model);
    m_view->setObjectName(QStringLiteral("elementTable"));
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_view->setWordWrap(false);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    // Tab moves on to the next control instead of from cell to cell.
    m_view->setTabKeyNavigation(false);
    // Values are never elided: columns fit what the rows show (fitColumns), A beside B and A's
    // bits beside B's, with the digits that differ marked; spare width stays at the right.
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->setTextElideMode(Qt::ElideNone);
    auto* suffixes = new DifferingSuffixDelegate(m_view);
    suffixes->pairColumns(ElementTableModel::AColumn, ElementTableModel::BColumn);
    suffixes->pairColumns(ElementTableModel::ABitsColumn, ElementTableModel::BBitsColumn);
    m_view->setItemDelegate(suffixes);
    m_view->viewport()->installEventFilter(this);
    m_view->installEventFilter(this);

    auto* tableRow = new QHBoxLayout;
    tableRow->setContentsMargins(0, 0, 0, 0);
    tableRow->setSpacing(0);
    tableRow->addWidget(m_view, 1);
    tableRow->addWidget(m_scroll);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(tools);
    layout->addWidget(m_filterBar);
    layout->addWidget(setUpOrdering());
    layout->addLayout(tableRow, 1);
    layout->addWidget(m_status);

    // Shortcuts live on the panel, not the window: N elsewhere in the window is not ours.
    auto shortcut = [this](QKeySequence keys, void (ElementPanel::*slot)()) {
        auto* s = new QShortcut(keys, this, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
        connect(s, &QShortcut::activated, this, slot);
    };
    shortcut(QKeySequence(Qt::Key_N), &ElementPanel::nextDifference);
    shortcut(QKeySequence(Qt::SHIFT | Qt::Key_N), &ElementPanel::previousDifference);
    shortcut(QKeySequence::Copy, &ElementPanel::copySelection);
    connect(m_copy, &QToolButton::clicked, this, &ElementPanel::copySelection);
    connect(m_view, &QWidget::customContextMenuRequested, this, &ElementPanel::showContextMenu);
    connect(m_next, &QToolButton::clicked, this, &ElementPanel::nextDifference);
    connect(m_previous, &QToolButton::clicked, this, &ElementPanel::previousDifference);
    connect(m_export, &QToolButton::clicked, this, &ElementPanel::chooseExportFile);
    connect(clearFilter, &QToolButton::clicked, this, &ElementPanel::clearRangeFilter);
    connect(m_onlyDiffering, &QCheckBox::toggled, this, [this] { applyMode(); });
    connect(m_goTo, &QLineEdit::returnPressed, this, [this] { goToText(m_goTo->text()); });
    connect(m_model, &QAbstractItemModel::dataChanged, this, [this] { fitColumns(false); });
    connect(m_model, &QAbstractItemModel::rowsInserted, this, [this] { fitColumns(false); });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] { fitColumns(false); });
    connect(m_scroll, &QScrollBar::valueChanged, this,
            [this](int value) { setFirstRow(quint64(value) * m_scrollStep); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) {
                if (m_placing || !current.isValid()) return;
                m_current = m_model->elementAt(current.row());
            });
    updateControls();
}

void ElementPanel::setNavigationShortcutsEnabled(bool enabled) {
    const QKeySequence next(Qt::Key_N), previous(Qt::SHIFT | Qt::Key_N);
    for (QShortcut* s : findChildren<QShortcut*>(Qt::FindDirectChildrenOnly))
        if (s->key() == next || s->key() == previous) s->setEnabled(enabled);
}

struct ElementPanel::IndexJob : BackgroundJob {};

ElementPanel::~ElementPanel() {
    // A scan stops within one chunk; joining keeps every worker from outliving the panel.
    stopAndJoinAll(m_jobs);
}

void ElementPanel::stopJob(JobPtr& job) {
    if (job) job->stop = true;
    job.reset();
}

void ElementPanel::clear() {
    setBuffer(nullptr, -1);
}

void ElementPanel::setBuffer(std::shared_ptr<const Analysis> analysis, int bufferIndex) {
    const BufferResult* buffer = nullptr;
    if (analysis && bufferIndex >= 0 && std::size_t(bufferIndex) < analysis->buffers.size())
        buffer = &analysis->buffers[std::size_t(bufferIndex)];
    // Before the shortcut below: a re-analysis with a typed shape changes only the indices.
    m_model->setShape(buffer ? buffer->shape : std::vector<std::uint64_t>{});
    // A newer snapshot of the same, unchanged pair keeps the table, its index and position.
    if (buffer && m_analysis && m_bufferIndex >= 0) {
        const BufferResult& old = m_analysis->buffers[std::size_t(m_bufferIndex)];
        if (analysis->runA == m_analysis->runA && analysis->runB == m_analysis->runB &&
            buffer->fileName == old.fileName && buffer->rank == old.rank &&
            buffer->name == old.name && buffer->dtype == old.dtype &&
            buffer->status == old.status && buffer->stats.nA == old.stats.nA &&
            buffer->stats.nB == old.stats.nB && buffer->stats.hashA == old.stats.hashA &&
            buffer->stats.hashB == old.stats.hashB) {
            m_analysis = std::move(analysis);
            m_bufferIndex = bufferIndex;
            return;
        }
    }

    stopJob(m_indexJob);
    stopJob(m_rangeJob);
    resetOrder(); // a sort is of one buffer's differences: the next one opens in index order
    syncSortIndicator();
    ++m_diffSequence;
    ++m_rangeSequence;
    m_diffs.reset();
    m_rangeIndex.reset();
    m_rangeFilter.reset();
    m_current.reset();
    m_a.reset();
    m_b.reset();
    m_analysis = buffer ? std::move(analysis) : nullptr;
    m_bufferIndex = buffer ? bufferIndex : -1;
    m_status->clear();

    QStringList errors;
    // Compared by fingerprints: no side is opened (a fingerprint's path is the log).
    if (buffer && !hasElementData(*buffer))
        errors << buffer_pair::noElementData(*m_analysis, *buffer);
    else if (buffer) {
        auto open = [&](const BufferSource& side) {
            std::shared_ptr<BufferView> view;
            if (!side.present()) return view;
            view = std::make_shared<BufferView>();
            if (!view->open(side, buffer->dtype)) {
                errors << QString::fromStdString(view->error());
                view.reset();
            }
            return view;
        };
        m_a = open(sourceA(*m_analysis, *buffer));
        m_b = open(sourceB(*m_analysis, *buffer));
    }
    m_model->setSource(m_a, m_b);
    m_filterBar->hide();

    if (m_a && m_b) {
        // A compared, equal pair has nothing to scan for; anything else (pending included) is
        // scanned, since the index is the table's own truth about which rows differ.
        if (!buffer->pending && buffer->status == Status::equal && buffer->stats.nDiff == 0) {
            m_diffs = std::make_shared<DiffIndex>(); // equal: nothing to scan for
        } else {
            const std::uint64_t sequence = m_diffSequence;
            m_indexJob = buildIndex({}, [this, sequence](IndexPtr index, const QString& error) {
                if (sequence != m_diffSequence) return;
                if (!index) {
                    m_status->setText(error);
                    emit indexFailed(error);
                    return;
                }
                m_diffs = std::move(index);
                applyMode();
                emit indexReady();
            });
        }
    }
    if (!errors.isEmpty()) m_status->setText(errors.join(QLatin1Char('\n')));
    applyMode();
    updateWindowSize();
    fitColumns(true);
}

// Each column as wide as the widest cell shown so far of this buffer, and never narrower while
// the buffer stays: a window that moves onto a longer value widens its column, and the table
// does not jump back when it moves on. The hints come from the rows on screen only, never from
// formatting every element. `restart`: a new buffer, sized afresh.
void ElementPanel::fitColumns(bool restart) {
    QHeaderView* header = m_view->horizontalHeader();
    const QAbstractItemView* view = m_view; // QTableView makes its override protected
    for (int c = 0; c < m_model->columnCount(); ++c) {
        const int wanted = std::max(header->sectionSizeHint(c), view->sizeHintForColumn(c));
        if (restart || wanted > header->sectionSize(c)) header->resizeSection(c, wanted);
    }
}

ElementPanel::JobPtr ElementPanel::buildIndex(const DiffFilter& filter,
                                              std::function<void(IndexPtr, const QString&)> done) {
    auto a = m_a;
    auto b = m_b;
    const QString what =
        filter.kind == DiffFilter::Kind::all ? tr("Indexing differences") : tr("Filtering");
    return runScan(
        std::min(a->size(), b->size()), what,
        [a, b, filter](const ScanProgressFn& progress, std::string* error) {
            auto index = DiffIndex::build(*a, *b, filter, progress, error);
            return index ? std::make_shared<const DiffIndex>(std::move(*index)) : nullptr;
        },
        [done](std::shared_ptr<const void> result, const QString& error) {
            done(std::static_pointer_cast<const DiffIndex>(result), error);
        });
}

ElementPanel::JobPtr ElementPanel::runScan(quint64 elements, const QString& what, ScanFn scan,
                                           ScanDoneFn done) {
    if (elements <= m_syncLimit) {
        std::string error;
        auto result = scan({}, &error);
        done(std::move(result), QString::fromStdString(error));
        return nullptr;
    }
    reapExited(m_jobs);
    auto job = std::make_shared<IndexJob>();
    m_status->setText(what + QStringLiteral("…"));
    // The worker touches only what `scan` holds and its job; results come back as queued
    // calls, which Qt drops if the panel is gone (and the destructor joins it anyway).
    job->thread = std::thread([this, scan, job, done, what] {
        int lastPercent = -1;
        std::string error;
        auto result = scan(
            [&](std::uint64_t n, std::uint64_t total) {
                if (job->stop.load()) return false;
                const int percent = total ? int(n * 100 / total) : 100;
                if (percent != lastPercent) {
                    lastPercent = percent;
                    QMetaObject::invokeMethod(
                        this,
                        [this, job, what, percent] {
                            if (!job->stop.load())
                                m_status->setText(tr("%1… %2%").arg(what).arg(percent));
                        },
                        Qt::QueuedConnection);
                }
                return true;
            },
            &error);
        if (!job->stop.load()) {
            QMetaObject::invokeMethod(
                this,
                [this, job, done, result, error] {
                    if (job->stop.load()) return;
                    m_status->clear();
                    done(result, QString::fromStdString(error));
                },
                Qt::QueuedConnection);
        }
        job->exited = true;
    });
    m_jobs.push_back(job);
    return job;
}

const DiffIndex* ElementPanel::navigationIndex() const {
    if (m_rangeFilter) return m_rangeIndex.get();
    return m_diffs.get();
}

void ElementPanel::applyMode() {
    IndexPtr rows;
    if (m_rangeFilter)
        rows = m_rangeIndex; // null while the filter is being built: all elements meanwhile
    else if (m_onlyDiffering->isChecked())
        rows = m_diffs;
    if (applyOrder()) {
        updateControls();
        return;
    }
    if (rows != m_model->rowIndex() || m_model->rowOrder()) {
        m_model->setRowIndex(rows);
        updateWindowSize();
        // Stay on the element the cursor was on when the new rows still hold it.
        if (m_current && m_model->logicalRowOfElement(*m_current))
            goToElement(*m_current);
        else
            syncScrollBar();
    }
    updateControls();
}

void ElementPanel::filterToDeltaDecade(int decade) {
    applyRangeFilter(DiffFilter::deltaDecade(decade));
}

void ElementPanel::filterToUlpBin(int bin) {
    applyRangeFilter(DiffFilter::ulpBin(bin));
}

// A histogram bar's elements need their own scan (the bitmap of all differences does not know
// the bins), off the GUI thread for big buffers like the first one.
void ElementPanel::applyRangeFilter(const DiffFilter& filter) {
    if (!m_a || !m_b || m_rangeFilter == filter) return;
    stopJob(m_rangeJob);
    m_rangeFilter = filter;
    m_rangeIndex.reset();
    const std::uint64_t sequence = ++m_rangeSequence;
    m_rangeJob = buildIndex(filter, [this, sequence](IndexPtr index, const QString& error) {
        if (sequence != m_rangeSequence) return;
        if (!index) {
            m_status->setText(error);
            return;
        }
        m_rangeIndex = std::move(index);
        applyMode();
        emit rangeFilterApplied();
    });
    applyMode();
}

void ElementPanel::clearRangeFilter() {
    stopJob(m_rangeJob);
    ++m_rangeSequence;
    const bool hadFilter = m_rangeFilter.has_value();
    m_rangeFilter.reset();
    m_rangeIndex.reset();
    applyMode();
    if (hadFilter) emit rangeFilterCleared();
}

QString ElementPanel::rangeFilterText() const {
    return m_rangeFilter ? m_filterLabel->text() : QString();
}
QString ElementPanel::statusText() const {
    return m_status->text();
}

void ElementPanel::updateControls() {
    const DiffIndex* nav = navigationIndex();
    const bool haveDiffs = nav && nav->count() > 0;
    m_previous->setEnabled(haveDiffs);
    m_next->setEnabled(haveDiffs);
    m_export->setEnabled(haveDiffs && m_a && m_b);
    m_onlyDiffering->setEnabled(m_a && m_b && !m_rangeFilter && !m_orderRequest);
    m_goTo->setEnabled(m_model->elementCount() > 0);
    m_filterBar->setVisible(m_rangeFilter.has_value());
    m_orderBar->setVisible(m_orderRequest.has_value());
    m_orderLabel->setText(orderText());
    if (m_rangeFilter) {
        const bool ulp = m_rangeFilter->kind == DiffFilter::Kind::ulpBin;
        const QString range = HistogramPanel::binDescription(ulp, m_rangeFilter->bin);
        m_filterLabel->setText(
            m_rangeIndex ? tr("Showing %1 elements with %2").arg(m_rangeIndex->count()).arg(range)
                         : tr("Filtering to %1…").arg(range));
    }
    if (m_diffs && m_status->text().isEmpty() && m_a && m_b)
        m_status->setText(tr("%1 of %2 elements differ")
                              .arg(m_diffs->count())
                              .arg(std::min(m_a->size(), m_b->size())));
}

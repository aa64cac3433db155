#include "panels/rank_panel.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

RankPanel::RankPanel(QWidget* parent)
    : QWidget(parent), m_selector(new QComboBox), m_overview(new QTableView),
      m_model(new RankOverviewModel(this)) {
    m_selector->setObjectName(QStringLiteral("rankSelector"));
    m_overview->setObjectName(QStringLiteral("rankOverview"));
    m_overview->setModel(m_model);
    m_overview->setSelectionMode(QAbstractItemView::SingleSelection);
    m_overview->setSelectionBehavior(QAbstractItemView::SelectItems);
    // Widths from the labels and counts (fitColumns), not from every cell's size hint: a run of
    // many ranks and steps has too many cells to measure at each snapshot.
    m_overview->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_overview->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_overview->setToolTip(tr("Steps × ranks: where each rank diverges. Click a cell to show that "
                              "rank at that step."));
    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    auto* label = new QLabel(tr("&Rank:"));
    label->setBuddy(m_selector);
    row->addWidget(label);
    row->addWidget(m_selector, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(row);
    layout->addWidget(m_overview);
    m_overview->setMaximumHeight(8 * fontMetrics().height());
    setVisible(false);

    connect(m_selector, &QComboBox::activated, this, [this](int i) {
        const QVariant v = m_selector->itemData(i);
        setRank(v.isValid() ? std::optional<std::uint64_t>(v.toULongLong()) : std::nullopt);
    });
    connect(m_overview, &QAbstractItemView::clicked, this, [this](const QModelIndex& index) {
        setRank(index.data(RankOverviewModel::RankRole).toULongLong());
        emit stepChosen(index.data(RankOverviewModel::StepRole).toULongLong());
    });
}

void RankPanel::setSnapshot(const AnalysisSnapshot* snapshot) {
    const dumpscope::Analysis* analysis = snapshot ? snapshot->analysis.get() : nullptr;
    std::shared_ptr<const dumpscope::RankOverview> overview;
    if (analysis && analysis->ranked)
        overview = snapshot->rankOverview ? snapshot->rankOverview
                                          : std::make_shared<const dumpscope::RankOverview>(
                                                dumpscope::rankOverview(*analysis));
    const bool sameRanks = overview && overview->ranks == m_model->overview().ranks;
    m_model->setOverview(std::move(overview));
    if (!sameRanks) setRanks(m_model->overview().ranks);
    fitColumns();
}

void RankPanel::setRanks(const std::vector<std::uint64_t>& ranks) {
    setVisible(!ranks.empty());
    // An empty overview shows no header either: it has no column to name.
    m_overview->horizontalHeader()->setVisible(!ranks.empty());
    // The choices follow the ranks found; a rank that is gone falls back to all of them.
    QSignalBlocker blocker(m_selector);
    m_selector->clear();
    m_selector->addItem(tr("All ranks"));
    for (std::uint64_t r : ranks)
        m_selector->addItem(tr("Rank %1").arg(r), qulonglong(r));
    if (m_rank && std::find(ranks.begin(), ranks.end(), *m_rank) == ranks.end()) {
        m_rank.reset();
        emit rankChanged(m_rank);
    }
    m_selector->setCurrentIndex(m_rank ? m_selector->findData(qulonglong(*m_rank)) : 0);
}

// One width for every column: that of the last rank's label (the most digits) or of the largest
// count, whichever is wider; Qt's measures of one section and one text, not of every cell.
void RankPanel::fitColumns() {
    const auto& o = m_model->overview();
    std::size_t most = 0;
    for (const auto& cell : o.cells)
        most = std::max(most, cell.nDivergent);
    QHeaderView* header = m_overview->horizontalHeader();
    // The item delegate's margins around a cell's text: the focus frame's, and one pixel each.
    const int margins =
        2 * (style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_overview) + 1);
    int width = m_overview->fontMetrics().horizontalAdvance(QString::number(most)) + margins;
    if (!o.ranks.empty()) width = std::max(width, header->sectionSizeHint(int(o.ranks.size()) - 1));
    if (header->defaultSectionSize() != width) header->setDefaultSectionSize(width);
}

void RankPanel::setRank(std::optional<std::uint64_t> rank) {
    {
        QSignalBlocker blocker(m_selector);
        m_selector->setCurrentIndex(rank ? std::max(0, m_selector->findData(qulonglong(*rank)))
                                         : 0);
    }
    if (rank == m_rank) return;
    m_rank = rank;
    emit rankChanged(m_rank);
}

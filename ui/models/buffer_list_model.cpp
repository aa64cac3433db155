#include "models/buffer_list_model.h"

#include "models/name_pair_key.h"
#include "widgets/matrix_colors.h"

#include "dumpscope/tolerance_to_pass.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

using dumpscope::BufferResult;
using dumpscope::Status;

namespace {

bool hasComparison(const BufferResult& b) {
    return b.status == Status::equal || dumpscope::differsBitwise(b.status);
}

std::uint64_t compared(const BufferResult& b) {
    return std::min(b.stats.nA, b.stats.nB);
}

double differingPercent(const BufferResult& b) {
    const auto n = compared(b);
    return n == 0 ? 0.0 : 100.0 * static_cast<double>(b.stats.nDiff) / static_cast<double>(n);
}

std::uint64_t nanInfTotal(const BufferResult& b) {
    return b.stats.nanA + b.stats.nanB + b.stats.infA + b.stats.infB;
}

QString number(double v) {
    return QString::number(v, 'g', 4);
}

// A column's value to pass: the exact text (it can be typed as the tolerance), "none", or empty
// where no tolerance changes the status; sorted as the value, "none" above every value and the
// empty ones below.
enum class ToPass { atol, rtol, ulp };
QString toPassDisplay(const BufferResult& b, ToPass which) {
    const auto t = dumpscope::toleranceToPass(b);
    if (!t) return QString();
    const std::string text = which == ToPass::atol   ? dumpscope::toPassValueText(t->atol)
                             : which == ToPass::rtol ? dumpscope::toPassValueText(t->rtol)
                                                     : dumpscope::toPassValueText(t->ulp);
    return QString::fromStdString(text);
}
double toPassSortKey(const BufferResult& b, ToPass which) {
    const auto t = dumpscope::toleranceToPass(b);
    if (!t) return -1.0;
    if (which == ToPass::ulp) return t->ulp ? static_cast<double>(*t->ulp) : HUGE_VAL;
    const auto& v = which == ToPass::atol ? t->atol : t->rtol;
    return v ? *v : HUGE_VAL;
}

QString statusText(const BufferResult& b) {
    if (dumpscope::isError(b.status) && !b.error.empty())
        return QStringLiteral("%1: %2").arg(
            QString::fromStdString(std::string(dumpscope::statusName(b.status))),
            QString::fromStdString(b.error));
    return QString::fromStdString(std::string(dumpscope::statusName(b.status)));
}

QString shapeText(const BufferResult& b) {
    QStringList dims;
    for (std::uint64_t d : b.shape)
        dims << QString::number(d);
    return dims.join(QStringLiteral(" × "));
}

std::uint64_t totalDiffs(const dumpscope::GrowthSeries& series) {
    std::uint64_t total = 0;
    for (const auto& p : series.points)
        total += p.nDiff;
    return total;
}

} // namespace

BufferListModel::BufferListModel(QObject* parent) : QAbstractTableModel(parent) {}

void BufferListModel::setBuffers(SnapshotPtr snapshot, std::vector<std::size_t> buffers) {
    if (snapshot && buffers == m_buffers && !buffers.empty()) {
        const SnapshotChanges* changes = snapshot->changesSince(m_snapshot.get());
        m_snapshot = std::move(snapshot);
        if (changes && m_buffersSorted)
            signalRows(changes->buffers);
        else
            emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_buffers = m_snapshot ? std::move(buffers) : std::vector<std::size_t>{};
    m_buffersSorted = std::is_sorted(m_buffers.begin(), m_buffers.end());
    endResetModel();
}

// The rows of the buffers compared since the previous snapshot, one signal per run of adjacent
// rows: the cost of a snapshot is in what changed, not in the cell's size.
void BufferListModel::signalRows(const std::vector<std::size_t>& changedBuffers) {
    std::vector<int> rows;
    for (std::size_t b : changedBuffers) {
        const auto it = std::lower_bound(m_buffers.begin(), m_buffers.end(), b);
        if (it != m_buffers.end() && *it == b)
            rows.push_back(static_cast<int>(it - m_buffers.begin()));
    }
    for (std::size_t i = 0; i < rows.size();) {
        std::size_t j = i + 1;
        while (j < rows.size() && rows[j] == rows[j - 1] + 1)
            ++j;
        emit dataChanged(index(rows[i], 0), index(rows[j - 1], ColumnCount - 1));
        i = j;
    }
}

std::uint64_t BufferListModel::keyOf(const BufferResult& b) {
    return namePairHash(b.group, b.name);
}

void BufferListModel::indexResults() const {
    const auto& buffers = m_snapshot->analysis->buffers;
    m_firstResult.clear();
    m_firstResult.reserve(buffers.size());
    m_nextResult.assign(buffers.size(), kNoResult);
    // Backwards, so that each chain runs in the order of the buffers.
    for (std::size_t i = buffers.size(); i-- > 0;) {
        const auto [first, inserted] = m_firstResult.try_emplace(keyOf(buffers[i]), i);
        if (inserted) continue;
        m_nextResult[i] = first->second;
        first->second = i;
    }
}

bool BufferListModel::chainOf(const BufferResult& b, std::vector<std::size_t>& results) const {
    results.clear();
    const auto& buffers = m_snapshot->analysis->buffers;
    if (m_nextResult.size() != buffers.size()) return false;
    const std::uint64_t key = keyOf(b);
    const auto first = m_firstResult.find(key);
    if (first == m_firstResult.end()) return false;
    for (std::size_t i = first->second; i != kNoResult; i = m_nextResult[i]) {
        const BufferResult& r = buffers[i];
        if (r.group == b.group && r.name == b.name)
            results.push_back(i);
        else if (keyOf(r) != key) // not a buffer of the same key: the index is another plan's
            return false;
    }
    return !results.empty();
}

std::vector<std::size_t> BufferListModel::resultsOf(const BufferResult& b) const {
    std::vector<std::size_t> results;
    if (!chainOf(b, results)) {
        indexResults();
        chainOf(b, results);
    }
    return results;
}

std::shared_ptr<const dumpscope::GrowthSeries>
BufferListModel::sharedGrowthOf(const BufferResult& b) const {
    if (!m_snapshot) return nullptr;
    if (m_growthOf != m_snapshot->analysis) {
        m_growth.clear();
        m_growthOf = m_snapshot->analysis;
    }
    const BufferKey key{b.group, b.name};
    auto it = m_growth.find(key);
    if (it == m_growth.end())
        it = m_growth
                 .emplace(key,
                          std::make_shared<const dumpscope::GrowthSeries>(dumpscope::growthSeriesOf(
                              *m_snapshot->analysis, b.group, b.name, resultsOf(b))))
                 .first;
    return it->second;
}

const dumpscope::GrowthSeries* BufferListModel::growthOf(const BufferResult& b) const {
    return sharedGrowthOf(b).get();
}

GrowthSparkline BufferListModel::sparkline(const BufferResult& b) const {
    GrowthSparkline line;
    if (auto series = sharedGrowthOf(b)) {
        const auto& points = series->points; // in the order of the analysis' steps
        const auto at = std::lower_bound(
            points.begin(), points.end(), b.step,
            [](const dumpscope::GrowthPoint& p, std::uint64_t step) { return p.step < step; });
        if (at != points.end() && at->step == b.step)
            line.current = static_cast<int>(at - points.begin());
        line.shared = std::shared_ptr<const std::vector<dumpscope::GrowthPoint>>(series, &points);
    }
    return line;
}

QString BufferListModel::growthToolTip(const BufferResult& b) const {
    constexpr std::size_t kMaxLines = 40;
    const auto* series = growthOf(b);
    if (!series) return {};
    QStringList lines{tr("%1 across %2 steps (differing elements, max |Δ|):")
                          .arg(QString::fromStdString(b.name))
                          .arg(series->points.size())};
    for (std::size_t i = 0; i < series->points.size() && i < kMaxLines; ++i) {
        const auto& p = series->points[i];
        QString line = tr("step %1: ").arg(p.step);
        if (p.status == Status::missing)
            line += tr("not dumped");
        else if (p.nDiff == 0)
            line += QString::fromStdString(std::string(dumpscope::statusName(p.status)));
        else
            line += tr("%1 differ, max |Δ| %2").arg(p.nDiff).arg(number(p.maxAbsDelta));
        if (p.step == b.step) line += tr("  ◀ this row");
        lines << line;
    }
    if (series->points.size() > kMaxLines)
        lines << tr("… %1 more steps").arg(series->points.size() - kMaxLines);
    return lines.join(QLatin1Char('\n'));
}

void BufferListModel::clear() {
    setBuffers({}, {});
}

int BufferListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_buffers.size());
}

int BufferListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

int BufferListModel::rowOf(const QString& name) const {
    // Several ranks list the same name: the first rank where it differs is the one to show.
    int first = -1;
    for (std::size_t r = 0; r < m_buffers.size(); ++r) {
        const BufferResult& b = m_snapshot->analysis->buffers[m_buffers[r]];
        if (QString::fromStdString(b.name) != name) continue;
        if (first < 0) first = static_cast<int>(r);
        if (!b.rank || dumpscope::differsBitwise(b.status)) return static_cast<int>(r);
    }
    return first;
}

int BufferListModel::bufferIndex(int row) const {
    if (row < 0 || row >= rowCount()) return -1;
    return static_cast<int>(m_buffers[row]);
}

QVariant BufferListModel::display(const BufferResult& b, int column) const {
    const auto& s = b.stats;
    switch (column) {
    case NameColumn:
        // Every rank of a ranked pair lists its own copy of a buffer: the rank tells them apart.
        return b.rank ? tr("%1 (rank %2)").arg(QString::fromStdString(b.name)).arg(*b.rank)
                      : QString::fromStdString(b.name);
    case TypeColumn:
        return QString::fromStdString(std::string(dumpscope::dtypeName(b.dtype)));
    case ElementsColumn:
        if (b.status == Status::only_in_b) return QString::number(s.nB);
        if (s.nA != s.nB && b.status != Status::only_in_a)
            return QStringLiteral("%1 / %2").arg(s.nA).arg(s.nB);
        return QString::number(s.nA);
    // The core's own words on the row of a buffer whose shape did not fit (compared flat).
    case ShapeColumn:
        return b.shapeError.empty()
                   ? shapeText(b)
                   : tr("not applied: %1").arg(QString::fromStdString(b.shapeError));
    case GrowthColumn:
        return QString(); // drawn by SparklineDelegate from GrowthRole
    default:
        break;
    }
    if (column == StatusColumn) return statusText(b);
    if (!hasComparison(b)) return QString();
    // Known by fingerprints alone: which elements differ, and by how much, is not known.
    if (!hasElementData(b) && column != KindColumn) return QStringLiteral("–");
    switch (column) {
    case DifferingColumn:
        return QString::number(s.nDiff);
    case DifferingPercentColumn:
        return QStringLiteral("%1 %").arg(number(differingPercent(b)));
    case MaxAbsDeltaColumn:
        return number(s.maxAbsDelta);
    case MaxRelDeltaColumn:
        return number(s.maxRelDelta);
    case MaxUlpColumn:
        return dumpscope::isFloat(b.dtype) ? QString::number(s.maxUlp) : QStringLiteral("–");
    case AtolToPassColumn:
        return toPassDisplay(b, ToPass::atol);
    case RtolToPassColumn:
        return toPassDisplay(b, ToPass::rtol);
    case UlpToPassColumn:
        return toPassDisplay(b, ToPass::ulp);
    case NanInfColumn:
        if (nanInfTotal(b) == 0) return QStringLiteral("–");
        return QStringLiteral("NaN %1/%2 · Inf %3/%4")
            .arg(s.nanA)
            .arg(s.nanB)
            .arg(s.infA)
            .arg(s.infB);
    case KindColumn:
        return dumpscope::differsBitwise(b.status)
                   ? QString::fromStdString(std::string(dumpscope::kindName(b.kind)))
                   : QString();
    default:
        return {};
    }
}

QVariant BufferListModel::sortKey(const BufferResult& b, int column) const {
    const auto& s = b.stats;
    switch (column) {
    case NameColumn:
        return QString::fromStdString(b.name);
    case TypeColumn:
        return QString::fromStdString(std::string(dumpscope::dtypeName(b.dtype)));
    case ElementsColumn:
        return static_cast<qulonglong>(std::max(s.nA, s.nB));
    case ShapeColumn:
        return display(b, column);
    // Buffers that differ at more elements over the whole run first when sorted descending.
    case GrowthColumn: {
        const auto* series = growthOf(b);
        return static_cast<qulonglong>(series ? totalDiffs(*series) : 0);
    }
    case DifferingColumn:
        return static_cast<qulonglong>(s.nDiff);
    case DifferingPercentColumn:
        return differingPercent(b);
    // NaN would break the proxy's strict weak ordering; it sorts as the largest.
    case MaxAbsDeltaColumn:
        return std::isnan(s.maxAbsDelta) ? HUGE_VAL : s.maxAbsDelta;
    case MaxRelDeltaColumn:
        return std::isnan(s.maxRelDelta) ? HUGE_VAL : s.maxRelDelta;
    case MaxUlpColumn:
        return static_cast<qulonglong>(s.maxUlp);
    case AtolToPassColumn:
        return toPassSortKey(b, ToPass::atol);
    case RtolToPassColumn:
        return toPassSortKey(b, ToPass::rtol);
    case UlpToPassColumn:
        return toPassSortKey(b, ToPass::ulp);
    case NanInfColumn:
        return static_cast<qulonglong>(nanInfTotal(b));
    case KindColumn:
        return static_cast<int>(b.kind); // most severe kind first
    case StatusColumn:
        return static_cast<int>(b.status);
    default:
        return {};
    }
}

QVariant BufferListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const std::size_t bufferIndex = m_buffers[index.row()];
    const BufferResult& b = m_snapshot->analysis->buffers[bufferIndex];
    const bool pending = !m_snapshot->isDone(bufferIndex);
    const int column = index.column();
    if (role == BufferIndexRole) return static_cast<int>(bufferIndex);
    if (role == GrowthRole) return QVariant::fromValue(sparkline(b));
    if (pending) {
        if (role == Qt::DisplayRole && column == NameColumn) return QString::fromStdString(b.name);
        if (role == Qt::DisplayRole && column == TypeColumn) return display(b, column);
        if (role == Qt::DisplayRole && column == StatusColumn) return tr("pending…");
        if (role == SortRole) return column == NameColumn ? sortKey(b, column) : QVariant(-1);
        if (role == StatusRole) return -1;
        return {};
    }
    switch (role) {
    case Qt::DisplayRole:
        return display(b, column);
    case SortRole:
        return sortKey(b, column);
    case StatusRole:
        return static_cast<int>(b.status);
    case Qt::ToolTipRole:
        if (column == GrowthColumn) return growthToolTip(b);
        if (column == ShapeColumn && !b.shapeError.empty())
            return QString::fromStdString(b.shapeError);
        if (!b.error.empty()) return QString::fromStdString(b.error);
        return QString::fromStdString(b.fileName);
    case Qt::TextAlignmentRole:
        return column == NameColumn || column == StatusColumn
                   ? QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (column == ShapeColumn && !b.shapeError.empty()) return matrix_colors::errorText();
        if (column != StatusColumn) return {};
        if (dumpscope::isDivergent(b.status)) return matrix_colors::divergeText();
        if (dumpscope::isError(b.status)) return matrix_colors::errorText();
        if (dumpscope::isTolerated(b.status)) return matrix_colors::toleratedText();
        if (b.status == Status::equal) return matrix_colors::equalText();
        return {};
    default:
        return {};
    }
}

QVariant BufferListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    static const char* const titles[ColumnCount] = {
        QT_TR_NOOP("Buffer"),       QT_TR_NOOP("Type"),        QT_TR_NOOP("Elements"),
        QT_TR_NOOP("Differing"),    QT_TR_NOOP("Diff %"),      QT_TR_NOOP("Max |Δ|"),
        QT_TR_NOOP("Max rel Δ"),    QT_TR_NOOP("Max ULP"),     QT_TR_NOOP("atol to pass"),
        QT_TR_NOOP("rtol to pass"), QT_TR_NOOP("ULP to pass"), QT_TR_NOOP("NaN/Inf (A/B)"),
        QT_TR_NOOP("Kind"),         QT_TR_NOOP("Growth"),      QT_TR_NOOP("Shape"),
        QT_TR_NOOP("Status")};
    static const char* const tips[ColumnCount] = {
        QT_TR_NOOP("Buffer name in the schema (unclassified files: the name in the file)"),
        QT_TR_NOOP("Element type the bytes are read as"),
        QT_TR_NOOP("Elements in run A (and B when they differ)"),
        QT_TR_NOOP("Elements whose bits differ between A and B"),
        QT_TR_NOOP("Differing elements as a share of the elements compared"),
        QT_TR_NOOP("Largest |A − B| over the buffer"),
        QT_TR_NOOP("Largest |A − B| / max(|A|, |B|)"),
        QT_TR_NOOP("Largest distance in units in the last place"),
        QT_TR_NOOP("The smallest absolute tolerance (--atol) that alone would make this buffer "
                   "within tolerance; none: no value would (a NaN or Inf mismatch)"),
        QT_TR_NOOP("The smallest relative tolerance (--rtol) that alone would make this buffer "
                   "within tolerance; none: no value would (a NaN or Inf mismatch, or B is 0 "
                   "where A is not)"),
        QT_TR_NOOP("The smallest ULP distance (--ulp) that alone would make this buffer within "
                   "tolerance; none: no value would (a NaN mismatch)"),
        QT_TR_NOOP("NaN and Inf counts in run A / run B"),
        QT_TR_NOOP("What kind of divergence: rounding, numeric, discrete, permuted, …"),
        QT_TR_NOOP("Differing elements at every step (log scale), this row's step outlined; "
                   "sorts by the total over all steps"),
        QT_TR_NOOP("Rows × columns from the schema or a typed shape (right-click: Set Shape…)"),
        QT_TR_NOOP("equal, diverge, within tolerance, one-sided, error, …")};
    if (role == Qt::DisplayRole) return tr(titles[section]);
    if (role == Qt::ToolTipRole && tips[section]) return tr(tips[section]);
    // A first click on a column of numbers puts the largest on top: the common question is
    // "which buffer differs most".
    if (role == Qt::InitialSortOrderRole) {
        const bool words = section == NameColumn || section == TypeColumn ||
                           section == KindColumn || section == ShapeColumn ||
                           section == StatusColumn;
        return words ? Qt::AscendingOrder : Qt::DescendingOrder;
    }
    return {};
}

#include "dumpscope/analyze.h"
#include "dumpscope/rank_view.h"
#include "dumpscope/verdict.h"

#include "analysis/lookup_count.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace dumpscope {

std::string_view statusName(Status s) {
    switch (s) {
    case Status::equal:
        return "equal";
    case Status::diverge:
        return "diverge";
    case Status::within_tolerance:
        return "within_tolerance";
    case Status::length_mismatch:
        return "length_mismatch";
    case Status::only_in_a:
        return "only_in_a";
    case Status::only_in_b:
        return "only_in_b";
    case Status::error:
        return "error";
    case Status::changed_while_reading:
        return "changed_while_reading";
    case Status::within_floor:
        return "within_floor";
    case Status::missing:
        return "missing";
    }
    return "?";
}

std::string_view decisionCaseName(DecisionCase c) {
    switch (c) {
    case DecisionCase::all_equal:
        return "all_equal";
    case DecisionCase::g_only:
        return "g_only";
    case DecisionCase::h_without_g:
        return "h_without_g";
    case DecisionCase::i:
        return "i";
    case DecisionCase::j:
        return "j";
    case DecisionCase::unexpected:
        return "unexpected";
    case DecisionCase::not_compared:
        return "not_compared";
    case DecisionCase::own_terms:
        return "own_terms";
    }
    return "?";
}

std::string_view orderSourceName(OrderSource s) {
    switch (s) {
    case OrderSource::capture_log:
        return "capture_log";
    case OrderSource::file_keys:
        return "file_keys";
    case OrderSource::mtime:
        return "mtime";
    case OrderSource::names:
        return "names";
    }
    return "?";
}

std::string_view orderSourceText(OrderSource s) {
    switch (s) {
    case OrderSource::capture_log:
        return "the capture's log";
    case OrderSource::file_keys:
        return "the order of the keys in the dumped files";
    case OrderSource::mtime:
        return "the files' modification times";
    case OrderSource::names:
        return "the names (nothing else orders them)";
    }
    return "?";
}

std::string_view termsName(VerdictTerms t) {
    return t == VerdictTerms::own ? "own" : "schema";
}

int cellSeverity(Status s) {
    if (isDivergent(s)) return 5;
    if (isError(s)) return 4;
    if (isTolerated(s)) return 3;
    if (isOneSided(s)) return 2;
    if (s == Status::equal) return 1;
    return 0;
}

namespace {

// Where each group's cell sits in a step's row. summarize() lays every row out alike (the
// schema's groups in order, then the unclassified files'), so one row's order is every row's.
class ColumnIndex {
  public:
    explicit ColumnIndex(const std::vector<GroupCell>& cells) {
        m_column.reserve(cells.size());
        for (std::size_t c = 0; c < cells.size(); ++c)
            m_column.emplace(cells[c].group, c);
    }
    std::optional<std::size_t> of(const std::string& group) const {
        detail::countNameLookups(1);
        const auto it = m_column.find(group);
        if (it == m_column.end()) return std::nullopt;
        return it->second;
    }

  private:
    std::unordered_map<std::string_view, std::size_t> m_column;
};

} // namespace

void summarize(Analysis& an) {
    an.matrix.clear();
    const bool hasOther = !an.unclassified.empty();
    std::map<std::uint64_t, std::size_t> row;
    for (auto step : an.steps) {
        row[step] = an.matrix.size();
        StepResult sr;
        sr.step = step;
        sr.cells.reserve(an.schema->groups.size() + (hasOther ? 1 : 0)); // a row per step: no slack
        for (const auto& g : an.schema->groups)
            sr.cells.push_back(GroupCell{g.id, Status::missing, {}, 0, 0, 0});
        if (hasOther) sr.cells.push_back(GroupCell{kOtherGroup, Status::missing, {}, 0, 0, 0});
        an.matrix.push_back(std::move(sr));
    }
    if (an.matrix.empty()) {
        an.verdict = decide(an);
        return;
    }
    const ColumnIndex columns(an.matrix.front().cells);
    for (std::size_t i = 0; i < an.buffers.size(); ++i) {
        const BufferResult& b = std::as_const(an.buffers)[i]; // read: shares the chunk still
        auto it = row.find(b.step);
        if (it == row.end()) continue;
        const auto column = columns.of(b.group);
        if (!column) continue;
        GroupCell& cell = an.matrix[it->second].cells[*column];
        cell.buffers.push_back(i);
        if (b.pending) {
            ++cell.nPending;
            continue;
        }
        if (countsAsDivergent(an, b.status)) {
            ++cell.nDivergent;
            if (!std::isnan(b.stats.maxAbsDelta))
                cell.maxAbsDelta = std::max(cell.maxAbsDelta, b.stats.maxAbsDelta);
        }
        if (cellSeverity(b.status) > cellSeverity(cell.status)) cell.status = b.status;
    }
    an.verdict = decide(an);
}

namespace {

// Whether decide() can read differently once `b` is compared, when `v` is its verdict over the
// buffers compared before: what decide() reads of a compared buffer, case by case. The other
// buffers it reads (and errorA/B, the schema) did not change. With `headline` alone, only the
// first divergent step and the exit code count.
bool mayChangeVerdict(const Analysis& an, const Verdict& v, const BufferResult& b,
                      LiveVerdict what) {
    if (v.decisionCase == DecisionCase::not_compared) return false; // decided by the runs alone
    const auto& first = v.firstDivergentStep;
    if (what == LiveVerdict::exact && first && b.step == *first)
        return true;                                       // culprits and root cause
    if (isError(b.status) && v.exitCode != 2) return true; // the first error: exit 2
    if (!countsAsDivergent(an, b.status)) return false;
    if (v.exitCode == 0) return true; // the first divergence: exit 1
    // An earlier divergent step; unclassified files set it only for a run in its own terms.
    return (b.group != kOtherGroup || an.terms == VerdictTerms::own) && (!first || b.step < *first);
}

// The status summarize() gives the cell: the most telling compared buffer's, the first of them
// in cell order when several statuses rank the same.
Status cellStatus(const Analysis& an, const GroupCell& cell) {
    Status status = Status::missing;
    for (std::size_t i : cell.buffers) {
        const BufferResult& b = an.buffers[i];
        if (!b.pending && cellSeverity(b.status) > cellSeverity(status)) status = b.status;
    }
    return status;
}

// Brings the cells of `compared` up to date; `columnOf` finds a group's column in a row.
template <typename ColumnOf>
std::vector<CellPosition> updateCells(Analysis& an, const std::vector<std::size_t>& compared,
                                      LiveVerdict what, ColumnOf columnOf) {
    std::vector<CellPosition> touched;
    if (an.matrix.empty() || compared.empty()) return touched;
    bool decideAgain = false;
    for (std::size_t i : compared) {
        if (i >= an.buffers.size()) continue;
        const BufferResult& b = std::as_const(an.buffers)[i]; // read: shares the chunk still
        if (b.pending) continue;
        const auto step = std::lower_bound(an.steps.begin(), an.steps.end(), b.step);
        if (step == an.steps.end() || *step != b.step) continue;
        const auto row = static_cast<std::size_t>(step - an.steps.begin());
        if (row >= an.matrix.size()) continue;
        const auto column = columnOf(b.group);
        if (!column) continue;
        decideAgain = decideAgain || mayChangeVerdict(an, an.verdict, b, what);
        GroupCell& cell = an.matrix[row].cells[*column];
        if (cell.nPending > 0) --cell.nPending;
        if (countsAsDivergent(an, b.status)) {
            ++cell.nDivergent;
            if (!std::isnan(b.stats.maxAbsDelta))
                cell.maxAbsDelta = std::max(cell.maxAbsDelta, b.stats.maxAbsDelta);
        }
        // A tie of two statuses (diverge and length_mismatch, say) goes to the buffer first in
        // the cell, whichever was compared first: only then is the cell read again.
        if (cellSeverity(b.status) > cellSeverity(cell.status))
            cell.status = b.status;
        else if (cellSeverity(b.status) == cellSeverity(cell.status) && b.status != cell.status)
            cell.status = cellStatus(an, cell);
        touched.push_back(CellPosition{row, *column});
    }
    std::sort(touched.begin(), touched.end(), [](const CellPosition& x, const CellPosition& y) {
        return x.row != y.row ? x.row < y.row : x.column < y.column;
    });
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    if (decideAgain) an.verdict = decide(an);
    return touched;
}

} // namespace

std::vector<CellPosition> summarizeCompared(Analysis& an,
                                            const std::vector<std::size_t>& compared) {
    if (an.matrix.empty() || compared.empty()) return {};
    // Built per call, in one pass over a row: a lookup per compared buffer after it.
    const ColumnIndex columns(an.matrix.front().cells);
    return updateCells(an, compared, LiveVerdict::exact,
                       [&](const std::string& group) { return columns.of(group); });
}

std::optional<std::size_t> LiveSummary::columnOf(const Analysis& an, const std::string& group) {
    detail::countNameLookups(1);
    const auto& cells = an.matrix.front().cells;
    auto it = m_column.find(group);
    // Checked against the row, so that a LiveSummary given another layout indexes it again
    // rather than answer for the first one.
    if (m_column.empty() || (it != m_column.end() &&
                             (it->second >= cells.size() || cells[it->second].group != group))) {
        m_column.clear();
        for (std::size_t c = 0; c < cells.size(); ++c)
            m_column.emplace(cells[c].group, c);
        it = m_column.find(group);
    }
    if (it == m_column.end()) return std::nullopt;
    return it->second;
}

std::vector<CellPosition> LiveSummary::compared(Analysis& an,
                                                const std::vector<std::size_t>& compared) {
    return updateCells(an, compared, m_verdict,
                       [&](const std::string& group) { return columnOf(an, group); });
}

} // namespace dumpscope

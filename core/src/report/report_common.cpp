#include "report/report_common.h"

#include "report/report_text.h"

#include "dumpscope/shape.h"
#include "dumpscope/tolerance_to_pass.h"

#include <algorithm>

namespace dumpscope::report {

std::vector<std::string> matrixColumns(const Analysis& analysis) {
    std::vector<std::string> ids;
    if (analysis.schema)
        for (const auto& g : analysis.schema->groups)
            ids.push_back(g.id);
    for (const auto& step : analysis.matrix)
        for (const auto& cell : step.cells)
            if (std::find(ids.begin(), ids.end(), cell.group) == ids.end())
                ids.push_back(cell.group);
    return ids;
}

const GroupCell* findCell(const StepResult& step, const std::string& groupId) {
    for (const auto& cell : step.cells)
        if (cell.group == groupId) return &cell;
    return nullptr;
}

namespace {
// Nothing found wrong yet, but some buffers were not compared (cancelled analysis).
bool pendingCell(const GroupCell& cell) {
    return cell.nPending > 0 && !isDivergent(cell.status) && !isError(cell.status);
}
} // namespace

std::string cellText(const Analysis& analysis, const GroupCell* cell) {
    if (!cell || cell->status == Status::missing) return "—";
    if (pendingCell(*cell)) return "…";
    const std::string of = "/" + std::to_string(cell->buffers.size());
    if (isDivergent(cell->status)) return std::to_string(cell->nDivergent) + of;
    if (isTolerated(cell->status)) {
        std::size_t n = 0;
        for (std::size_t i : cell->buffers)
            if (i < analysis.buffers.size() && differsBitwise(analysis.buffers[i].status)) ++n;
        return "≈" + std::to_string(n) + of;
    }
    if (cell->status == Status::equal) return "=";
    if (cell->status == Status::only_in_a) return "A only";
    if (cell->status == Status::only_in_b) return "B only";
    if (isError(cell->status)) return "err";
    return std::string(statusName(cell->status)); // a status added later still reads right
}

const char* cellClass(const GroupCell* cell) {
    if (!cell || cell->status == Status::missing) return "miss";
    if (pendingCell(*cell)) return "pend";
    if (isDivergent(cell->status)) return "div";
    if (isTolerated(cell->status)) return "tol";
    if (cell->status == Status::equal) return "eq";
    if (cell->status == Status::only_in_a) return "onea";
    if (cell->status == Status::only_in_b) return "oneb";
    if (isError(cell->status)) return "err";
    return "other";
}

namespace {
template <typename Pred> std::vector<std::size_t> select(const Analysis& analysis, Pred pred) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < analysis.buffers.size(); ++i)
        if (pred(analysis.buffers[i].status)) out.push_back(i);
    return out;
}
} // namespace

std::vector<std::size_t> differingBuffers(const Analysis& analysis) {
    return select(analysis, [](Status s) { return differsBitwise(s); });
}
std::vector<std::size_t> errorBuffers(const Analysis& analysis) {
    return select(analysis, [](Status s) { return isError(s); });
}
std::vector<std::size_t> oneSidedBuffers(const Analysis& analysis) {
    return select(analysis,
                  [](Status s) { return s == Status::only_in_a || s == Status::only_in_b; });
}

std::string countText(const BufferResult& b) {
    const auto& s = b.stats;
    std::string text = std::to_string(s.nDiff) + "/" + std::to_string(std::min(s.nA, s.nB));
    if (s.nA != s.nB) text += " (A " + std::to_string(s.nA) + ", B " + std::to_string(s.nB) + ")";
    return text;
}

std::string indexText(const BufferResult& b, std::uint64_t index) {
    // A one-dimensional shape indexes like a flat buffer.
    return b.shape.size() < 2 ? "[" + std::to_string(index) + "]" : formatIndex(index, b.shape);
}

std::string firstDiffText(const BufferResult& b) {
    if (b.stats.firstDiffs.empty()) {
        // A length mismatch with an equal common prefix still has a first differing index.
        return b.stats.firstDiff ? indexText(b, *b.stats.firstDiff) : "";
    }
    const auto& d = b.stats.firstDiffs.front();
    return indexText(b, d.index) + " " + formatValue(b.dtype, d.bitsA) + " vs " +
           formatValue(b.dtype, d.bitsB);
}

std::string kindText(const BufferResult& b) {
    std::string text(kindName(b.kind));
    if (b.status == Status::within_tolerance) text += ", within tolerance";
    if (b.status == Status::within_floor) text += ", within the noise floor";
    return text;
}

std::string toPassText(const BufferResult& b) {
    const auto t = toleranceToPass(b);
    return t ? toleranceToPassText(*t) : std::string();
}

std::string toleranceText(const Analysis& analysis) {
    const Tolerance& t = analysis.tolerance;
    if (!t.any()) return "";
    std::string text;
    const auto add = [&text](const std::string& part) {
        text += (text.empty() ? "" : ", ") + part;
    };
    if (t.atol) add("atol " + formatNumber(*t.atol));
    if (t.rtol) add("rtol " + formatNumber(*t.rtol));
    if (t.ulp) add("ulp " + std::to_string(*t.ulp));
    return text + (analysis.verdictTolerance ? "; the verdict ignores tolerated differences"
                                             : "; the verdict stays bitwise");
}

std::string rootKindText(const Verdict& verdict) {
    const RootCause& rc = verdict.rootCause;
    if (rc.kinds.empty()) return rc.suggestion;
    std::string text(kindName(rc.kinds.front()));
    return rc.suggestion.empty() ? text : text + " — " + rc.suggestion;
}

std::string growthCellText(Status status, std::uint64_t nDiff) {
    if (differsBitwise(status)) return (isTolerated(status) ? "≈" : "") + std::to_string(nDiff);
    if (status == Status::equal) return "=";
    if (status == Status::missing) return "—";
    if (status == Status::only_in_a) return "A only";
    if (status == Status::only_in_b) return "B only";
    return "err";
}

std::vector<Bar> deltaBars(const DeltaHistogram& h) {
    std::vector<Bar> bars;
    const auto [lo, hi] = h.counts.usedRange();
    for (std::size_t i = lo; i < hi; ++i) {
        const int decade = static_cast<int>(i) + DeltaHistogram::kMinDecade;
        bars.push_back({"1e" + std::to_string(decade), h.counts[i], decade});
    }
    return bars;
}

std::vector<Bar> ulpBars(const UlpHistogram& h) {
    std::vector<Bar> bars;
    const auto [lo, hi] = h.counts.usedRange();
    for (std::size_t k = lo; k < hi; ++k)
        bars.push_back({"2^" + std::to_string(k), h.counts[k], static_cast<int>(k)});
    return bars;
}

} // namespace dumpscope::report

#pragma once

#include "dumpscope/buffer_source.h"
#include "dumpscope/cross_rank.h"
#include "dumpscope/name_alignment.h"
#include "dumpscope/result.h"
#include "dumpscope/schema.h"
#include "dumpscope/shards.h"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

namespace dumpscope {

class ResultCache;

struct AnalyzeOptions {
    std::shared_ptr<const Schema> schema;         // null: the default schema
    std::optional<std::set<std::uint64_t>> steps; // only these steps (null: all found)
    unsigned threads = 0;                         // 0: one per core
    Tolerance tolerance;                          // none: bitwise only
    bool verdictTolerance = false;                // the verdict ignores within_tolerance buffers
    double roundingThreshold = kDefaultRoundingThreshold; // see kind.h
    // Shapes by buffer name (schema or unclassified), over the schema's: what a user typed.
    std::map<std::string, std::vector<std::string>> shapes;
    // Remembers results across analyses: unchanged buffer pairs are not read again
    // (result_cache.h). Null: every pair is read.
    std::shared_ptr<ResultCache> cache;
    // How the runs' files are laid out (ScanOptions::layout); empty: found by itself.
    std::string layout;
    // The depth at which buffers without a schema are grouped by their dotted names
    // ("layers.0.mlp" at 2: "layers.0"); 0: the depth that gives the most groups up to
    // kMaxNameGroups (name_groups in docs/reference/comparison.md).
    std::size_t groupDepth = 0;
    // Those groups opened into their children, by id: a name whose group is one of them is
    // grouped one dotted component deeper, and again while that group is opened too ("layers.5"
    // at depth 2: "layers.5.mlp", "layers.5.attn", …), every other group staying as cut.
    std::set<std::string> openedGroups;
    // How buffers whose names differ between the runs are paired (name_alignment.h): run A's
    // names rewritten by `nameMap` (null: none), then, with AlignMode::automatic, what is left
    // by production order, type and shape. Analysis::alignment says what was paired.
    AlignMode align = AlignMode::names;
    std::shared_ptr<const NameMap> nameMap;
    // Buffers held as shards across ranks (--shard): compared as whole tensors (shards.h).
    std::vector<ShardRule> shards;
    // Buffers every rank of a run holds alike (--replicated): checked rank against rank within
    // each run after the pairs are compared (cross_rank.h); a rank that disagrees with its peers
    // makes its buffer a divergence of kind cross_rank.
    std::vector<ReplicatedRule> replicated;
    // Keep the runs' listing in Analysis::listing (a watch's first listing).
    bool keepListing = false;
};

// Whether the group `inner` lies within the group `outer` of a module tree (or is it):
// "layers.5.mlp" lies within "layers.5", "layers.50" does not.
inline bool isWithinGroup(std::string_view inner, std::string_view outer) {
    return inner.substr(0, outer.size()) == outer &&
           (inner.size() == outer.size() || inner[outer.size()] == '.');
}

// How one pair is compared.
struct CompareOptions {
    Tolerance tolerance;
    double roundingThreshold = kDefaultRoundingThreshold;
    std::vector<std::uint64_t> shape; // resolved; empty for flat
};

// Called after each buffer pair is compared, possibly from a worker thread but never from two
// threads at once. `result` is the finished buffer (index into Analysis::buffers). Return false
// to cancel: the analysis then stops as soon as possible and is marked cancelled.
using ProgressFn = std::function<bool(std::size_t index, const BufferResult& result,
                                      std::size_t done, std::size_t total)>;

// Scans both runs, compares every buffer pair and derives the matrix and the verdict.
// Never throws for bad input: every problem lands in a BufferResult, errorA/B or warnings.
Analysis analyze(const std::filesystem::path& runA, const std::filesystem::path& runB,
                 const AnalyzeOptions& options = {}, const ProgressFn& progress = {});

// The planned work before any byte is read: Analysis with steps, buffers (names, files, dtypes,
// statuses only_in_a / only_in_b / equal-pending) and an empty verdict. The GUI shows it as
// the matrix skeleton; analyze() fills it.
Analysis plan(const std::filesystem::path& runA, const std::filesystem::path& runB,
              const AnalyzeOptions& options = {});

// Compares the buffers of `planned`, a plan() of the same runs with the same options, as analyze()
// does: analyze() is plan() then this, so a caller that shows the plan first scans the runs once.
// Takes the plan (a copy the caller keeps is left as it is, pending buffers and all).
Analysis analyzePlanned(Analysis planned, const AnalyzeOptions& options = {},
                        const ProgressFn& progress = {});

// Compares one pair of files (either path may be empty for a one-sided buffer), classifies
// its kind and, when a tolerance is given, whether every difference is within it.
BufferResult compareFiles(const std::filesystem::path& a, const std::filesystem::path& b,
                          DType dtype, const CompareOptions& options = {});
// The same for two sides that may be tensors inside self-describing files; a side that is not
// present makes the buffer one-sided.
BufferResult compareSources(const BufferSource& a, const BufferSource& b, DType dtype,
                            const CompareOptions& options = {});

// Rebuilds Analysis::matrix and Analysis::verdict from Analysis::buffers.
void summarize(Analysis& analysis);

// A cell of Analysis::matrix: matrix[row].cells[column].
struct CellPosition {
    std::size_t row = 0, column = 0;
    friend bool operator==(const CellPosition&, const CellPosition&) = default;
};

// Brings Analysis::matrix and Analysis::verdict up to date, exactly as summarize() would, after
// the buffers `compared` went from pending to compared since the matrix was last summarised.
// Its cost is in those buffers (and their cells), where summarize() reads every buffer; the
// verdict is decided again only when one of them can change it. Returns the cells that
// changed, in matrix order, each once.
std::vector<CellPosition> summarizeCompared(Analysis& analysis,
                                            const std::vector<std::size_t>& compared);

// How much of the verdict LiveSummary keeps up to date while an analysis is in flight.
enum class LiveVerdict {
    // As summarize() would: decided again whenever a compared buffer can change any of it.
    exact,
    // The first divergent step and the exit code as summarize() would; the rest (culprits, root
    // cause, the one-sided count) as of the last time either changed. At a divergent step every
    // result can move the root cause, and deciding it again for each batch read every buffer:
    // a front end that shows the root cause only once the analysis is finished asks for this,
    // and summarize() gives the whole verdict at the end.
    headline,
};

// summarizeCompared() for one analysis in flight, called batch after batch: the matrix's column
// of each group is looked up in an index kept from one batch to the next (the matrix is laid out
// once, by the plan), where summarizeCompared() builds one per call. One LiveSummary per
// analysis: a group absent from the layout it indexed first is not looked for again.
class LiveSummary {
  public:
    explicit LiveSummary(LiveVerdict verdict = LiveVerdict::exact) : m_verdict(verdict) {}
    std::vector<CellPosition> compared(Analysis& analysis,
                                       const std::vector<std::size_t>& compared);

  private:
    std::optional<std::size_t> columnOf(const Analysis& analysis, const std::string& group);

    LiveVerdict m_verdict;
    std::unordered_map<std::string, std::size_t> m_column; // of the first row's groups
};

} // namespace dumpscope

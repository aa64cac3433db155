#pragma once

#include "dumpscope/chunked_vector.h"
#include "dumpscope/cross_precision.h"
#include "dumpscope/cross_rank.h"
#include "dumpscope/dtype.h"
#include "dumpscope/kind.h"
#include "dumpscope/logged_fingerprint.h"
#include "dumpscope/schema.h"
#include "dumpscope/stats.h"
#include "dumpscope/tensor_location.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace dumpscope {

enum class Status {
    equal,
    diverge,
    within_tolerance, // differs bitwise, but every difference is within the given tolerance
    length_mismatch,
    only_in_a,
    only_in_b,
    error,
    changed_while_reading, // size or modification time changed during the comparison
    within_floor, // diverges, but inside the noise floor that reruns of the base's build show
    missing,      // in the schema, but in neither run at this step (never in a BufferResult list)
};
std::string_view statusName(Status s);
// diverge and length_mismatch: the two runs' bytes differ beyond any tolerance.
inline bool isDivergent(Status s) {
    return s == Status::diverge || s == Status::length_mismatch;
}
// Differs bitwise, but is shown and counted like an accepted difference: within the given
// tolerance, or within the noise floor.
inline bool isTolerated(Status s) {
    return s == Status::within_tolerance || s == Status::within_floor;
}
// Any bitwise difference, tolerated or not.
inline bool differsBitwise(Status s) {
    return isDivergent(s) || isTolerated(s);
}
// error and changed_while_reading: no trustworthy result for the pair.
inline bool isError(Status s) {
    return s == Status::error || s == Status::changed_while_reading;
}
inline bool isOneSided(Status s) {
    return s == Status::only_in_a || s == Status::only_in_b;
}

struct BufferResult;
// A side known by its capture's fingerprint alone (loggedA / loggedB): the pair was compared by
// fingerprint and has no element data, so statistics and element views do not exist for it.
// Nor do element views for a pair across precisions (BufferResult::precision) or of joined
// shards (BufferResult::shards): they read each side as one type from one file. A pair with a
// cross-rank divergence (BufferResult::crossRank) has them when both runs hold it at its rank.
bool hasElementData(const BufferResult& b);

struct NoiseFloor;    // noise_floor.h
struct NameAlignment; // name_alignment.h
struct ShardedPair;   // shards.h
struct PairListing;   // step_completion.h

// See BufferResult::reading.
struct PairReading {
    std::optional<CrossPrecision> precision;
    std::shared_ptr<const ShardedPair> shards;
    // The ranks of either run whose copy of this replicated tensor is not their peers' (this
    // buffer's rank), found after the pair was compared.
    std::vector<CrossRankDivergence> crossRank;
    // With `crossRank`: the status the two runs' copies at this rank had against each other
    // (only_in_a: run B has no copy there), which the buffer's own status no longer says.
    Status pairStatus = Status::equal;
};

inline constexpr const char* kOtherGroup = "other"; // group id of unclassified files

// Where a buffer's place in production order (BufferResult::dumpOrder) comes from, best first:
// the capture's fingerprint log, the order of the keys inside its file, the files' modification
// times (one file per buffer, names within a tie; not when they are all one), else the names.
enum class OrderSource : std::uint8_t { capture_log, file_keys, mtime, names };
std::string_view orderSourceName(OrderSource s); // "capture_log", "file_keys", "mtime", "names"
// "the capture's log", "the order of the keys in the dumped files", "the files' modification
// times", "the names (nothing else orders them)": what the verdict says it went by.
std::string_view orderSourceText(OrderSource s);

// In whose terms the verdict speaks. `schema`: the runs are laid out by the schema (their files
// matched its groups) or the user gave one: its groups, decision tree and dataflow. `own`: a
// run read without a schema (self-describing tensors, unknown files): groups from the names,
// and the root cause by production order (and captured inputs).
enum class VerdictTerms : std::uint8_t { schema, own };
std::string_view termsName(VerdictTerms t); // "schema", "own"

struct BufferResult {
    std::uint64_t step = 0;
    std::string group; // schema group id, or kOtherGroup for unclassified files
    std::string name;  // schema buffer name; for unclassified files the name's <rest>
    // The file, relative to the run: "step_1_h_q_logits.bin", "rank0/step_1.pt". A tensor inside
    // a self-describing file also has its location in each run (they may differ: another header
    // length, another view of its storage); null for a raw dump, the whole file.
    std::string fileName;
    std::shared_ptr<const TensorLocation> locationA, locationB;
    // A side known from its run's capture log alone (no bytes): its fingerprint; else null.
    std::shared_ptr<const LoggedFingerprint> loggedA, loggedB;
    std::optional<std::uint64_t> rank; // the rank's directory number; none without ranks
    // Its place in production order within its step and rank (run A's, else run B's), and
    // what that order was read from. Schema order groups buffers; this is the order they were
    // produced, which the root cause of a run in its own terms follows.
    std::uint64_t dumpOrder = 0;
    OrderSource orderSource = OrderSource::names;
    DType dtype = DType::f32; // unclassified files are compared as bytes (u8)
    Status status = Status::equal;
    std::string error; // names the file and what is wrong when status == error
    BufferStats stats; // element counts and hashes always; the rest when the bytes differ
    Kind kind = Kind::bit_identical; // meaningful for compared pairs (equal, diverge, ...)
    // An element type with no arithmetic of dumpscope's (float8 fnuz, numpy's |V2 without a
    // schema type): compared as its bytes (dtype u8, a last dimension of the element's bytes),
    // and a difference is of kind bitwise.
    bool bitwiseOnly = false;
    // How the pair is read when the runs do not hold it as one file of one type each (null for
    // the others): its precisions and its shards, behind one pointer so that every pair's
    // bookkeeping stays small.
    std::shared_ptr<const PairReading> reading;
    // Set when the runs hold it at different float precisions: `dtype` is then the wide type,
    // `stats` are over the narrow side widened exactly, and the status is judged by the narrow
    // type's rounding (cross_precision.h): equal when every wide value rounds to its narrow one.
    const CrossPrecision* precision() const;
    // Set when a run holds it as shards on several ranks (--shard): the whole tensors are
    // compared, each side's pieces joined along the axis; `rank` is the lowest of both runs'.
    const ShardedPair* shards() const;
    // Set when this rank's copy of a replicated tensor (--replicated) is not its peers' in a run
    // (or both): the status is then diverge and the kind cross_rank, whatever the two runs'
    // copies at this rank say of each other; null otherwise.
    const std::vector<CrossRankDivergence>* crossRank() const;
    std::vector<std::uint64_t> shape; // resolved dims, outermost first; empty when flat
    std::string shapeError;           // why the buffer's shape did not resolve (then flat)
    bool pending = true; // not compared yet (plan(), or an analysis cancelled before it)
    // The buffers that fed it, by name at the same step and rank, as a capture recorded them
    // (DumpFile::inputs); none when unknown.
    std::optional<std::vector<std::string>> inputs;
};

struct GroupCell {
    std::string group;                // group id or kOtherGroup
    Status status = Status::missing;  // diverge > error > one-sided > equal > missing
    std::vector<std::size_t> buffers; // indices into Analysis::buffers, in schema order
    std::size_t nDivergent = 0;
    std::size_t nPending = 0;
    double maxAbsDelta = 0; // over the cell's divergent buffers
};

struct StepResult {
    std::uint64_t step = 0;
    std::vector<GroupCell> cells; // one per schema group, then "other" when unclassified exist
};

// The reference's decision-tree branches, and not_compared (ours): nothing was compared (a run
// error, or no selected step dumped), which the reference calls all_equal. It is never a match.
// own_terms (ours): a divergence in a run read in its own terms (VerdictTerms::own), where the
// reference's tree does not apply; its text is the root cause in production order.
enum class DecisionCase {
    all_equal,
    g_only,
    h_without_g,
    i,
    j,
    unexpected,
    not_compared,
    own_terms
};
std::string_view decisionCaseName(DecisionCase c);

// A buffer dumped at a step that has no trustworthy pair result there, so it says nothing about
// whether its group is equal: in one run only, unreadable, changed while being read, or never
// compared (a cancelled analysis).
struct UnjudgedBuffer {
    std::string name;
    Status status = Status::only_in_a; // only_in_a, only_in_b, error or changed_while_reading
    bool pending = false;              // not compared at all; `status` is then meaningless
};
// "only in run B", "unreadable", "changed while reading", "not compared".
std::string_view unjudgedReason(const UnjudgedBuffer& b);

struct CulpritRow {
    std::string group; // id
    std::string label;
    bool present = false;                      // any buffer of the group compared at that step
    std::vector<std::string> divergentBuffers; // names, schema order
    // The group's buffers at that step without a pair result, schema order. A group with none
    // divergent but some of these is not known to be equal: it is "not judged".
    std::vector<UnjudgedBuffer> unjudged;
};
// Neither divergent nor known to be equal at the culprit table's step.
inline bool notJudged(const CulpritRow& row) {
    return row.divergentBuffers.empty() && !row.unjudged.empty();
}

// An equal input of a root buffer, dumped at half precision: equal only at that precision.
struct HalfPrecisionInput {
    std::string buffer;
    DType dtype = DType::bf16; // f16 or bf16
};

// A divergent buffer at the root cause's step none of whose inputs diverges.
struct RootSource {
    std::string group;
    std::string buffer;
    DType dtype = DType::f32;
    Kind kind = Kind::bit_identical;
    bool declaredInputs = false; // judged by its own "inputs", not by its group's dataflow
    // Its equal inputs dumped as f16/bf16 while it, or a buffer it feeds, is wider (or every
    // float dump at the step is half precision): the true source may lie upstream of them.
    std::vector<HalfPrecisionInput> halfPrecisionInputs;
    std::optional<std::uint64_t> rank; // own terms: the rank it is a root on; none without ranks
};

// A divergent buffer that declares "inputs", none of which diverges but some of which could not
// be judged: it is the source only if those are equal.
struct UndecidedBuffer {
    std::string group;
    std::string buffer;
    std::vector<UnjudgedBuffer> unjudgedInputs; // schema order
};

// A divergent group fed, by group-level dataflow alone (its divergent buffers declare no
// "inputs"), by only a few divergent upstream buffers: whether it reads them, or is a second
// source, the schema does not say.
struct UnclearSource {
    std::string group;
    std::vector<std::string> buffers;         // its divergent buffers, schema order
    std::vector<std::string> divergentInputs; // "GROUP/buffer", the divergent upstream buffers
    // The "inputs" that would make those buffers sources: their group-level inputs without the
    // divergent ones, a group id where the whole group is left, else buffer names.
    std::vector<std::string> declaration;
};

struct RootCause {
    std::optional<std::uint64_t> step;
    std::vector<std::string> groups;  // divergent groups with no divergent direct upstream group
    std::vector<std::string> buffers; // divergent buffers in those groups, schema order
    std::vector<Kind> kinds;          // the root buffers' kinds, most severe first
    std::string suggestion;           // what the most severe kind suggests, naming its buffer
    // Divergent groups that no divergent group feeds but that a not-judged group does: the
    // divergence may have come in through that input, so they are not blamed. Schema order.
    std::vector<std::string> undecidedGroups;
    // The not-judged direct upstream groups of `undecidedGroups`, schema order.
    std::vector<std::string> unjudgedInputs;
    // Buffer-level dataflow (a buffer's "inputs", else its group's edges). `groups` are those
    // holding a source and `buffers` the sources, so a schema without "inputs" gives the
    // group-level answer. Every source at the step, schema order:
    std::vector<RootSource> sources;
    // Divergent buffers with declared inputs that could not all be judged (their groups are in
    // `undecidedGroups`); schema order.
    std::vector<UndecidedBuffer> undecidedBuffers;
    // Groups that may be second sources (see UnclearSource); schema order.
    std::vector<UnclearSource> unclearSources;
    // When the schema's dataflow says nothing of the sources' groups (self-describing dumps read
    // without a schema): the first divergent buffer at the step in dump order, the order of the
    // keys in its file ("GROUP/buffer"), and its rank. Empty when the dataflow decides.
    std::string earliest;
    std::optional<std::uint64_t> earliestRank;
    // The ranks with a divergent buffer at the step, ascending; empty without ranks.
    std::vector<std::uint64_t> ranks;
    // Own terms: the step's divergent buffers that are not roots, produced after them, by name
    // in production order (a name once, whatever its ranks). Empty in schema terms.
    std::vector<std::string> downstream;
    // Own terms: what the roots' production order was read from.
    std::optional<OrderSource> order;
};

struct Verdict {
    int exitCode = 0;
    std::optional<std::uint64_t> firstDivergentStep;
    // The lowest rank with a divergent buffer at firstDivergentStep; none without ranks.
    std::optional<std::uint64_t> firstDivergentRank;
    std::vector<std::string> divergedGroups; // ids, schema order
    DecisionCase decisionCase = DecisionCase::all_equal;
    // The reference's "Next-step interpretation" lines for the case (or its all-equal verdict),
    // exactly as the reference prints them, joined with newlines; not_compared: why not.
    std::string text;
    std::vector<CulpritRow> culprits; // per schema group at the first divergent step
    RootCause rootCause;
    // Buffers in one run only, over every step: never compared, so a match or a verdict covers
    // the others only and must say so.
    std::size_t nOneSided = 0;
};

struct Analysis {
    std::filesystem::path runA, runB;
    std::shared_ptr<const Schema> schema;
    std::string errorA, errorB;       // run directory missing / unreadable
    std::vector<std::uint64_t> steps; // every step found in either run, ascending
    // Chunked so that a copy shares what it does not change (the window's snapshots).
    ChunkedVector<BufferResult> buffers; // by step, then schema order, then unclassified by name
    ChunkedVector<StepResult> matrix;    // one per entry of `steps`
    // File names of unclassified step files. Chunked like `buffers`: a run may hold 100,000, and
    // every snapshot of an analysis in flight is a copy of it.
    ChunkedVector<std::string> unclassified;
    std::vector<std::string> warnings;
    bool ranked = false;           // the runs have a directory per rank: each buffer has its rank
    Tolerance tolerance;           // as given; within_tolerance statuses follow it
    bool verdictTolerance = false; // true: within_tolerance buffers do not count as divergent
    double roundingThreshold = kDefaultRoundingThreshold;
    Verdict verdict;
    VerdictTerms terms = VerdictTerms::schema; // decided once, by the plan
    // The dotted-name depth the groups of buffers without a schema were cut at (0: none were).
    std::size_t groupDepth = 0;
    // The groups of AnalyzeOptions::openedGroups that were opened: a name went deeper than each.
    std::set<std::string> openedGroups;
    bool cancelled = false;
    // The noise floor the pair was read over (applyNoiseFloor), or null: within_floor buffers
    // are judged against it.
    std::shared_ptr<const NoiseFloor> noiseFloor;
    // The pairs made between differently named buffers and the names left unpaired; null when
    // buffers paired by name alone. A paired buffer is reported as "A name → B name".
    std::shared_ptr<const NameAlignment> alignment;
    // With AnalyzeOptions::keepListing: both runs' files as the plan listed them, and when, on
    // the steady clock. A watch that takes them as its first listing judges every later change
    // against what was compared, and lists the runs once less. Null otherwise.
    std::shared_ptr<const PairListing> listing;
    std::chrono::steady_clock::time_point listedAt{};
};

// Whether a buffer of this status counts as a divergence for the verdict and the matrix:
// within-tolerance differences do only when the verdict is bitwise.
inline bool countsAsDivergent(Status s, bool verdictTolerance) {
    return isDivergent(s) || (s == Status::within_tolerance && !verdictTolerance);
}
inline bool countsAsDivergent(const Analysis& an, Status s) {
    return countsAsDivergent(s, an.verdictTolerance);
}

} // namespace dumpscope

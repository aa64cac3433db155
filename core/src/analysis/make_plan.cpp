#include "analysis/make_plan.h"

#include "dumpscope/scan.h"
#include "dumpscope/shape.h"
#include "dumpscope/step_completion.h"
#include "formats/element_parts.h"
#include "io/fingerprint_log.h"
#include "io/refused_files.h"

#include "analysis/align_runs.h"
#include "analysis/count_plans.h"
#include "analysis/dump_gaps.h"
#include "analysis/plan_schema.h"
#include "analysis/production_order.h"
#include "analysis/shards.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

namespace dumpscope::detail {

namespace fs = std::filesystem;

namespace {

// Both runs as listed, each file numbered in production order, with what each step and rank of
// a run was ordered by.
struct ScannedPair {
    RunScan a, b;
    OrderSources orderA, orderB;
};

// Scans both runs and pairs the names of their buffers (alignRuns). A run that cannot be read or
// holds no dumps is its error in `an`, and so is a run B the map cannot pair or that is another
// model's; both scans' warnings go to `an`. The plan goes on only when neither run has an error.
ScannedPair scanPair(Analysis& an, const fs::path& runA, const fs::path& runB,
                     const AnalyzeOptions& options) {
    const ScanOptions scanOptions{options.layout, true, options.keepListing};
    ScannedPair s{scanRun(runA, scanOptions), scanRun(runB, scanOptions), {}, {}};
    if (options.keepListing) {
        an.listedAt = std::chrono::steady_clock::now();
        an.listing = std::make_shared<const PairListing>(pairListing(s.a, s.b));
    }
    s.orderA = assignProductionOrder(s.a);
    s.orderB = assignProductionOrder(s.b);
    an.errorA = s.a.error;
    an.errorB = s.b.error;
    // Nothing to compare is not "identical": a folder without dumps is the run's error.
    if (an.errorA.empty() && s.a.files.empty()) an.errorA = noDumpFilesError(runA);
    if (an.errorB.empty() && s.b.files.empty()) an.errorB = noDumpFilesError(runB);
    for (const auto* scan : {&s.a, &s.b})
        an.warnings.insert(an.warnings.end(), scan->warnings.begin(), scan->warnings.end());
    std::error_code ec;
    if (s.a.error.empty() && s.b.error.empty() && fs::equivalent(runA, runB, ec))
        an.warnings.push_back("run A and run B are the same directory (" + runA.string() +
                              "): every buffer compares equal to itself");
    if (an.errorA.empty() && an.errorB.empty()) {
        auto aligned = alignRuns(s.a, s.b, options.align, options.nameMap.get());
        an.alignment = std::move(aligned.alignment);
        an.errorB = std::move(aligned.error);
    }
    if (an.errorA.empty() && an.errorB.empty()) an.errorB = otherModelError(s.a, s.b);
    return s;
}

// Gives each run the error buffers of the tensors the other refused, then joins the shards of
// the buffers that the options' rules, then the schema's, name (the first rule that matches
// decides).
ShardedPairs joinRuns(ScannedPair& s, const AnalyzeOptions& options) {
    spreadRefusals(s.a, s.b);
    spreadRefusals(s.b, s.a);
    std::vector<ShardRule> shardRules = options.shards;
    if (options.schema)
        shardRules.insert(shardRules.end(), options.schema->shards.begin(),
                          options.schema->shards.end());
    return joinShards(s.a, s.b, shardRules);
}

ByStep pairByStep(const ScannedPair& s) {
    ByStep byStep;
    for (const auto& [key, f] : s.a.files)
        byStep[key.step][{key.rank, key.name}].first = &f;
    for (const auto& [key, f] : s.b.files)
        byStep[key.step][{key.rank, key.name}].second = &f;
    return byStep;
}

// A side known from its run's capture log alone, as the compare reads it; null otherwise.
std::shared_ptr<const LoggedFingerprint> loggedSide(const DumpFile* f) {
    if (!f || !f->fingerprintOnly || !f->fingerprint) return nullptr;
    return std::make_shared<const LoggedFingerprint>(
        LoggedFingerprint{f->fileName, *f->fingerprint,
                          f->dtype ? std::string(dtypeName(*f->dtype)) : f->typeName, f->shape});
}

// What every buffer's listing reads: the analysis it is added to and what the earlier steps of
// the plan settled.
struct PlanContext {
    Analysis& an;
    const AnalyzeOptions& options;
    const ScannedPair& scans;
    const ShardedPairs& shards;
    const BufferSpecIndex& index;
};

// Where a buffer is listed: its step and rank, and all of the step's files (a schema shape may
// be another buffer's length there).
struct Place {
    std::uint64_t step;
    std::uint64_t rank;
    const ByStep::mapped_type& files;
};

// r.shape (or r.shapeError): the shape --shape gives the buffer, else a self-describing file's
// own, else the schema's `shapeSpec` resolved against the step's buffers. `dtype` is what the
// file's elements are counted in.
void shapeBuffer(BufferResult& r, const PlanContext& c, const Place& at, const DumpFile& f,
                 const std::string& name, DType dtype, const std::vector<std::string>& shapeSpec,
                 std::uint64_t parts) {
    auto lengthOf = [&](const std::string& named) -> std::optional<std::uint64_t> {
        const BufferSpec* spec = c.index.named(named);
        if (!spec) return std::nullopt;
        auto it = at.files.find({at.rank, spec->file});
        if (it == at.files.end()) it = at.files.find({at.rank, spec->name});
        if (it == at.files.end()) return std::nullopt;
        return either(it->second).size / dtypeSize(spec->dtype);
    };
    const auto& shapes = c.options.shapes;
    auto wanted = shapes.find(name);
    // A buffer paired under another name is typed a shape by run A's name.
    if (wanted == shapes.end() && c.an.alignment && name != f.rest) wanted = shapes.find(f.rest);
    if (f.described && wanted == shapes.end()) {
        // Against a fingerprint the whole shape is compared, one dimension too.
        if (f.shape.size() >= 2 || parts > 1 || r.loggedA || r.loggedB) r.shape = f.shape;
        if (parts > 1) r.shape.push_back(parts);
    } else {
        const auto& spec = wanted != shapes.end() ? wanted->second : shapeSpec;
        auto shape = resolveShape(spec, *c.an.schema, lengthOf, f.size / dtypeSize(dtype));
        r.shape = std::move(shape.dims);
        r.shapeError = std::move(shape.error);
    }
}

// r.reading: the two precisions a pair of floats is compared across, or the shards its sides
// are joined from; never both, which is the buffer's error.
void planReading(BufferResult& r, const PlanContext& c, const Place& at, const FilePair& pair,
                 const std::string& name) {
    PairReading reading;
    if (r.error.empty() && !r.loggedA && !r.loggedB) reading.precision = acrossPrecisions(pair);
    if (reading.precision) r.dtype = reading.precision->wide;
    const DumpFile& f = either(pair);
    if (const auto s = c.shards.find({at.step, f.rest}); s != c.shards.end()) {
        reading.shards = s->second;
        if (reading.precision) { // one rule at a time: shards are joined at one type
            r.error = c.an.runB.string() + "/" + f.fileName + ": tensor \"" + name +
                      "\" is held as shards and at two precisions; not compared";
            r.status = Status::error;
            reading.precision.reset();
        }
    }
    if (reading.precision || reading.shards)
        r.reading = std::make_shared<const PairReading>(std::move(reading));
}

// Appends the pending BufferResult of `pair` to c.an.buffers, under `group` and `name`, compared
// as `dtype` (`rawType`: the type the schema or file declares, which the runs must agree on).
// `parts` > 1: a type of no arithmetic of ours, each element compared as its bytes.
void addBuffer(const PlanContext& c, const Place& at, const std::string& group,
               const std::string& name, DType dtype, DType rawType, const FilePair& pair,
               const std::vector<std::string>& shapeSpec, std::string error = {},
               std::uint64_t parts = 1, bool bitwise = false) {
    Analysis& an = c.an;
    const DumpFile& f = either(pair);
    BufferResult r;
    r.error = std::move(error);
    r.step = at.step;
    r.group = group;
    r.name = name;
    r.dtype = dtype;
    r.fileName = f.fileName;
    if (an.ranked) r.rank = at.rank;
    r.dumpOrder = f.order;
    const auto& orders = pair.first ? c.scans.orderA : c.scans.orderB;
    if (const auto source = orders.find({at.step, at.rank}); source != orders.end())
        r.orderSource = source->second;
    r.status = !pair.first ? Status::only_in_b : !pair.second ? Status::only_in_a : Status::equal;
    if (pair.first) r.locationA = pair.first->location;
    if (pair.second) r.locationB = pair.second->location;
    r.loggedA = loggedSide(pair.first);
    r.loggedB = loggedSide(pair.second);
    r.inputs = pair.first && pair.first->inputs ? pair.first->inputs
               : pair.second                    ? pair.second->inputs
                                                : std::nullopt;
    r.bitwiseOnly = bitwise;
    for (auto* side : {&r.locationA, &r.locationB})
        if (parts > 1 && *side)
            *side = std::make_shared<const TensorLocation>(splitElements(**side, parts));
    shapeBuffer(r, c, at, f, name, dtype, shapeSpec, parts);
    // What the plan already knows is wrong: a run's file or tensor was refused (both runs'
    // messages when both were), or the runs disagree on what the tensor is. Such a buffer is an
    // error, never compared.
    for (const DumpFile* side : {pair.first, pair.second})
        if (side && !side->error.empty() && r.error.find(side->error) == std::string::npos)
            r.error += (r.error.empty() ? "" : "; ") + side->error;
    // Against a fingerprint another type or shape is a divergence the compare reports
    // (docs/reference/fingerprint.md), not a refusal.
    if (r.error.empty() && !r.loggedA && !r.loggedB)
        r.error = identityProblem(an, pair, name, rawType);
    if (!r.error.empty()) r.status = Status::error;
    planReading(r, c, at, pair, name);
    an.buffers.push_back(std::move(r));
}

// How a schema buffer's file is compared.
struct SchemaTyping {
    DType dtype;
    std::string error; // the file's type cannot be compared as the schema's buffer: why
    std::uint64_t parts = 1;
    bool bitwise = false;
};

// A header's type is the truth about the bytes; the schema's fills in what the header cannot
// say (numpy's <V2 for bf16). A type of no arithmetic of ours is otherwise compared as its
// bytes, u8: the schema's type for it when it names none.
SchemaTyping typeBySchema(const Analysis& an, const BufferSpec& buffer, const DumpFile& f) {
    SchemaTyping t{buffer.dtype, {}, 1, false};
    const std::uint64_t count = f.described && f.location ? f.location->count : 0;
    const bool untyped = f.described && !f.dtype;
    if (f.described && f.dtype)
        t.dtype = *f.dtype;
    else if (untyped && buffer.dtype == DType::u8 && count > 0 && f.size % count == 0)
        t.parts = f.size / count;
    if (untyped && count > 0 && f.size == 0)
        t.error = an.runA.string() + ": tensor \"" + buffer.name + "\" (" + f.fileName +
                  ") has type " + f.typeName +
                  ", whose element size dumpscope cannot tell; not compared";
    else if (untyped && dtypeSize(t.dtype) * count * t.parts != f.size)
        t.error = an.runA.string() + ": tensor \"" + buffer.name + "\" (" + f.fileName +
                  ") has type " + f.typeName + ", which does not fit the schema's " +
                  std::string(dtypeName(buffer.dtype)) + "; not compared";
    t.bitwise = untyped && t.dtype == DType::u8;
    return t;
}

using RankFiles = std::vector<std::pair<const std::string*, const FilePair*>>;

// Lists one rank's buffers of a step: those the schema knows (the self-describing ones it was
// extended with included) in schema order, then the unclassified files in name order.
void listRank(const PlanContext& c, const Place& at, const RankFiles& rankFiles) {
    Analysis& an = c.an;
    const Schema& schema = *an.schema;
    std::vector<std::pair<std::pair<std::size_t, std::size_t>, const FilePair*>> known;
    RankFiles others;
    for (const auto& [rest, pair] : rankFiles) {
        if (auto where = c.index.find(schema, *rest))
            known.emplace_back(*where, pair);
        else
            others.emplace_back(rest, pair);
    }
    std::sort(known.begin(), known.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& [where, pair] : known) {
        const GroupSpec& group = schema.groups[where.first];
        const BufferSpec& buffer = group.buffers[where.second];
        SchemaTyping t = typeBySchema(an, buffer, either(*pair));
        addBuffer(c, at, group.id, buffer.name, t.dtype, buffer.dtype, *pair, buffer.shape,
                  std::move(t.error), t.parts, t.bitwise);
    }
    for (const auto& [rest, pair] : others) {
        addBuffer(c, at, kOtherGroup, an.alignment ? an.alignment->shownName(*rest) : *rest,
                  DType::u8, DType::u8, *pair, {});
        if (an.buffers.back().status != Status::error)
            an.unclassified.push_back(an.buffers.back().fileName);
    }
}

} // namespace

Analysis makePlan(const fs::path& runA, const fs::path& runB, const AnalyzeOptions& options) {
    if (hooks::countPlan) hooks::countPlan();
    Analysis an;
    an.runA = runA;
    an.runB = runB;
    an.tolerance = options.tolerance;
    an.verdictTolerance = options.verdictTolerance;
    an.roundingThreshold = options.roundingThreshold;
    an.schema = options.schema ? options.schema
                               : std::shared_ptr<const Schema>(std::shared_ptr<const Schema>{},
                                                               &defaultSchema());
    ScannedPair scans = scanPair(an, runA, runB, options);
    if (!an.errorA.empty() || !an.errorB.empty()) return an;
    an.ranked = scans.a.ranked || scans.b.ranked;
    const ShardedPairs shards = joinRuns(scans, options);
    const ByStep byStep = pairByStep(scans);
    BufferSpecIndex index;
    settleSchema(an, options, byStep, index);

    const PlanContext context{an, options, scans, shards, index};
    for (const auto& [step, files] : byStep) {
        if (options.steps && !options.steps->count(step)) continue;
        an.steps.push_back(step);
        // Ranks in order; within each, schema buffers in schema order, then self-describing
        // buffers in dump order, then unclassified files in name order.
        std::map<std::uint64_t, RankFiles> byRank;
        for (const auto& [key, pair] : files)
            byRank[key.first].emplace_back(&key.second, &pair);
        for (const auto& [rank, rankFiles] : byRank)
            listRank(context, Place{step, rank, files}, rankFiles);
    }
    if (an.steps.empty() && !byStep.empty()) // decide() makes it exit 2: nothing was compared
        an.warnings.push_back(
            "none of the selected steps is dumped in either run (they have steps " +
            std::to_string(byStep.begin()->first) + " to " +
            std::to_string(byStep.rbegin()->first) + "): nothing compared");
    warnGroupGaps(an);
    return an;
}

} // namespace dumpscope::detail

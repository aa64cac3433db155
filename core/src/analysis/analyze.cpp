#include "dumpscope/analyze.h"

#include "dumpscope/result_cache.h"
#include "dumpscope/scan.h"
#include "dumpscope/shape.h"
#include "formats/element_parts.h"
#include "io/fingerprint_log.h"
#include "io/refused_files.h"

#include "analysis/align_runs.h"
#include "analysis/count_plans.h"
#include "analysis/dump_gaps.h"
#include "analysis/lookup_count.h"
#include "analysis/name_groups.h"
#include "analysis/pair_identity.h"
#include "analysis/production_order.h"
#include "analysis/replicas.h"
#include "analysis/shards.h"
#include "compare/compare_sharded.h"
#include "compare/compare_widened.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

namespace dumpscope {

namespace fs = std::filesystem;

namespace {

struct Plan {
    Analysis analysis;
};

using detail::acrossPrecisions;
using detail::either;
using detail::FilePair;
using detail::identityProblem;

// A side known from its run's capture log alone, as the compare reads it; null otherwise.
std::shared_ptr<const LoggedFingerprint> loggedSide(const DumpFile* f) {
    if (!f || !f->fingerprintOnly || !f->fingerprint) return nullptr;
    return std::make_shared<const LoggedFingerprint>(
        LoggedFingerprint{f->fileName, *f->fingerprint,
                          f->dtype ? std::string(dtypeName(*f->dtype)) : f->typeName, f->shape});
}

using ByStep = std::map<std::uint64_t, std::map<std::pair<std::uint64_t, std::string>, FilePair>>;

// The self-describing buffers the schema does not know, each name once.
std::vector<std::string> undescribedNames(
    const ByStep& byStep,
    const std::unordered_map<std::string_view, std::pair<std::size_t, std::size_t>>& byFile,
    const std::unordered_map<std::string_view, const BufferSpec*>& byName) {
    std::set<std::string> names;
    for (const auto& [step, files] : byStep)
        for (const auto& [key, pair] : files) {
            const DumpFile& f = either(pair);
            if (f.described && f.dtype && f.group.empty() && !byFile.count(f.rest) &&
                !byName.count(f.rest))
                names.insert(f.rest);
        }
    return {names.begin(), names.end()};
}

// The schema the analysis reads with: the given one, plus a group for each self-describing
// buffer it does not know, in production order, so that the matrix has useful columns without
// a schema being written. The groups are the layout's {group}, else the module tree's.
std::shared_ptr<const Schema> extendSchema(
    std::shared_ptr<const Schema> base, const ByStep& byStep,
    const std::unordered_map<std::string_view, std::pair<std::size_t, std::size_t>>& byFile,
    const std::unordered_map<std::string_view, const BufferSpec*>& byName,
    const detail::NameGrouping& grouping, const NameAlignment* alignment) {
    std::shared_ptr<Schema> extended;
    std::unordered_map<std::string, std::size_t> groupAt; // id -> index in extended->groups
    std::set<std::string> seen;
    for (const auto& [step, files] : byStep) {
        std::vector<const FilePair*> described;
        for (const auto& [key, pair] : files) {
            const DumpFile& f = either(pair);
            if ((!f.described && f.error.empty()) || byFile.count(f.rest) || byName.count(f.rest) ||
                seen.count(f.rest))
                continue;
            described.push_back(&pair);
        }
        std::stable_sort(described.begin(), described.end(), [](const auto* x, const auto* y) {
            const DumpFile &a = either(*x), &b = either(*y);
            return std::pair{a.rank, a.order} < std::pair{b.rank, b.order};
        });
        for (const FilePair* pair : described) {
            const DumpFile& f = either(*pair);
            if (!seen.insert(f.rest).second) continue;
            if (!extended) {
                extended = std::make_shared<Schema>(*base);
                for (std::size_t i = 0; i < extended->groups.size(); ++i)
                    groupAt.emplace(extended->groups[i].id, i); // the first of an id
            }
            const std::string id = f.group.empty() ? grouping.groupOf(f.rest) : f.group;
            // By index, not by scan: every buffer may be a group of its own.
            detail::countNameLookups(1);
            const auto [at, added] = groupAt.emplace(id, extended->groups.size());
            if (added) extended->groups.push_back({id, id, {}});
            // A type of no arithmetic of ours is compared as its bytes; a refused file has none.
            extended->groups[at->second].buffers.push_back(
                {alignment ? alignment->shownName(f.rest) : f.rest,
                 f.rest,
                 f.dtype.value_or(DType::u8),
                 {}});
        }
    }
    return extended ? std::shared_ptr<const Schema>(std::move(extended)) : base;
}

Plan makePlan(const fs::path& runA, const fs::path& runB, const AnalyzeOptions& options) {
    if (detail::hooks::countPlan) detail::hooks::countPlan();
    Plan p;
    Analysis& an = p.analysis;
    an.runA = runA;
    an.runB = runB;
    an.tolerance = options.tolerance;
    an.verdictTolerance = options.verdictTolerance;
    an.roundingThreshold = options.roundingThreshold;
    an.schema = options.schema ? options.schema
                               : std::shared_ptr<const Schema>(std::shared_ptr<const Schema>{},
                                                               &defaultSchema());
    const ScanOptions scanOptions{options.layout};
    RunScan scanA = scanRun(runA, scanOptions), scanB = scanRun(runB, scanOptions);
    const detail::OrderSources orderA = detail::assignProductionOrder(scanA),
                               orderB = detail::assignProductionOrder(scanB);
    an.errorA = scanA.error;
    an.errorB = scanB.error;
    // Nothing to compare is not "identical": a folder without dumps is the run's error.
    if (an.errorA.empty() && scanA.files.empty()) an.errorA = noDumpFilesError(runA);
    if (an.errorB.empty() && scanB.files.empty()) an.errorB = noDumpFilesError(runB);
    for (const auto* scan : {&scanA, &scanB})
        an.warnings.insert(an.warnings.end(), scan->warnings.begin(), scan->warnings.end());
    std::error_code ec;
    if (scanA.error.empty() && scanB.error.empty() && fs::equivalent(runA, runB, ec))
        an.warnings.push_back("run A and run B are the same directory (" + runA.string() +
                              "): every buffer compares equal to itself");
    if (an.errorA.empty() && an.errorB.empty()) {
        auto aligned = detail::alignRuns(scanA, scanB, options.align, options.nameMap.get());
        an.alignment = std::move(aligned.alignment);
        an.errorB = std::move(aligned.error);
    }
    if (an.errorA.empty() && an.errorB.empty()) an.errorB = detail::otherModelError(scanA, scanB);
    if (!an.errorA.empty() || !an.errorB.empty()) return p;
    an.ranked = scanA.ranked || scanB.ranked;
    detail::spreadRefusals(scanA, scanB);
    detail::spreadRefusals(scanB, scanA);
    std::vector<ShardRule> shardRules = options.shards; // the first rule that matches decides
    if (options.schema)
        shardRules.insert(shardRules.end(), options.schema->shards.begin(),
                          options.schema->shards.end());
    const detail::ShardedPairs shards = detail::joinShards(scanA, scanB, shardRules);

    // Every (step, rank, name) in either run, in step order.
    ByStep byStep;
    for (const auto& [key, f] : scanA.files)
        byStep[key.step][{key.rank, key.name}].first = &f;
    for (const auto& [key, f] : scanB.files)
        byStep[key.step][{key.rank, key.name}].second = &f;

    // The schema's buffers by file and by name, looked up once per file: a schema may list tens
    // of thousands of buffers, and searching it for each file would be quadratic.
    std::unordered_map<std::string_view, std::pair<std::size_t, std::size_t>> byFile;
    std::unordered_map<std::string_view, const BufferSpec*> byName;
    auto index = [&](const Schema& schema) {
        byFile.clear();
        byName.clear();
        for (std::size_t g = 0; g < schema.groups.size(); ++g)
            for (std::size_t i = 0; i < schema.groups[g].buffers.size(); ++i) {
                const BufferSpec& spec = schema.groups[g].buffers[i];
                byFile.emplace(spec.file, std::pair{g, i});
                byName.emplace(spec.name, &spec);
            }
    };
    index(*an.schema);
    // The verdict speaks the schema's terms when the user gave it, or when the runs' files are
    // its buffers; else the runs' own (VerdictTerms), and none of its groups is shown.
    const bool anyKnown = std::any_of(byStep.begin(), byStep.end(), [&](const auto& step) {
        return std::any_of(step.second.begin(), step.second.end(), [&](const auto& file) {
            const std::string& rest = file.first.second;
            return byFile.count(rest) > 0 || byName.count(rest) > 0;
        });
    });
    if (!options.schema && !anyKnown) {
        an.terms = VerdictTerms::own;
        an.schema = std::make_shared<const Schema>();
        index(*an.schema);
    }
    const std::vector<std::string> undescribed = undescribedNames(byStep, byFile, byName);
    const detail::NameGrouping grouping(undescribed, options.groupDepth, options.openedGroups);
    if (!undescribed.empty()) an.groupDepth = grouping.depth();
    an.openedGroups = grouping.opened();
    if (auto extended =
            extendSchema(an.schema, byStep, byFile, byName, grouping, an.alignment.get());
        extended != an.schema) {
        an.schema = std::move(extended);
        index(*an.schema);
    }
    const Schema& schema = *an.schema;
    // A tensor key may name a schema buffer by its name as well as by its file's basename.
    auto find = [&](const std::string& rest) -> std::optional<std::pair<std::size_t, std::size_t>> {
        if (auto it = byFile.find(rest); it != byFile.end()) return it->second;
        if (auto it = byName.find(rest); it != byName.end())
            return schema.findFile(it->second->file);
        return std::nullopt;
    };
    for (const auto& stepFiles : byStep) {
        // Named, not a structured binding: the lambdas below capture them (clang 14, Debian's,
        // which the fuzz build uses, cannot capture structured bindings).
        const std::uint64_t step = stepFiles.first;
        const auto& files = stepFiles.second;
        if (options.steps && !options.steps->count(step)) continue;
        an.steps.push_back(step);
        // Ranks in order; within each, schema buffers in schema order, then self-describing
        // buffers in dump order, then unclassified files in name order.
        std::map<std::uint64_t, std::vector<std::pair<const std::string*, const FilePair*>>> byRank;
        for (const auto& [key, pair] : files)
            byRank[key.first].emplace_back(&key.second, &pair);
        for (const auto& rankFiles : byRank) {
            const std::uint64_t rank = rankFiles.first;
            auto lengthOf = [&](const std::string& name) -> std::optional<std::uint64_t> {
                const auto named = byName.find(name);
                if (named == byName.end()) return std::nullopt;
                const BufferSpec* spec = named->second;
                auto it = files.find({rank, spec->file});
                if (it == files.end()) it = files.find({rank, spec->name});
                if (it == files.end()) return std::nullopt;
                return either(it->second).size / dtypeSize(spec->dtype);
            };
            // `parts` > 1: a type of no arithmetic of ours, each element compared as its bytes.
            auto add = [&](const std::string& group, const std::string& name, DType dtype,
                           DType rawType, const FilePair& pair,
                           const std::vector<std::string>& shapeSpec, std::string error = {},
                           std::uint64_t parts = 1, bool bitwise = false) {
                const DumpFile& f = either(pair);
                BufferResult r;
                r.error = std::move(error);
                r.step = step;
                r.group = group;
                r.name = name;
                r.dtype = dtype;
                r.fileName = f.fileName;
                if (an.ranked) r.rank = rank;
                r.dumpOrder = f.order;
                const auto& orders = pair.first ? orderA : orderB;
                if (const auto source = orders.find({step, rank}); source != orders.end())
                    r.orderSource = source->second;
                r.status = !pair.first    ? Status::only_in_b
                           : !pair.second ? Status::only_in_a
                                          : Status::equal;
                if (pair.first) r.locationA = pair.first->location;
                if (pair.second) r.locationB = pair.second->location;
                r.loggedA = loggedSide(pair.first);
                r.loggedB = loggedSide(pair.second);
                r.inputs = pair.first && pair.first->inputs ? pair.first->inputs
                           : pair.second                    ? pair.second->inputs
                                                            : std::nullopt;
                r.bitwiseOnly = bitwise;
                for (auto* at : {&r.locationA, &r.locationB})
                    if (parts > 1 && *at)
                        *at = std::make_shared<const TensorLocation>(
                            detail::splitElements(**at, parts));
                auto wanted = options.shapes.find(name);
                // A buffer paired under another name is typed a shape by run A's name.
                if (wanted == options.shapes.end() && an.alignment && name != f.rest)
                    wanted = options.shapes.find(f.rest);
                if (f.described && wanted == options.shapes.end()) {
                    // Against a fingerprint the whole shape is compared, one dimension too.
                    if (f.shape.size() >= 2 || parts > 1 || r.loggedA || r.loggedB)
                        r.shape = f.shape;
                    if (parts > 1) r.shape.push_back(parts);
                } else {
                    const auto& spec = wanted != options.shapes.end() ? wanted->second : shapeSpec;
                    auto shape = resolveShape(spec, schema, lengthOf, f.size / dtypeSize(dtype));
                    r.shape = std::move(shape.dims);
                    r.shapeError = std::move(shape.error);
                }
                // What the plan already knows is wrong: a run's file or tensor was refused
                // (both runs' messages when both were), or the runs disagree on what the
                // tensor is. Such a buffer is an error, never compared.
                for (const DumpFile* side : {pair.first, pair.second})
                    if (side && !side->error.empty() &&
                        r.error.find(side->error) == std::string::npos)
                        r.error += (r.error.empty() ? "" : "; ") + side->error;
                // Against a fingerprint another type or shape is a divergence the compare
                // reports (docs/reference/fingerprint.md), not a refusal.
                if (r.error.empty() && !r.loggedA && !r.loggedB)
                    r.error = identityProblem(an, pair, name, rawType);
                if (!r.error.empty()) r.status = Status::error;
                PairReading reading;
                if (r.error.empty() && !r.loggedA && !r.loggedB)
                    reading.precision = acrossPrecisions(pair);
                if (reading.precision) r.dtype = reading.precision->wide;
                if (const auto s = shards.find({step, f.rest}); s != shards.end()) {
                    reading.shards = s->second;
                    if (reading.precision) { // one rule at a time: shards are joined at one type
                        r.error = an.runB.string() + "/" + f.fileName + ": tensor \"" + name +
                                  "\" is held as shards and at two precisions; not compared";
                        r.status = Status::error;
                        reading.precision.reset();
                    }
                }
                if (reading.precision || reading.shards)
                    r.reading = std::make_shared<const PairReading>(std::move(reading));
                an.buffers.push_back(std::move(r));
            };
            std::vector<std::pair<std::pair<std::size_t, std::size_t>, const FilePair*>> known;
            std::vector<std::pair<const std::string*, const FilePair*>> others;
            for (const auto& [rest, pair] : rankFiles.second) {
                if (auto at = find(*rest))
                    known.emplace_back(*at, pair);
                else
                    others.emplace_back(rest, pair);
            }
            std::sort(known.begin(), known.end(),
                      [](const auto& x, const auto& y) { return x.first < y.first; });
            for (const auto& [at, pair] : known) {
                const GroupSpec& group = schema.groups[at.first];
                const BufferSpec& buffer = group.buffers[at.second];
                const DumpFile& f = either(*pair);
                // A header's type is the truth about the bytes; the schema's fills in what the
                // header cannot say (numpy's <V2 for bf16). A type of no arithmetic of ours is
                // otherwise compared as its bytes, u8: the schema's type for it when it names
                // none.
                DType dtype = buffer.dtype;
                std::string error;
                std::uint64_t parts = 1;
                const std::uint64_t count = f.described && f.location ? f.location->count : 0;
                const bool untyped = f.described && !f.dtype;
                if (f.described && f.dtype)
                    dtype = *f.dtype;
                else if (untyped && buffer.dtype == DType::u8 && count > 0 && f.size % count == 0)
                    parts = f.size / count;
                if (untyped && count > 0 && f.size == 0)
                    error = an.runA.string() + ": tensor \"" + buffer.name + "\" (" + f.fileName +
                            ") has type " + f.typeName +
                            ", whose element size dumpscope cannot tell; not compared";
                else if (untyped && dtypeSize(dtype) * count * parts != f.size)
                    error = an.runA.string() + ": tensor \"" + buffer.name + "\" (" + f.fileName +
                            ") has type " + f.typeName + ", which does not fit the schema's " +
                            std::string(dtypeName(buffer.dtype)) + "; not compared";
                add(group.id, buffer.name, dtype, buffer.dtype, *pair, buffer.shape,
                    std::move(error), parts, untyped && dtype == DType::u8);
            }
            for (const auto& [rest, pair] : others) {
                add(kOtherGroup, an.alignment ? an.alignment->shownName(*rest) : *rest, DType::u8,
                    DType::u8, *pair, {});
                if (an.buffers.back().status != Status::error)
                    an.unclassified.push_back(an.buffers.back().fileName);
            }
        }
    }
    if (an.steps.empty() && !byStep.empty()) // decide() makes it exit 2: nothing was compared
        an.warnings.push_back(
            "none of the selected steps is dumped in either run (they have steps " +
            std::to_string(byStep.begin()->first) + " to " +
            std::to_string(byStep.rbegin()->first) + "): nothing compared");
    detail::warnGroupGaps(an);
    return p;
}

} // namespace

Analysis plan(const fs::path& runA, const fs::path& runB, const AnalyzeOptions& options) {
    Analysis an = makePlan(runA, runB, options).analysis;
    summarize(an);
    return an;
}

Analysis analyze(const fs::path& runA, const fs::path& runB, const AnalyzeOptions& options,
                 const ProgressFn& progress) {
    return analyzePlanned(makePlan(runA, runB, options).analysis, options, progress);
}

Analysis analyzePlanned(Analysis an, const AnalyzeOptions& options, const ProgressFn& progress) {
    // A plan the caller copied (the window keeps one to show) shares its chunks with `an`; the
    // threads below write distinct elements, which is safe only in chunks `an` alone holds.
    an.buffers.detach();
    const std::size_t total = an.buffers.size();

    std::atomic<std::size_t> next{0};
    std::atomic<bool> stop{false};
    std::size_t done = 0;
    std::mutex progressMutex;
    auto worker = [&] {
        for (;;) {
            if (stop.load(std::memory_order_relaxed)) return;
            const std::size_t i = next.fetch_add(1);
            if (i >= total) return;
            // No copy of `an` exists while the pool runs and its chunks are its own, so taking a
            // slot never replaces one: the threads write distinct elements, as in a vector.
            BufferResult& slot = an.buffers[i];
            if (slot.status == Status::error) { // refused by the plan: nothing to read
                slot.pending = false;
                std::lock_guard lock(progressMutex);
                ++done;
                if (progress && !progress(i, slot, done, total)) stop = true;
                continue;
            }
            CompareOptions compare{options.tolerance, options.roundingThreshold, slot.shape};
            const BufferSource a = sourceA(an, slot), b = sourceB(an, slot);
            // A pair across precisions is read as two types, which the cache does not key.
            BufferResult r =
                slot.shards()
                    ? detail::compareSharded(an.runA, an.runB, *slot.shards(), slot.dtype, compare)
                : slot.precision() ? detail::compareWidened(a, b, *slot.precision(), compare)
                : options.cache    ? options.cache->compare(a, b, slot.dtype, compare)
                                   : compareSources(a, b, slot.dtype, compare);
            r.shape = std::move(slot.shape);
            r.shapeError = std::move(slot.shapeError);
            r.step = slot.step;
            r.group = std::move(slot.group);
            r.name = std::move(slot.name);
            r.fileName = std::move(slot.fileName);
            r.locationA = std::move(slot.locationA);
            r.locationB = std::move(slot.locationB);
            r.loggedA = std::move(slot.loggedA);
            r.loggedB = std::move(slot.loggedB);
            r.inputs = std::move(slot.inputs);
            r.rank = slot.rank;
            r.dumpOrder = slot.dumpOrder;
            r.bitwiseOnly = slot.bitwiseOnly;
            if (!r.reading) r.reading = std::move(slot.reading);
            if (r.bitwiseOnly && (r.kind == Kind::discrete || r.kind == Kind::permuted))
                r.kind = Kind::bitwise; // the bytes of one element are not values of their own
            r.orderSource = slot.orderSource;
            r.pending = false;
            slot = std::move(r);
            std::lock_guard lock(progressMutex);
            ++done;
            if (progress && !progress(i, slot, done, total)) stop = true;
        }
    };
    // Results land in pre-assigned slots, so the output is the same for any thread count.
    unsigned threads =
        options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    threads =
        static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(total, 1)));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
    for (auto& t : pool)
        t.join();

    an.cancelled = stop.load();
    detail::checkReplicas(an, options.replicated);
    summarize(an);
    return an;
}

} // namespace dumpscope

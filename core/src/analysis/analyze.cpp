#include "dumpscope/analyze.h"

#include "dumpscope/result_cache.h"
#include "dumpscope/scan.h"
#include "dumpscope/shape.h"

#include "analysis/name_groups.h"
#include "analysis/production_order.h"

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

using FilePair = std::pair<const DumpFile*, const DumpFile*>;

const DumpFile& either(const FilePair& pair) {
    return pair.first ? *pair.first : *pair.second;
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
    const detail::NameGrouping& grouping) {
    std::shared_ptr<Schema> extended;
    std::set<std::string> seen;
    for (const auto& [step, files] : byStep) {
        std::vector<const FilePair*> described;
        for (const auto& [key, pair] : files) {
            const DumpFile& f = either(pair);
            if (!f.described || byFile.count(f.rest) || byName.count(f.rest) ||
                seen.count(f.rest) || !f.dtype)
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
            if (!extended) extended = std::make_shared<Schema>(*base);
            const std::string id = f.group.empty() ? grouping.groupOf(f.rest) : f.group;
            auto g = std::find_if(extended->groups.begin(), extended->groups.end(),
                                  [&](const GroupSpec& x) { return x.id == id; });
            if (g == extended->groups.end()) {
                extended->groups.push_back({id, id, {}});
                g = extended->groups.end() - 1;
            }
            g->buffers.push_back({f.rest, f.rest, *f.dtype, {}});
        }
    }
    return extended ? std::shared_ptr<const Schema>(std::move(extended)) : base;
}

Plan makePlan(const fs::path& runA, const fs::path& runB, const AnalyzeOptions& options) {
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
    if (!an.errorA.empty() || !an.errorB.empty()) return p;
    an.ranked = scanA.ranked || scanB.ranked;

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
    const detail::NameGrouping grouping(undescribed, options.groupDepth);
    if (!undescribed.empty()) an.groupDepth = grouping.depth();
    if (auto extended = extendSchema(an.schema, byStep, byFile, byName, grouping);
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
    std::set<std::string> unknownTypes;
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
            auto add = [&](const std::string& group, const std::string& name, DType dtype,
                           const FilePair& pair, const std::vector<std::string>& shapeSpec,
                           std::string error = {}) {
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
                auto wanted = options.shapes.find(name);
                if (f.described && wanted == options.shapes.end()) {
                    if (f.shape.size() >= 2) r.shape = f.shape;
                } else {
                    const auto& spec = wanted != options.shapes.end() ? wanted->second : shapeSpec;
                    auto shape = resolveShape(spec, schema, lengthOf, f.size / dtypeSize(dtype));
                    r.shape = std::move(shape.dims);
                    r.shapeError = std::move(shape.error);
                }
                // What the plan already knows is wrong: the file could not be listed, or the
                // runs' headers disagree on the element type.
                for (const DumpFile* side : {pair.first, pair.second})
                    if (side && !side->error.empty() && r.error.empty()) r.error = side->error;
                if (r.error.empty() && pair.first && pair.second && pair.first->described &&
                    pair.second->described && pair.first->dtype != pair.second->dtype)
                    r.error = an.runB.string() + "/" + pair.second->fileName + ": tensor \"" +
                              name + "\" is " + pair.second->typeName + " in run B but " +
                              pair.first->typeName + " in run A; not compared";
                if (!r.error.empty()) r.status = Status::error;
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
                // header cannot say (numpy's <V2 for bf16).
                DType dtype = buffer.dtype;
                std::string error;
                if (f.described && f.dtype)
                    dtype = *f.dtype;
                else if (f.described && dtypeSize(buffer.dtype) * f.location->count != f.size)
                    error = an.runA.string() + ": tensor \"" + buffer.name + "\" (" + f.fileName +
                            ") has type " + f.typeName + ", which does not fit the schema's " +
                            std::string(dtypeName(buffer.dtype)) + "; not compared";
                add(group.id, buffer.name, dtype, *pair, buffer.shape, std::move(error));
            }
            for (const auto& [rest, pair] : others) {
                const DumpFile& f = either(*pair);
                if (f.described && !f.dtype) {
                    if (unknownTypes.insert(*rest).second)
                        an.warnings.push_back(an.runA.string() + ": tensor \"" + *rest + "\" (" +
                                              f.fileName + ") has type " + f.typeName +
                                              ", which dumpscope does not compare; a schema "
                                              "naming the buffer can give its type");
                    continue;
                }
                add(kOtherGroup, *rest, DType::u8, *pair, {});
                an.unclassified.push_back(an.buffers.back().fileName);
            }
        }
    }
    if (an.steps.empty() && !byStep.empty()) // decide() makes it exit 2: nothing was compared
        an.warnings.push_back(
            "none of the selected steps is dumped in either run (they have steps " +
            std::to_string(byStep.begin()->first) + " to " +
            std::to_string(byStep.rbegin()->first) + "): nothing compared");
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
    Plan p = makePlan(runA, runB, options);
    Analysis& an = p.analysis;
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
            // No copy of `an` exists while the pool runs, so its chunks are its own and taking a
            // slot never replaces one: the threads write distinct elements, as in a vector.
            BufferResult& slot = an.buffers[i];
            CompareOptions compare{options.tolerance, options.roundingThreshold, slot.shape};
            const BufferSource a = sourceA(an, slot), b = sourceB(an, slot);
            BufferResult r = options.cache ? options.cache->compare(a, b, slot.dtype, compare)
                                           : compareSources(a, b, slot.dtype, compare);
            r.shape = std::move(slot.shape);
            r.shapeError = std::move(slot.shapeError);
            r.step = slot.step;
            r.group = std::move(slot.group);
            r.name = std::move(slot.name);
            r.fileName = std::move(slot.fileName);
            r.locationA = std::move(slot.locationA);
            r.locationB = std::move(slot.locationB);
            r.rank = slot.rank;
            r.dumpOrder = slot.dumpOrder;
            r.orderSource = slot.orderSource;
            r.inputs = std::move(slot.inputs);
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
    summarize(an);
    return an;
}

} // namespace dumpscope

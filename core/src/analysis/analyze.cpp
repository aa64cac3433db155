#include "dumpscope/analyze.h"

#include "dumpscope/result_cache.h"
#include "dumpscope/scan.h"
#include "dumpscope/shape.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

namespace dumpscope {

namespace fs = std::filesystem;

namespace {

// Which runs dump a planned buffer. Its paths are made when it is compared (run / fileName):
// path objects kept for every pair of a 100,000-file run would be most of the plan's memory.
struct PairSides {
    bool a = false, b = false;
};

struct Plan {
    Analysis analysis;
    std::vector<PairSides> sides; // parallel to analysis.buffers
};

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
    const RunScan scanA = scanRun(runA), scanB = scanRun(runB);
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

    // Every (step, rest) in either run, in step order.
    using FilePair = std::pair<const DumpFile*, const DumpFile*>;
    std::map<std::uint64_t, std::map<std::string, FilePair>> byStep;
    for (const auto& [key, f] : scanA.files)
        byStep[key.first][key.second].first = &f;
    for (const auto& [key, f] : scanB.files)
        byStep[key.first][key.second].second = &f;

    const Schema& schema = *an.schema;
    // The schema's buffers by file and by name, looked up once per file: a schema may list tens
    // of thousands of buffers, and searching it for each file would be quadratic.
    std::unordered_map<std::string_view, std::pair<std::size_t, std::size_t>> byFile;
    std::unordered_map<std::string_view, const BufferSpec*> byName;
    for (std::size_t g = 0; g < schema.groups.size(); ++g)
        for (std::size_t i = 0; i < schema.groups[g].buffers.size(); ++i) {
            const BufferSpec& spec = schema.groups[g].buffers[i];
            byFile.emplace(spec.file, std::pair{g, i});
            byName.emplace(spec.name, &spec);
        }
    for (const auto& stepFiles : byStep) {
        // Named, not a structured binding: the lambdas below capture them (clang 14, Debian's,
        // which the fuzz build uses, cannot capture structured bindings).
        const std::uint64_t step = stepFiles.first;
        const auto& files = stepFiles.second;
        if (options.steps && !options.steps->count(step)) continue;
        an.steps.push_back(step);
        // Element count of a schema buffer at this step (run A's, else run B's), for shapes.
        auto lengthOf = [&](const std::string& name) -> std::optional<std::uint64_t> {
            const auto named = byName.find(name);
            if (named == byName.end()) return std::nullopt;
            const BufferSpec* spec = named->second;
            auto it = files.find(spec->file);
            if (it == files.end()) return std::nullopt;
            const DumpFile* f = it->second.first ? it->second.first : it->second.second;
            return f->size / dtypeSize(spec->dtype);
        };
        auto add = [&](const std::string& group, const std::string& name, DType dtype,
                       const std::pair<const DumpFile*, const DumpFile*>& pair,
                       const std::vector<std::string>& shapeSpec) {
            BufferResult r;
            r.step = step;
            r.group = group;
            r.name = name;
            r.dtype = dtype;
            r.fileName = (pair.first ? pair.first : pair.second)->fileName;
            r.status = !pair.first    ? Status::only_in_b
                       : !pair.second ? Status::only_in_a
                                      : Status::equal;
            auto wanted = options.shapes.find(name);
            const auto& spec = wanted != options.shapes.end() ? wanted->second : shapeSpec;
            const DumpFile* f = pair.first ? pair.first : pair.second;
            auto shape = resolveShape(spec, schema, lengthOf, f->size / dtypeSize(dtype));
            r.shape = std::move(shape.dims);
            r.shapeError = std::move(shape.error);
            an.buffers.push_back(std::move(r));
            p.sides.push_back({pair.first != nullptr, pair.second != nullptr});
        };
        // Schema buffers in schema order, then unclassified files in name order.
        std::vector<std::pair<std::pair<std::size_t, std::size_t>, const FilePair*>> known;
        std::vector<std::pair<const std::string*, const FilePair*>> others;
        for (const auto& [rest, pair] : files) {
            if (auto it = byFile.find(rest); it != byFile.end())
                known.emplace_back(it->second, &pair);
            else
                others.emplace_back(&rest, &pair);
        }
        std::sort(known.begin(), known.end(),
                  [](const auto& x, const auto& y) { return x.first < y.first; });
        for (const auto& [at, pair] : known) {
            const GroupSpec& group = schema.groups[at.first];
            const BufferSpec& buffer = group.buffers[at.second];
            add(group.id, buffer.name, buffer.dtype, *pair, buffer.shape);
        }
        for (const auto& [rest, pair] : others) {
            add(kOtherGroup, *rest, DType::u8, *pair, {});
            an.unclassified.push_back(an.buffers.back().fileName);
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
            const fs::path a = p.sides[i].a ? an.runA / slot.fileName : fs::path{};
            const fs::path b = p.sides[i].b ? an.runB / slot.fileName : fs::path{};
            BufferResult r = options.cache ? options.cache->compare(a, b, slot.dtype, compare)
                                           : compareFiles(a, b, slot.dtype, compare);
            r.shape = std::move(slot.shape);
            r.shapeError = std::move(slot.shapeError);
            r.step = slot.step;
            r.group = std::move(slot.group);
            r.name = std::move(slot.name);
            r.fileName = std::move(slot.fileName);
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

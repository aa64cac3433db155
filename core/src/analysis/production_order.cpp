#include "analysis/production_order.h"

#include <algorithm>
#include <set>
#include <vector>

namespace dumpscope::detail {

namespace {

OrderSource orderOf(std::vector<DumpFile*>& files) {
    if (std::all_of(files.begin(), files.end(),
                    [](const DumpFile* f) { return f->fingerprint.has_value(); }))
        return OrderSource::capture_log;
    std::set<std::string_view> names;
    for (const DumpFile* f : files)
        if (!names.insert(f->fileName).second) return OrderSource::file_keys;
    std::set<std::int64_t> times;
    for (const DumpFile* f : files)
        times.insert(f->mtimeNs);
    // Two files written within one tick of the clock cannot be told apart: names then, for all.
    if (files.size() > 1 && times.size() == files.size()) {
        std::sort(files.begin(), files.end(),
                  [](const DumpFile* x, const DumpFile* y) { return x->mtimeNs < y->mtimeNs; });
        return OrderSource::mtime;
    }
    std::sort(files.begin(), files.end(),
              [](const DumpFile* x, const DumpFile* y) { return x->rest < y->rest; });
    return OrderSource::names;
}

} // namespace

OrderSources assignProductionOrder(RunScan& scan) {
    std::map<std::pair<std::uint64_t, std::uint64_t>, std::vector<DumpFile*>> byStepRank;
    for (auto& [key, file] : scan.files)
        byStepRank[{key.step, key.rank}].push_back(&file);
    OrderSources sources;
    for (auto& [at, files] : byStepRank) {
        // The scan's numbering: the capture log's, or the files' keys in file order.
        std::sort(files.begin(), files.end(),
                  [](const DumpFile* x, const DumpFile* y) { return x->order < y->order; });
        const OrderSource source = orderOf(files);
        sources.emplace(at, source);
        if (source == OrderSource::capture_log || source == OrderSource::file_keys) continue;
        for (std::size_t i = 0; i < files.size(); ++i)
            files[i]->order = i;
    }
    return sources;
}

} // namespace dumpscope::detail

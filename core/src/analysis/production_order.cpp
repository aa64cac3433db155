#include "analysis/production_order.h"

#include <algorithm>
#include <set>
#include <tuple>
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
    // Files written within one tick of the file system's clock share a time: names order them
    // among themselves, the times order the rest. Times that are all one (a copy, an archive
    // unpacked) say nothing: names then, for all.
    if (files.size() > 1 && times.size() > 1) {
        std::sort(files.begin(), files.end(), [](const DumpFile* x, const DumpFile* y) {
            return std::tie(x->mtimeNs, x->rest) < std::tie(y->mtimeNs, y->rest);
        });
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

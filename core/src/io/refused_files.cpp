#include "io/refused_files.h"

#include <map>
#include <tuple>
#include <vector>

namespace dumpscope::detail {

void spreadRefusals(RunScan& refusing, const RunScan& other) {
    using Place = std::tuple<std::uint64_t, std::uint64_t, std::string>; // step, rank, file
    std::map<Place, std::vector<const DumpFile*>> placeholders;
    for (const auto& [key, f] : refusing.files)
        if (f.refusedFile) placeholders[{f.step, f.rank, f.fileName}].push_back(&f);
    if (placeholders.empty()) return;

    std::vector<DumpFile> added;
    std::vector<DumpKey> dropped;
    std::map<Place, bool> matched;
    for (const auto& [key, g] : other.files) {
        if (g.refusedFile || !g.error.empty()) continue;
        const auto it = placeholders.find({g.step, g.rank, g.fileName});
        if (it == placeholders.end()) continue;
        matched[it->first] = true;
        if (refusing.files.count(key)) continue; // the placeholder itself, or a same-named one
        DumpFile copy = *it->second.front();
        copy.rest = g.rest;
        copy.order = g.order;
        copy.refusedFile = false;
        added.push_back(std::move(copy));
    }
    for (const auto& [place, files] : placeholders) {
        if (!matched.count(place)) continue;
        for (const DumpFile* f : files) {
            const DumpKey key{f->step, f->rest, f->rank};
            if (!other.files.count(key)) dropped.push_back(key);
        }
    }
    for (const DumpKey& key : dropped)
        refusing.files.erase(key);
    for (DumpFile& f : added) {
        DumpKey key{f.step, f.rest, f.rank};
        refusing.files.emplace(std::move(key), std::move(f));
    }
}

} // namespace dumpscope::detail

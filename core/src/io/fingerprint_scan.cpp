// What a run's fingerprint log adds to its scan: the log is the record of what was captured, so
// a logged step's tensors take their production order and inputs from it, and a step captured
// as fingerprints only is listed from it alone.
#include "io/fingerprint_log.h"

#include "io/regular_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <map>

#include <sys/stat.h>

namespace dumpscope::detail {

namespace fs = std::filesystem;

namespace {

std::string shapeText(const std::vector<std::uint64_t>& shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? "," : "") + std::to_string(shape[i]);
    return s + "]";
}

std::optional<std::vector<std::string>> inputNames(const LoggedStep& step,
                                                   const LoggedBuffer& buffer) {
    if (!buffer.inputs) return std::nullopt;
    std::vector<std::string> names;
    for (std::size_t i : *buffer.inputs)
        names.push_back(step.buffers[i].name);
    return names;
}

// The logged buffer as a buffer of the run with no bytes at hand.
DumpFile fingerprintOnly(const LoggedStep& step, const LoggedBuffer& b, std::uint64_t rank,
                         const std::string& logFile, std::int64_t mtimeNs) {
    DumpFile f;
    f.step = step.step;
    f.rank = rank;
    f.rest = b.name;
    f.fileName = logFile;
    f.mtimeNs = mtimeNs;
    f.described = true;
    f.dtype = b.dtype;
    f.typeName = b.typeName;
    f.shape = b.shape;
    f.size = b.dtype ? b.count * dtypeSize(*b.dtype) : 0;
    f.fingerprint = b.fingerprint;
    f.fingerprintOnly = true;
    return f;
}

} // namespace

void addFingerprintLog(RunScan& scan, const fs::path& root, const std::string& prefix,
                       std::uint64_t rank, const ScanOptions& options) {
    const fs::path path = root / kFingerprintLogName;
    struct stat st {};
    if (statAnyLength(path, st) != 0) {
        if (errno != ENOENT)
            scan.error =
                path.string() + ": cannot stat the fingerprint log: " + std::strerror(errno);
        return;
    }
    std::string error;
    const FingerprintLog log = readFingerprintLog(path, error);
    if (!error.empty()) {
        scan.error = error;
        return;
    }
    if (!prefix.empty() && log.rank && *log.rank != rank) {
        scan.error = path.string() + ": line 1: the log is rank " + std::to_string(*log.rank) +
                     "'s, but lies in " + prefix;
        return;
    }
    const std::string logFile = prefix + kFingerprintLogName;
    const std::int64_t mtimeNs =
        static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    const std::string at = path.string() + ": line ";
    for (const LoggedStep& step : log.steps) {
        // What the run's files hold at this step and rank.
        std::map<std::string, DumpFile*> held;
        for (auto it = scan.files.lower_bound({step.step, {}, 0});
             it != scan.files.end() && it->first.step == step.step; ++it)
            if (it->first.rank == rank) held.emplace(it->first.name, &it->second);
        const std::string line = at + std::to_string(step.line);
        const auto logLine = std::make_shared<const std::string>(line);
        if (held.empty()) {
            if (!step.file.empty())
                scan.warnings.push_back(line + ": step " + std::to_string(step.step) +
                                        "'s tensors are in " + prefix + step.file +
                                        ", which the run does not hold; compared by fingerprints");
            // The log is this step's one file: a watch sees the step change as the log grows.
            if (options.listFiles)
                scan.listed.emplace_back(
                    step.step,
                    ListedFile{logFile, static_cast<std::uint64_t>(st.st_size), mtimeNs});
            for (std::size_t i = 0; i < step.buffers.size(); ++i) {
                DumpFile f = fingerprintOnly(step, step.buffers[i], rank, logFile, mtimeNs);
                f.order = i;
                f.inputs = inputNames(step, step.buffers[i]);
                f.logLine = logLine;
                scan.files.emplace(DumpKey{step.step, f.rest, rank}, std::move(f));
            }
            continue;
        }
        if (!options.readHeaders) continue; // step files listed whole: nothing to merge into
        std::string file = held.begin()->second->fileName;
        for (std::size_t i = 0; i < step.buffers.size(); ++i) {
            const LoggedBuffer& b = step.buffers[i];
            const auto found = held.find(b.name);
            if (found == held.end()) {
                DumpFile f = fingerprintOnly(step, b, rank, logFile, mtimeNs);
                f.fingerprintOnly = false;
                f.order = i;
                f.error = line + ": lists \"" + b.name + "\" at step " + std::to_string(step.step) +
                          ", which " + scan.dir.string() + "/" + file + " does not hold";
                f.logLine = logLine;
                scan.files.emplace(DumpKey{step.step, b.name, rank}, std::move(f));
                continue;
            }
            DumpFile& f = *found->second;
            held.erase(found);
            f.fingerprint = b.fingerprint;
            f.inputs = inputNames(step, b);
            f.order = i;
            f.logLine = logLine;
            // The file spells types its own way ("F32", "<f4"): dumpscope's type decides.
            const bool sameType = f.dtype && b.dtype ? *f.dtype == *b.dtype : !f.dtype && !b.dtype;
            if (f.error.empty() && f.described && (!sameType || f.shape != b.shape))
                f.error = scan.dir.string() + "/" + f.fileName + ": \"" + b.name + "\" is " +
                          f.typeName + " " + shapeText(f.shape) + ", but " + line + " logs it as " +
                          b.typeName + " " + shapeText(b.shape);
        }
        // Held but not logged: the log is the record of the step, so these are not trusted.
        for (auto& [name, f] : held) {
            f->order = step.buffers.size() + f->order;
            if (f->error.empty())
                f->error = scan.dir.string() + "/" + f->fileName + ": holds \"" + name +
                           "\" at step " + std::to_string(step.step) + ", which " + line +
                           " does not list";
        }
    }
}

namespace {

// The names each log lists at each step and rank, sorted, with the line that lists them.
struct LoggedNames {
    const std::string* line = nullptr;
    std::vector<std::string> names;
};

std::map<std::pair<std::uint64_t, std::uint64_t>, LoggedNames> loggedNames(const RunScan& scan) {
    std::map<std::pair<std::uint64_t, std::uint64_t>, LoggedNames> out;
    for (const auto& [key, f] : scan.files) {
        if (!f.logLine) continue;
        LoggedNames& at = out[{key.step, key.rank}];
        at.line = f.logLine.get();
        at.names.push_back(key.name);
    }
    for (auto& [key, at] : out)
        std::sort(at.names.begin(), at.names.end());
    return out;
}

// Up to three of `names`, quoted, and how many more.
std::string someOf(const std::vector<std::string>& names) {
    std::string s;
    for (std::size_t i = 0; i < names.size() && i < 3; ++i)
        s += (i ? ", \"" : "\"") + names[i] + "\"";
    if (names.size() > 3) s += " and " + std::to_string(names.size() - 3) + " more";
    return s;
}

} // namespace

std::string otherModelError(const RunScan& a, const RunScan& b) {
    const auto namesA = loggedNames(a), namesB = loggedNames(b);
    for (const auto& [key, atA] : namesA) {
        const auto found = namesB.find(key);
        if (found == namesB.end()) continue;
        const LoggedNames& atB = found->second;
        std::vector<std::string> shared, onlyA, onlyB;
        std::set_intersection(atA.names.begin(), atA.names.end(), atB.names.begin(),
                              atB.names.end(), std::back_inserter(shared));
        if (2 * shared.size() >= std::max(atA.names.size(), atB.names.size())) continue;
        std::set_difference(atA.names.begin(), atA.names.end(), atB.names.begin(), atB.names.end(),
                            std::back_inserter(onlyA));
        std::set_difference(atB.names.begin(), atB.names.end(), atA.names.begin(), atA.names.end(),
                            std::back_inserter(onlyB));
        const std::string at = "step " + std::to_string(key.first) +
                               (a.ranked || b.ranked ? " rank " + std::to_string(key.second) : "");
        return "run B is a capture of another model than run A: at " + at + ", " + *atA.line +
               " lists " + std::to_string(atA.names.size()) + " buffers and " + *atB.line +
               " lists " + std::to_string(atB.names.size()) + ", " + std::to_string(shared.size()) +
               " of them by the same name (only in A: " + someOf(onlyA) +
               "; only in B: " + someOf(onlyB) +
               "); not compared (the same model under other names pairs with --align auto or "
               "--map)";
    }
    return {};
}

} // namespace dumpscope::detail

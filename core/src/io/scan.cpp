#include "dumpscope/scan.h"

#include "formats/container.h"
#include "io/fingerprint_log.h"
#include "io/layout_pattern.h"
#include "io/regular_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dumpscope {

namespace fs = std::filesystem;

namespace {

// Canonical decimal only, as dumpers write it (f"step_{step}_..."): no sign, no leading 0, no
// overflow of 64 bits.
std::optional<std::uint64_t> canonicalDecimal(std::string_view digits) {
    if (digits.empty() || (digits.size() > 1 && digits[0] == '0')) return std::nullopt;
    std::uint64_t value = 0;
    for (char c : digits) {
        if (c < '0' || c > '9') return std::nullopt;
        const std::uint64_t d = static_cast<std::uint64_t>(c - '0');
        if (value > (UINT64_MAX - d) / 10) return std::nullopt;
        value = value * 10 + d;
    }
    return value;
}

// "<word><N>", "<word>_<N>" or "<word>-<N>" (a step or rank directory, a step file's stem).
std::optional<std::uint64_t> numbered(std::string_view name, std::string_view word) {
    if (name.substr(0, word.size()) != word) return std::nullopt;
    name.remove_prefix(word.size());
    if (!name.empty() && (name[0] == '_' || name[0] == '-')) name.remove_prefix(1);
    return canonicalDecimal(name);
}

struct Entry {
    std::string name;
    struct stat st {};
    bool claimed = false; // a .bin file whose first bytes are a tensor format's magic
};

bool endsWithBin(const std::string& name) {
    return name.size() > 4 && name.compare(name.size() - 4, 4, ".bin") == 0;
}

// The scan of one run: what is found lands in `scan`, numbered in dump order per step and rank.
class Scanner {
  public:
    Scanner(RunScan& scan, const ScanOptions& options)
        : m_scan(scan), m_readHeaders(options.readHeaders), m_listFiles(options.listFiles) {}

    // The entries of `dir` that `wanted` names, stat'ed through symlinks, sorted by name.
    // Entries that cannot be stat'ed or lead to something other than a regular file or a
    // directory are warnings. False when the directory cannot be read (scan.error set).
    bool list(const fs::path& dir, const std::function<bool(const std::string&)>& wanted,
              std::vector<Entry>& out) {
        const int dirFd = detail::openAnyLength(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        DIR* d = dirFd < 0 ? nullptr : ::fdopendir(dirFd);
        // The run's own folder is "the run directory" in messages, as users know it.
        const std::string what = dir == m_scan.dir ? "the run directory" : "the directory";
        if (!d) {
            m_scan.error = dir.string() + ": cannot read " + what + ": " + std::strerror(errno);
            if (dirFd >= 0) ::close(dirFd);
            return false;
        }
        for (;;) {
            errno = 0;
            dirent* entry = ::readdir(d);
            if (!entry) {
                if (errno != 0)
                    m_scan.warnings.push_back(
                        dir.string() +
                        ": reading the directory failed part-way: " + std::strerror(errno));
                break;
            }
            std::string name = entry->d_name;
            if (name == "." || name == ".." || !wanted(name)) continue;
            Entry e{std::move(name), {}};
            // fstatat() follows symlinks: a dangling link or a loop fails here, before any open().
            if (::fstatat(dirFd, e.name.c_str(), &e.st, 0) != 0) {
                const int err = errno;
                if (err == EACCES && ::faccessat(dirFd, ".", X_OK, AT_EACCESS) != 0) {
                    // Looking up an entry needs search (x) permission on the directory: without
                    // it every entry fails alike, and the run is not one that holds no dumps.
                    m_scan.error = dir.string() + ": cannot list " + what +
                                   "'s files: " + std::strerror(err) +
                                   " (the directory is readable but not searchable)";
                    ::closedir(d);
                    return false;
                }
                const std::string why = err == ENOENT ? "a dangling symlink"
                                        : err == ELOOP
                                            ? "a symlink loop"
                                            : std::string("cannot stat: ") + std::strerror(err);
                m_scan.warnings.push_back((dir / e.name).string() + ": " + why + "; not read");
                continue;
            }
            // A .bin file's first bytes are looked at here, by name in the open directory: a
            // raw dump unless they are a tensor format's (a torch.save or np.save under a .bin
            // name), which then lists and checks it as its own.
            if (m_readHeaders && S_ISREG(e.st.st_mode) && endsWithBin(e.name))
                e.claimed = detail::claimedByMagic(dirFd, e.name.c_str(),
                                                   static_cast<std::uint64_t>(e.st.st_size));
            out.push_back(std::move(e));
        }
        ::closedir(d);
        std::sort(out.begin(), out.end(),
                  [](const Entry& x, const Entry& y) { return x.name < y.name; });
        return true;
    }

    void notRegular(const fs::path& path, const struct stat& st) {
        m_scan.warnings.push_back(path.string() + ": " + detail::fileKindOf(st.st_mode) +
                                  ", not a regular file; not opened");
    }

    // A raw dump: the whole file is the buffer, its type from the schema.
    void addRaw(std::uint64_t step, std::uint64_t rank, std::string rest, std::string relative,
                const struct stat& st, std::string group = {}) {
        DumpFile file;
        file.group = std::move(group);
        file.step = step;
        file.rank = rank;
        file.rest = std::move(rest);
        file.fileName = std::move(relative);
        stamp(file, st);
        add(std::move(file));
    }

    // A .bin file: a raw dump, unless its listing found a tensor format's magic in it.
    void addBin(std::uint64_t step, std::uint64_t rank, std::string rest, const fs::path& path,
                std::string relative, const Entry& e, std::string group = {}) {
        listFile(step, relative, e.st);
        if (e.claimed)
            addTensors(step, rank, rest, group, path, relative, e.st);
        else
            addRaw(step, rank, std::move(rest), std::move(relative), e.st, std::move(group));
    }

    // A self-describing file: each tensor a buffer. `base` names the buffer when the file holds
    // one tensor, and prefixes the keys of several; empty, the keys alone name them.
    void addContainer(std::uint64_t step, std::uint64_t rank, const std::string& base,
                      const std::string& group, const fs::path& path, const std::string& relative,
                      const struct stat& st) {
        listFile(step, relative, st);
        addTensors(step, rank, base, group, path, relative, st);
    }

  private:
    static std::int64_t mtimeNsOf(const struct stat& st) {
        return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    }
    void listFile(std::uint64_t step, const std::string& relative, const struct stat& st) {
        if (!m_listFiles) return;
        m_scan.listed.emplace_back(
            step, ListedFile{relative, static_cast<std::uint64_t>(st.st_size), mtimeNsOf(st)});
    }
    static void stamp(DumpFile& file, const struct stat& st) {
        file.size = static_cast<std::uint64_t>(st.st_size);
        file.mtimeNs = mtimeNsOf(st);
    }

    void addTensors(std::uint64_t step, std::uint64_t rank, const std::string& base,
                    const std::string& group, const fs::path& path, const std::string& relative,
                    const struct stat& st) {
        if (!m_readHeaders) {
            addRaw(step, rank, base.empty() ? path.filename().string() : base, relative, st, group);
            return;
        }
        const detail::ContainerListing listing = detail::listContainer(path, relative);
        m_scan.warnings.insert(m_scan.warnings.end(), listing.warnings.begin(),
                               listing.warnings.end());
        // A file its reader refuses, or a tensor in it, is an error buffer named like the
        // tensors it should have held: never compared as bytes, never left out.
        auto refused = [&](std::string rest, std::string error, bool wholeFile) {
            DumpFile file;
            file.step = step;
            file.rank = rank;
            file.rest = std::move(rest);
            file.fileName = relative;
            file.group = group;
            file.error = std::move(error);
            file.refusedFile = wholeFile;
            stamp(file, st);
            add(std::move(file));
        };
        if (!listing.error.empty()) {
            refused(base.empty() ? path.stem().string() : base, listing.error, true);
            return;
        }
        const bool one = listing.tensors.size() + listing.refused.size() == 1;
        const auto nameOf = [&](const std::string& key) {
            return !base.empty()  ? (one || key.empty() ? base : base + "." + key)
                   : !key.empty() ? key
                                  : path.stem().string();
        };
        for (const detail::TensorEntry& t : listing.tensors) {
            DumpFile file;
            file.step = step;
            file.rank = rank;
            file.rest = nameOf(t.key);
            file.fileName = relative;
            file.group = group;
            stamp(file, st);
            file.described = true;
            file.dtype = t.dtype;
            file.typeName = t.typeName;
            file.shape = t.shape;
            file.size = t.location.count * t.itemBytes;
            file.location = std::make_shared<const TensorLocation>(t.location);
            add(std::move(file));
        }
        for (const detail::RefusedEntry& r : listing.refused)
            refused(nameOf(r.key), r.error, false);
    }

    void add(DumpFile file) {
        file.order = m_next[{file.step, file.rank}]++;
        DumpKey key{file.step, file.rest, file.rank};
        std::string error = file.error;
        const auto [it, added] = m_scan.files.emplace(std::move(key), std::move(file));
        // A refused entry of the same name (a duplicate key) makes the buffer an error: which
        // of the two holds the tensor is unknown.
        if (!added && it->second.error.empty() && !error.empty())
            it->second.error = std::move(error);
        else if (!added)
            m_scan.warnings.push_back(
                m_scan.dir.string() + ": two buffers named \"" + it->second.rest + "\" at step " +
                std::to_string(it->second.step) + " (in " + it->second.fileName +
                " and another file); the first is read");
    }

    RunScan& m_scan;
    bool m_readHeaders;
    bool m_listFiles;
    std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t> m_next;
};

bool isContainer(const std::string& name) {
    const auto dot = name.rfind('.');
    return dot != std::string::npos &&
           detail::isContainerExtension(std::string_view(name).substr(dot));
}

// What a name found in a run's folder (or a rank's) is.
bool namedLikeDump(const std::string& name) {
    return name.rfind("step", 0) == 0;
}

// The run's own layouts: flat step_<N>_<file>.<ext> files, step_<N>.<ext> files holding many
// tensors, and step_<N>/ directories of <file>.<ext> files (step<N> and step-<N> too).
void scanRoot(Scanner& scanner, RunScan& scan, const fs::path& root, const std::string& prefix,
              std::uint64_t rank) {
    std::vector<Entry> entries;
    if (!scanner.list(root, namedLikeDump, entries)) return;
    for (const Entry& e : entries) {
        const fs::path path = root / e.name;
        const std::string relative = prefix + e.name;
        if (S_ISDIR(e.st.st_mode)) {
            const auto step = numbered(e.name, "step");
            if (!step) {
                if (parseDumpName(e.name) || isContainer(e.name)) scanner.notRegular(path, e.st);
                continue;
            }
            std::vector<Entry> inner;
            if (!scanner.list(
                    path, [](const std::string&) { return true; }, inner))
                return;
            for (const Entry& f : inner) {
                const std::string stem = fs::path(f.name).stem().string();
                const std::string ext = fs::path(f.name).extension().string();
                if (ext != ".bin" && !isContainer(f.name)) continue;
                if (!S_ISREG(f.st.st_mode)) {
                    scanner.notRegular(path / f.name, f.st);
                    continue;
                }
                if (ext == ".bin")
                    scanner.addBin(*step, rank, stem, path / f.name, relative + "/" + f.name, f);
                else
                    scanner.addContainer(*step, rank, stem, {}, path / f.name,
                                         relative + "/" + f.name, f.st);
            }
            continue;
        }
        const bool raw = endsWithBin(e.name);
        if (!raw && !isContainer(e.name)) continue;
        if (raw) {
            auto parsed = parseDumpName(e.name);
            if (!parsed) {
                if (e.name.rfind("step_", 0) == 0)
                    scan.warnings.push_back(path.string() +
                                            ": named like a dump but the step is not a decimal "
                                            "number that fits in 64 bits, or no buffer name "
                                            "follows it; ignored");
                continue;
            }
            if (!S_ISREG(e.st.st_mode)) {
                scanner.notRegular(path, e.st);
                continue;
            }
            scanner.addBin(parsed->step, rank, parsed->rest, path, relative, e);
            continue;
        }
        const std::string stem = fs::path(e.name).stem().string();
        std::optional<std::uint64_t> step;
        std::string base;
        if (auto stepFile = numbered(stem, "step")) {
            step = stepFile; // step_<N>.pt: its keys name the buffers
        } else if (auto flat = parseDumpName(stem + ".bin")) {
            step = flat->step; // step_<N>_<file>.npy: the same buffer as step_<N>_<file>.bin
            base = flat->rest;
        } else {
            continue;
        }
        if (!S_ISREG(e.st.st_mode)) {
            scanner.notRegular(path, e.st);
            continue;
        }
        scanner.addContainer(*step, rank, base, {}, path, relative, e.st);
    }
}

// A user's layout: one directory level per pattern segment.
void scanPattern(Scanner& scanner, RunScan& scan, const detail::LayoutPattern& pattern,
                 const fs::path& dir, const std::string& prefix, std::size_t level,
                 const detail::LayoutFields& so_far) {
    std::vector<Entry> entries;
    if (!scanner.list(
            dir, [](const std::string&) { return true; }, entries))
        return;
    const bool last = level + 1 == pattern.depth();
    for (const Entry& e : entries) {
        detail::LayoutFields fields = so_far;
        const fs::path path = dir / e.name;
        if (!last) {
            if (S_ISDIR(e.st.st_mode) && pattern.match(level, e.name, fields))
                scanPattern(scanner, scan, pattern, path, prefix + e.name + "/", level + 1, fields);
            continue;
        }
        const std::string ext = fs::path(e.name).extension().string();
        if (ext != ".bin" && !isContainer(e.name)) continue;
        const std::string matched =
            pattern.lastHasExtension() ? e.name : fs::path(e.name).stem().string();
        if (!pattern.match(level, matched, fields) || !fields.step) continue;
        if (!S_ISREG(e.st.st_mode)) {
            scanner.notRegular(path, e.st);
            continue;
        }
        const std::string base = !fields.name.empty() ? fields.name : fields.file;
        const std::uint64_t rank = fields.rank.value_or(0);
        if (ext == ".bin") {
            if (base.empty()) {
                scan.warnings.push_back(path.string() +
                                        ": a raw dump, but the layout names no {name} or {file} "
                                        "for it; ignored");
                continue;
            }
            scanner.addBin(*fields.step, rank, base, path, prefix + e.name, e, fields.group);
        } else {
            scanner.addContainer(*fields.step, rank, base, fields.group, path, prefix + e.name,
                                 e.st);
        }
    }
}

} // namespace

std::optional<DumpName> parseDumpName(const std::string& name) {
    static constexpr std::string_view prefix = "step_", suffix = ".bin";
    if (name.size() <= prefix.size() + suffix.size() ||
        name.compare(0, prefix.size(), prefix) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
        return std::nullopt;
    const std::string_view body(name.data() + prefix.size(),
                                name.size() - prefix.size() - suffix.size());
    const auto underscore = body.find('_');
    if (underscore == 0 || underscore == std::string_view::npos || underscore + 1 >= body.size())
        return std::nullopt;
    const auto step = canonicalDecimal(body.substr(0, underscore));
    if (!step) return std::nullopt;
    return DumpName{*step, std::string(body.substr(underscore + 1))};
}

std::string layoutPatternError(const std::string& pattern) {
    detail::LayoutPattern p;
    return p.parse(pattern);
}

RunScan scanRun(const fs::path& dir, const ScanOptions& options) {
    RunScan scan;
    scan.dir = dir;
    struct stat st {};
    if (detail::statAnyLength(dir, st) != 0) {
        scan.error =
            dir.string() + ": " +
            (errno == ENOENT ? std::string("no such run directory") : std::strerror(errno));
        return scan;
    }
    if (!S_ISDIR(st.st_mode)) {
        scan.error = dir.string() + ": not a directory";
        return scan;
    }
    Scanner scanner(scan, options);
    if (!options.layout.empty()) {
        detail::LayoutPattern pattern;
        if (auto why = pattern.parse(options.layout); !why.empty()) {
            scan.error = "--layout " + options.layout + ": " + why;
            return scan;
        }
        scan.ranked = pattern.hasRank();
        scanPattern(scanner, scan, pattern, dir, {}, 0, {});
    } else {
        // A directory per rank (rank<R>, rank_<R>, rank-<R>) holds each rank's own layout.
        std::vector<Entry> top;
        const auto rankLike = [](const std::string& name) { return name.rfind("rank", 0) == 0; };
        if (scanner.list(dir, rankLike, top)) {
            std::vector<std::pair<std::uint64_t, std::string>> ranks;
            for (const Entry& e : top)
                if (S_ISDIR(e.st.st_mode))
                    if (auto r = numbered(e.name, "rank")) ranks.emplace_back(*r, e.name);
            std::sort(ranks.begin(), ranks.end());
            scan.ranked = !ranks.empty();
            // Each folder's capture log, read after its files, which it describes.
            if (!scan.ranked) {
                scanRoot(scanner, scan, dir, {}, 0);
                if (scan.error.empty()) detail::addFingerprintLog(scan, dir, {}, 0, options);
            }
            for (const auto& [rank, name] : ranks) {
                scanRoot(scanner, scan, dir / name, name + "/", rank);
                if (scan.error.empty())
                    detail::addFingerprintLog(scan, dir / name, name + "/", rank, options);
            }
        }
    }
    if (!scan.error.empty()) {
        scan.files.clear();
        scan.warnings.clear();
    }
    return scan;
}

// The error for a run folder without a single dump file. The common slip is the folder above
// the runs: its subfolders that hold dumps (the first few) are named.
std::string noDumpFilesError(const std::filesystem::path& dir) {
    std::string message = dir.string() +
                          ": no dump files (step_<step>_<group>_<name>.bin, or .npy, .npz, "
                          ".safetensors, .pt files by step) in this folder; nothing to compare";
    std::vector<std::string> runs;
    std::error_code ec;
    std::size_t looked = 0;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end && looked < 64;
         it.increment(ec), ++looked) {
        std::error_code typeError;
        if (!it->is_directory(typeError)) continue;
        std::error_code inner;
        for (fs::directory_iterator sub(it->path(), inner);
             !inner && sub != fs::directory_iterator(); sub.increment(inner))
            if (parseDumpName(sub->path().filename().string())) {
                runs.push_back(it->path().filename().string());
                break;
            }
    }
    std::sort(runs.begin(), runs.end());
    if (!runs.empty()) {
        message += runs.size() > 1 ? "; its subfolders " : "; its subfolder ";
        for (std::size_t i = 0; i < runs.size() && i < 3; ++i) {
            if (i) message += ", ";
            message += runs[i];
        }
        if (runs.size() > 3) message += ", ...";
        message += runs.size() > 1 ? " hold dumps: give a run's own folder"
                                   : " holds dumps: give a run's own folder";
    }
    return message;
}

} // namespace dumpscope

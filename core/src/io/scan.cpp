#include "dumpscope/scan.h"

#include "io/regular_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dumpscope {

namespace fs = std::filesystem;

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
    const auto digits = body.substr(0, underscore);
    // Canonical decimal only, as the dumper writes it (f"step_{step}_..."): no sign, no leading 0.
    if (digits.size() > 1 && digits[0] == '0') return std::nullopt;
    std::uint64_t step = 0;
    for (char c : digits) {
        if (c < '0' || c > '9') return std::nullopt;
        const std::uint64_t d = static_cast<std::uint64_t>(c - '0');
        if (step > (UINT64_MAX - d) / 10) return std::nullopt; // overflows 64 bits
        step = step * 10 + d;
    }
    return DumpName{step, std::string(body.substr(underscore + 1))};
}

RunScan scanRun(const fs::path& dir) {
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
    // Entries are looked up relative to the directory's own descriptor, so neither the length
    // of the run's path nor a rename of a folder above it during the listing matters.
    const int dirFd = detail::openAnyLength(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR* d = dirFd < 0 ? nullptr : ::fdopendir(dirFd);
    if (!d) {
        scan.error = dir.string() + ": cannot read the run directory: " + std::strerror(errno);
        if (dirFd >= 0) ::close(dirFd);
        return scan;
    }
    for (;;) {
        errno = 0;
        dirent* entry = ::readdir(d);
        if (!entry) {
            if (errno != 0)
                scan.warnings.push_back(dir.string() + ": reading the directory failed part-way: " +
                                        std::strerror(errno));
            break;
        }
        const std::string name = entry->d_name;
        if (name.rfind("step_", 0) != 0 || name.size() < 4 ||
            name.substr(name.size() - 4) != ".bin")
            continue;
        const fs::path path = dir / name;
        auto parsed = parseDumpName(name);
        if (!parsed) {
            scan.warnings.push_back(path.string() +
                                    ": named like a dump but the step is not a decimal number that "
                                    "fits in 64 bits, or no buffer name follows it; ignored");
            continue;
        }
        // fstatat() follows symlinks: a dangling link or a loop fails here, before any open().
        struct stat fst {};
        if (::fstatat(dirFd, name.c_str(), &fst, 0) != 0) {
            const int err = errno;
            if (err == EACCES && ::faccessat(dirFd, ".", X_OK, AT_EACCESS) != 0) {
                // Looking up an entry needs search (x) permission on the directory: without it
                // every entry fails alike, and the run is not one that holds no dumps.
                scan.error = dir.string() +
                             ": cannot list the run directory's files: " + std::strerror(err) +
                             " (the directory is readable but not searchable)";
                scan.files.clear();
                scan.warnings.clear();
                break;
            }
            std::string why = err == ENOENT  ? "a dangling symlink"
                              : err == ELOOP ? "a symlink loop"
                                             : std::string("cannot stat: ") + std::strerror(err);
            scan.warnings.push_back(path.string() + ": " + why + "; not read");
            continue;
        }
        if (!S_ISREG(fst.st_mode)) {
            scan.warnings.push_back(path.string() + ": " + detail::fileKindOf(fst.st_mode) +
                                    ", not a regular file; not opened");
            continue;
        }
        DumpFile file;
        file.step = parsed->step;
        file.rest = parsed->rest;
        file.fileName = name;
        file.size = static_cast<std::uint64_t>(fst.st_size);
        file.mtimeNs =
            static_cast<std::int64_t>(fst.st_mtim.tv_sec) * 1000000000 + fst.st_mtim.tv_nsec;
        scan.files.emplace(std::pair{file.step, file.rest}, std::move(file));
    }
    ::closedir(d);
    return scan;
}

// The error for a run folder without a single dump file. The common slip is the folder above
// the runs: its subfolders that hold dumps (the first few) are named.
std::string noDumpFilesError(const std::filesystem::path& dir) {
    std::string message = dir.string() +
                          ": no dump files (step_<step>_<group>_<name>.bin) in this folder; "
                          "nothing to compare";
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

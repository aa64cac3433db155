// Choosing a report format and writing the file. The tool must never touch the evidence
// it was made from: a destination inside either run directory is refused before anything is
// created, and the file appears whole or not at all (temporary file, fsync, rename).

#include "dumpscope/report.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace dumpscope {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const fs::path& path, const std::string& cause, int err = 0) {
    std::string what = "cannot write report " + path.string() + ": " + cause;
    if (err) what += ": " + std::string(std::strerror(err));
    throw std::runtime_error(what);
}

// Absolute, symlinks resolved as far as the path exists, "." and ".." removed.
fs::path resolved(const fs::path& p) {
    std::error_code ec;
    fs::path abs = fs::absolute(p, ec);
    if (ec) abs = p;
    fs::path canonical = fs::weakly_canonical(abs, ec);
    return (ec ? abs : canonical).lexically_normal();
}

std::vector<fs::path> components(const fs::path& p) {
    std::vector<fs::path> out;
    for (const auto& c : p)
        if (!c.empty()) out.push_back(c);
    return out;
}

bool lexicallyInside(const fs::path& child, const fs::path& dir) {
    const auto c = components(child), d = components(dir);
    return d.size() <= c.size() && std::equal(d.begin(), d.end(), c.begin());
}

// Inside `runDir` by path, or by identity: an ancestor of the destination that is the same
// directory (bind mount, or a path spelled through another mount) also counts.
bool insideRun(const fs::path& destination, const fs::path& runDir) {
    if (runDir.empty()) return false;
    const fs::path dest = resolved(destination);
    const fs::path run = resolved(runDir);
    if (lexicallyInside(dest, run)) return true;
    std::error_code ec;
    if (!fs::is_directory(run, ec)) return false;
    for (fs::path p = dest.parent_path(); !p.empty(); p = p.parent_path()) {
        if (fs::equivalent(p, run, ec)) return true;
        if (p == p.root_path()) break;
    }
    return false;
}

void writeAll(int fd, const std::string& data, const fs::path& path, const fs::path& tmp) {
    const char* p = data.data();
    std::size_t left = data.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int err = errno;
            ::close(fd);
            ::unlink(tmp.c_str());
            fail(path, "writing " + tmp.string(), err);
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
}

} // namespace

std::optional<ReportFormat> reportFormatFor(const fs::path& path) {
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) {
        return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    });
    if (ext == ".json") return ReportFormat::json;
    if (ext == ".md" || ext == ".markdown") return ReportFormat::markdown;
    if (ext == ".html" || ext == ".htm") return ReportFormat::html;
    return std::nullopt;
}

std::string renderReport(const Analysis& analysis, ReportFormat format) {
    switch (format) {
    case ReportFormat::json:
        return reportJson(analysis) + "\n"; // a text file ends with one
    case ReportFormat::markdown:
        return reportMarkdown(analysis);
    case ReportFormat::html:
        return reportHtml(analysis);
    }
    return {};
}

void writeReport(const Analysis& analysis, const fs::path& path) {
    const auto format = reportFormatFor(path);
    if (!format) fail(path, "unknown report format (use .json, .md or .html)");
    writeReportText(path, {analysis.runA, analysis.runB},
                    [&] { return renderReport(analysis, *format); });
}

void writeReportText(const fs::path& path, const std::vector<fs::path>& runDirs,
                     const std::function<std::string()>& render) {
    for (const auto& run : runDirs)
        if (insideRun(path, run)) fail(path, "it is inside a run directory; dumpscope never writes there");
    if (path.filename().empty()) fail(path, "no file name");

    const std::string text = render();

    // Same directory as the destination, so the rename cannot cross file systems. The name
    // starts with a dot so a half-written file is not mistaken for a report.
    static std::atomic<unsigned> counter{0};
    const fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
    const fs::path tmp = dir / ("." + path.filename().string() + ".tmp-" +
                                std::to_string(::getpid()) + "-" + std::to_string(counter++));
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) fail(path, "cannot create a temporary file in " + dir.string(), errno);
    writeAll(fd, text, path, tmp);
    if (::fsync(fd) != 0) {
        const int err = errno;
        ::close(fd);
        ::unlink(tmp.c_str());
        fail(path, "fsync", err);
    }
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        fail(path, "close", err);
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        fail(path, "rename", err);
    }
    // Make the rename itself durable; a failure here leaves a complete file, so it is ignored.
    const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
}

} // namespace dumpscope

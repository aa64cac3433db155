// Choosing a report format and writing the file. The tool must never touch the evidence
// it was made from: a destination inside a run directory is refused before anything is
// created, and the file appears whole or not at all (temporary file, fsync, rename). Every
// file written beside user data goes through writeFileAtomically, the CSV export included.

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

[[noreturn]] void fail(const std::string& what, const fs::path& path, const std::string& cause,
                       int err = 0) {
    std::string text = "cannot write " + what + " " + path.string() + ": " + cause;
    if (err) text += ": " + std::string(std::strerror(err));
    throw std::runtime_error(text);
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

// The temporary file until it is renamed into place: on any way out before that, including an
// exception from the producer, it is closed and removed.
class TempFile {
  public:
    TempFile(int fd, fs::path path) : m_fd(fd), m_path(std::move(path)) {}
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    ~TempFile() {
        if (m_fd >= 0) ::close(m_fd);
        if (!m_path.empty()) ::unlink(m_path.c_str());
    }
    int fd() const { return m_fd; }
    const fs::path& path() const { return m_path; }
    // Closes the descriptor; the file stays until renamed() or the destructor.
    int close() {
        const int rc = ::close(m_fd);
        m_fd = -1;
        return rc;
    }
    void renamed() { m_path.clear(); }

  private:
    int m_fd;
    fs::path m_path;
};

// 0 once all of `data` is written, else the errno of the failed write.
int writeAll(int fd, std::string_view data) {
    while (!data.empty()) {
        const ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno;
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return 0;
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
    if (!format) fail("report", path, "unknown report format (use .json, .md or .html)");
    writeReportText(path, {analysis.runA, analysis.runB},
                    [&] { return renderReport(analysis, *format); });
}

void writeReportText(const fs::path& path, const std::vector<fs::path>& runDirs,
                     const std::function<std::string()>& render) {
    writeFileAtomically(path, runDirs, "report", [&](const WriteSink& sink) { sink(render()); });
}

void writeFileAtomically(const fs::path& path, const std::vector<fs::path>& runDirs,
                         const std::string& what,
                         const std::function<void(const WriteSink&)>& produce) {
    for (const auto& run : runDirs)
        if (insideRun(path, run))
            fail(what, path, "it is inside a run directory; dumpscope never writes there");
    if (path.filename().empty()) fail(what, path, "no file name");

    // Same directory as the destination, so the rename cannot cross file systems. The name
    // starts with a dot so a half-written file is not mistaken for a finished one.
    static std::atomic<unsigned> counter{0};
    const fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
    const fs::path tmpPath = dir / ("." + path.filename().string() + ".tmp-" +
                                    std::to_string(::getpid()) + "-" + std::to_string(counter++));
    const int fd = ::open(tmpPath.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
        const int err = errno; // before building the message, which may allocate
        fail(what, path, "cannot create a temporary file in " + dir.string(), err);
    }
    TempFile tmp(fd, tmpPath);
    produce([&](std::string_view text) {
        if (const int err = writeAll(tmp.fd(), text))
            fail(what, path, "writing " + tmp.path().string(), err);
    });
    const auto failed = [&](const char* step) {
        const int err = errno;
        fail(what, path, step, err);
    };
    if (::fsync(tmp.fd()) != 0) failed("fsync");
    if (tmp.close() != 0) failed("close");
    if (::rename(tmp.path().c_str(), path.c_str()) != 0) failed("rename");
    tmp.renamed();
    // Make the rename itself durable; a failure here leaves a complete file, so it is ignored.
    const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
}

} // namespace dumpscope

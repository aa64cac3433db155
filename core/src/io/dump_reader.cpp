#include "io/dump_reader.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dumpscope::detail {

bool DumpReader::open(const std::filesystem::path& path, ReadPattern pattern) {
    close();
    m_path = path;
    m_file = openRegularFile(path);
    if (!m_file.isOpen()) {
        m_error = path.string() + ": " + m_file.error();
        return false;
    }
    const struct stat& st = m_file.status();
    m_identity = identityOf(st);
    // Read-ahead helps a file read in several chunks; one that a single read takes whole (most
    // of a run of many small buffers) is spared the call.
    constexpr off_t kOneRead = off_t{128} << 10;
    if (pattern == ReadPattern::sequential && st.st_size > kOneRead)
        ::posix_fadvise(m_file.fd(), 0, 0, POSIX_FADV_SEQUENTIAL);
    return true;
}

void DumpReader::close() {
    m_file = RegularFile();
    m_identity = {};
    m_error.clear();
}

ReadOutcome DumpReader::readAt(void* out, std::size_t n, std::uint64_t offset) const noexcept {
    auto* bytes = static_cast<unsigned char*>(out);
    ReadOutcome r;
    while (r.bytes < n) {
        const ssize_t got = ::pread(m_file.fd(), bytes + r.bytes, n - r.bytes,
                                    static_cast<off_t>(offset + r.bytes));
        if (got < 0) {
            if (errno == EINTR) continue;
            r.errorNumber = errno;
            break;
        }
        if (got == 0) break; // the end of the file
        r.bytes += static_cast<std::size_t>(got);
    }
    return r;
}

std::string DumpReader::readExact(void* out, std::size_t n, std::uint64_t offset,
                                  bool& ended) const {
    return readExactly(*this, out, n, offset, ended);
}

std::string DumpReader::describe(const ReadOutcome& got, std::uint64_t offset) const {
    const std::string at = std::to_string(offset + got.bytes);
    if (got.errorNumber != 0)
        return m_path.string() + ": read error at byte " + at + ": " +
               std::strerror(got.errorNumber);
    return m_path.string() + ": ended at byte " + at + " while being read (expected " +
           std::to_string(m_identity.size) + ")";
}

std::string DumpReader::changedSinceOpen() const {
    struct stat now {};
    if (::fstat(m_file.fd(), &now) != 0) {
        const int error = errno; // before building the message, which may allocate
        return m_path.string() + ": cannot stat: " + std::strerror(error);
    }
    if (static_cast<std::uint64_t>(now.st_size) != m_identity.size)
        return m_path.string() + ": changed while being read (size " +
               std::to_string(m_identity.size) + " -> " + std::to_string(now.st_size) + " bytes)";
    if (identityOf(now).mtimeNs != m_identity.mtimeNs)
        return m_path.string() + ": changed while being read (modification time moved)";
    return {};
}

} // namespace dumpscope::detail

#include "io/regular_file.h"

#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <unistd.h>

namespace dumpscope::detail {

const char* fileKindOf(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISDIR(mode)) return "a directory";
    return "not a regular file";
}

namespace {

// A descriptor closed on every way out, keeping errno as the failing call left it.
struct Descriptor {
    int fd = -1;
    explicit Descriptor(int f) : fd(f) {}
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    ~Descriptor() {
        if (fd >= 0) {
            const int saved = errno;
            ::close(fd);
            errno = saved;
        }
    }
};

// An O_PATH descriptor of directory `dir` (empty: the working directory), walked component by
// component when the whole path is too long for the kernel. O_PATH needs no read permission on
// the directories passed through, as a path lookup needs none.
int openDirectoryPath(const std::filesystem::path& dir) {
    constexpr int kFlags = O_PATH | O_DIRECTORY | O_CLOEXEC;
    const int fd = ::open(dir.empty() ? "." : dir.c_str(), kFlags);
    if (fd >= 0 || errno != ENAMETOOLONG) return fd;
    int current = ::open(dir.is_absolute() ? "/" : ".", kFlags);
    for (const auto& part : dir.relative_path()) {
        if (current < 0) return -1;
        if (part.empty()) continue; // a trailing separator
        Descriptor parent(current);
        current = ::openat(parent.fd, part.c_str(), kFlags);
    }
    return current;
}

} // namespace

int openAnyLength(const std::filesystem::path& path, int flags) {
    const int fd = ::open(path.c_str(), flags);
    if (fd >= 0 || errno != ENAMETOOLONG || !path.has_filename()) return fd;
    Descriptor parent(openDirectoryPath(path.parent_path()));
    if (parent.fd < 0) return -1;
    return ::openat(parent.fd, path.filename().c_str(), flags);
}

int statAnyLength(const std::filesystem::path& path, struct stat& status) {
    const int rc = ::stat(path.c_str(), &status);
    if (rc == 0 || errno != ENAMETOOLONG || !path.has_filename()) return rc;
    Descriptor parent(openDirectoryPath(path.parent_path()));
    if (parent.fd < 0) return -1;
    return ::fstatat(parent.fd, path.filename().c_str(), &status, 0);
}

RegularFile::~RegularFile() {
    reset();
}

RegularFile::RegularFile(RegularFile&& other) noexcept {
    *this = std::move(other);
}

RegularFile& RegularFile::operator=(RegularFile&& other) noexcept {
    if (this != &other) {
        reset();
        m_fd = std::exchange(other.m_fd, -1);
        m_status = other.m_status;
        m_error = std::move(other.m_error);
        m_notRegular = other.m_notRegular;
        m_errorNumber = other.m_errorNumber;
    }
    return *this;
}

int RegularFile::release() {
    return std::exchange(m_fd, -1);
}

void RegularFile::markNotRegular() {
    m_error = "not a regular file";
    m_notRegular = true;
    m_errorNumber = 0;
}

void RegularFile::reset() {
    if (m_fd >= 0) ::close(m_fd);
    m_fd = -1;
}

RegularFile openRegularFile(const std::filesystem::path& path) {
    RegularFile file;
    const int fd = openAnyLength(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        file.m_errorNumber = errno;
        file.m_error = std::string("cannot open: ") + std::strerror(file.m_errorNumber);
        // open() of a socket fails (ENXIO) before fstat() could say what it is; nothing is
        // read from what stat() finds, it only names it.
        if (statAnyLength(path, file.m_status) == 0 && !S_ISREG(file.m_status.st_mode))
            file.markNotRegular();
        return file;
    }
    if (::fstat(fd, &file.m_status) != 0) {
        file.m_errorNumber = errno;
        file.m_error = std::string("cannot stat: ") + std::strerror(file.m_errorNumber);
        ::close(fd);
        return file;
    }
    if (!S_ISREG(file.m_status.st_mode)) {
        file.markNotRegular();
        ::close(fd);
        return file;
    }
    file.m_fd = fd;
    return file;
}

dumpscope::FileIdentity identityOf(const struct stat& st) {
    return dumpscope::FileIdentity{
        static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
        static_cast<std::uint64_t>(st.st_size),
        static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec,
        static_cast<std::int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec};
}

} // namespace dumpscope::detail

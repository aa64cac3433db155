#include "regular_file.h"

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
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        file.m_errorNumber = errno;
        file.m_error = std::string("cannot open: ") + std::strerror(file.m_errorNumber);
        // open() of a socket fails (ENXIO) before fstat() could say what it is; nothing is
        // read from what stat() finds, it only names it.
        if (::stat(path.c_str(), &file.m_status) == 0 && !S_ISREG(file.m_status.st_mode))
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

} // namespace dumpscope::detail

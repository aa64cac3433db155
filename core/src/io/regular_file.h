#pragma once
// How the core opens a file it reads (a dump, a schema): one place decides what may be opened,
// so that a FIFO, a device or a directory named where a file is expected is refused alike.
#include "dumpscope/file_identity.h"

#include <filesystem>
#include <string>

#include <sys/stat.h>

namespace dumpscope::detail {

// What a file of this mode is, for messages: "a FIFO", "a directory", "a character device", …
const char* fileKindOf(mode_t mode);

// open() and stat() of a path of any length. A path longer than PATH_MAX is refused whole by
// the kernel (ENAMETOOLONG), however short each of its components; these then walk it one
// component at a time with openat(), so a run's files are read wherever the run lies. They
// return what open() / stat() return and leave errno as the failing call set it.
int openAnyLength(const std::filesystem::path& path, int flags);
int statAnyLength(const std::filesystem::path& path, struct stat& status);

// The identity (file_identity.h) of a file as stat() or fstat() found it.
dumpscope::FileIdentity identityOf(const struct stat& status);

// A file opened for reading: its descriptor, closed on destruction, and the fstat() of that
// descriptor, taken when it was opened.
class RegularFile {
  public:
    RegularFile() = default;
    ~RegularFile();
    RegularFile(RegularFile&& other) noexcept;
    RegularFile& operator=(RegularFile&& other) noexcept;
    RegularFile(const RegularFile&) = delete;
    RegularFile& operator=(const RegularFile&) = delete;

    bool isOpen() const { return m_fd >= 0; }
    int fd() const { return m_fd; }
    const struct stat& status() const { return m_status; }
    // Why it is not open, without the path: "cannot open: …", "cannot stat: …" or "not a regular
    // file" (then notRegular() is true and status() says what it is). Empty when open.
    const std::string& error() const { return m_error; }
    bool notRegular() const { return m_notRegular; }
    // The errno of the open() or fstat() that failed; 0 when open or not a regular file.
    int errorNumber() const { return m_errorNumber; }
    // Hands the descriptor to the caller, who closes it.
    int release();

  private:
    friend RegularFile openRegularFile(const std::filesystem::path& path);
    void reset();
    void markNotRegular();

    int m_fd = -1;
    struct stat m_status {};
    std::string m_error;
    bool m_notRegular = false;
    int m_errorNumber = 0;
};

// Opens `path` read-only, following symlinks as the scan does; what it leads to must be a
// regular file. O_NONBLOCK: opening a FIFO must not wait for a writer that never comes.
// O_NOCTTY: a terminal named by mistake does not become ours. The type is checked with fstat()
// on the opened descriptor, not stat() on the path, so a file swapped in after a check is not
// the one read.
RegularFile openRegularFile(const std::filesystem::path& path);

} // namespace dumpscope::detail

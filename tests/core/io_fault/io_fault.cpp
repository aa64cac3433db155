// The pread interposer behind io_fault.h. It must not call pread itself (it would recurse), so
// forwarding is the raw system call; everything it does on a trigger (append, truncate, set a
// time) goes through other calls.
#include "io_fault.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace dumpscope::test::io_fault {

namespace {

struct Fault {
    std::string path; // as /proc/self/fd/N names the open file
    std::uint64_t offset = 0;
    Action action = Action::eio;
};

std::mutex g_mutex;
Fault g_fault;
std::atomic<bool> g_armed{false};
std::atomic<bool> g_fired{false};
std::once_flag g_fromEnvironment;

bool parseAction(std::string_view name, Action& action) {
    for (Action a : {Action::eio, Action::grow, Action::shrink, Action::touch})
        if (actionName(a) == name) {
            action = a;
            return true;
        }
    return false;
}

std::string resolved(const std::filesystem::path& file) {
    std::error_code ec;
    const auto canonical = std::filesystem::weakly_canonical(file, ec);
    return ec ? file.string() : canonical.string();
}

// DUMPSCOPE_IO_FAULT="ACTION:OFFSET:PATH" arms a process that cannot call arm() (the CLI).
void armFromEnvironment() {
    const char* value = std::getenv("DUMPSCOPE_IO_FAULT");
    if (!value) return;
    const std::string spec = value;
    const auto c1 = spec.find(':'), c2 = spec.find(':', c1 == std::string::npos ? c1 : c1 + 1);
    Action action{};
    if (c1 == std::string::npos || c2 == std::string::npos ||
        !parseAction(spec.substr(0, c1), action))
        return;
    arm(spec.substr(c2 + 1), std::strtoull(spec.c_str() + c1 + 1, nullptr, 10), action);
}

std::string pathOf(int fd) {
    char link[64], target[4096];
    std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    const ssize_t n = ::readlink(link, target, sizeof target);
    return n > 0 ? std::string(target, static_cast<std::size_t>(n)) : std::string();
}

void perform(const Fault& f) {
    switch (f.action) {
    case Action::eio:
        break;
    case Action::grow: {
        const int fd = ::open(f.path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
        if (fd < 0) break;
        static const char zeros[4096] = {};
        [[maybe_unused]] const ssize_t w = ::write(fd, zeros, sizeof zeros);
        ::close(fd);
        break;
    }
    case Action::shrink: {
        [[maybe_unused]] const int r = ::truncate(f.path.c_str(), static_cast<off_t>(f.offset));
        break;
    }
    case Action::touch: {
        // A fixed time in 2001, certainly not the file's own; the access time is left alone.
        const struct timespec times[2] = {{0, UTIME_OMIT}, {1'000'000'000, 0}};
        ::utimensat(AT_FDCWD, f.path.c_str(), times, 0);
        break;
    }
    }
}

long realPread(int fd, void* buf, std::size_t n, off_t offset) {
    return ::syscall(SYS_pread64, fd, buf, n, offset);
}

ssize_t interposed(int fd, void* buf, std::size_t n, off_t offset) {
    std::call_once(g_fromEnvironment, armFromEnvironment);
    if (!g_armed.load(std::memory_order_acquire) || offset < 0)
        return realPread(fd, buf, n, offset);
    Fault f;
    {
        std::lock_guard lock(g_mutex);
        f = g_fault;
    }
    if (pathOf(fd) != f.path) return realPread(fd, buf, n, offset);
    const auto start = static_cast<std::uint64_t>(offset);
    if (start < f.offset)
        return realPread(fd, buf, std::min<std::uint64_t>(n, f.offset - start), offset);
    if (f.action == Action::eio) {
        g_fired.store(true);
        errno = EIO;
        return -1;
    }
    if (!g_fired.exchange(true)) perform(f);
    return realPread(fd, buf, n, offset);
}

} // namespace

void arm(const std::filesystem::path& file, std::uint64_t offset, Action action) {
    std::lock_guard lock(g_mutex);
    g_fault = {resolved(file), offset, action};
    g_fired.store(false);
    g_armed.store(true, std::memory_order_release);
}

void disarm() {
    g_armed.store(false, std::memory_order_release);
}

bool fired() {
    return g_fired.load();
}

std::string_view actionName(Action action) {
    switch (action) {
    case Action::eio:
        return "eio";
    case Action::grow:
        return "grow";
    case Action::shrink:
        return "shrink";
    case Action::touch:
        return "touch";
    }
    return {};
}

std::string environmentValue(const std::filesystem::path& file, std::uint64_t offset,
                             Action action) {
    return std::string(actionName(action)) + ":" + std::to_string(offset) + ":" + resolved(file);
}

} // namespace dumpscope::test::io_fault

// glibc's pread and pread64 are one function on 64-bit targets; both names are interposed so
// that code built with _FILE_OFFSET_BITS=64 (pread64) is covered too.
extern "C" {
ssize_t pread(int fd, void* buf, size_t n, off_t offset) {
    return dumpscope::test::io_fault::interposed(fd, buf, n, offset);
}
ssize_t pread64(int fd, void* buf, size_t n, off_t offset) {
    return dumpscope::test::io_fault::interposed(fd, buf, n, offset);
}
// What _FORTIFY_SOURCE builds call when the buffer's size is known.
ssize_t __pread_chk(int fd, void* buf, size_t n, off_t offset, size_t) {
    return dumpscope::test::io_fault::interposed(fd, buf, n, offset);
}
ssize_t __pread64_chk(int fd, void* buf, size_t n, off_t offset, size_t) {
    return dumpscope::test::io_fault::interposed(fd, buf, n, offset);
}
}

#include "test_support.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace dumpscope::test {

namespace fs = std::filesystem;

TempDir::TempDir() {
    std::random_device rd;
    for (int attempt = 0; attempt < 100; ++attempt) {
        auto candidate = fs::temp_directory_path() / ("dumpscope-test-" + std::to_string(rd()));
        if (fs::create_directory(candidate)) {
            m_path = candidate;
            return;
        }
    }
    throw std::runtime_error("cannot create a temporary directory");
}

TempDir::~TempDir() {
    std::error_code ec;
    // Tests may leave read-only trees behind; make them writable again so they can go.
    for (auto it = fs::recursive_directory_iterator(m_path, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_directory(ec) && !it->is_symlink(ec))
            fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
    }
    fs::permissions(m_path, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(m_path, ec);
}

void writeBytes(const fs::path& file, const void* data, std::size_t size) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) throw std::runtime_error("cannot write " + file.string());
}

void writeText(const fs::path& file, const std::string& text) {
    writeBytes(file, text.data(), text.size());
}

void writeNpyFile(const fs::path& file, const std::string& descr, const std::string& shape,
                  const void* data, std::size_t size) {
    std::string header =
        "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + shape + "), }";
    while ((10 + header.size() + 1) % 64)
        header += ' ';
    header += '\n';
    std::string bytes = "\x93NUMPY\x01";
    bytes += '\0';
    bytes += static_cast<char>(header.size() & 0xff);
    bytes += static_cast<char>(header.size() >> 8);
    bytes += header;
    bytes.append(static_cast<const char*>(data), size);
    fs::create_directories(file.parent_path());
    writeBytes(file, bytes.data(), bytes.size());
}

std::string readFile(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> listDir(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir))
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

TreeSnapshot snapshotTree(const fs::path& dir) {
    TreeSnapshot tree;
    auto record = [&](const fs::path& p, const std::string& name) {
        TreeEntry e;
        struct stat st {};
        if (::lstat(p.c_str(), &st) != 0) throw std::runtime_error("cannot stat " + p.string());
        e.mtimeNs = std::int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
        if (S_ISREG(st.st_mode)) {
            e.type = "file";
            e.bytes = readFile(p);
        } else if (S_ISDIR(st.st_mode)) {
            e.type = "dir";
        } else if (S_ISLNK(st.st_mode)) {
            e.type = "symlink";
            e.bytes = fs::read_symlink(p).string();
        } else {
            e.type = "other";
        }
        tree[name] = std::move(e);
    };
    record(dir, ".");
    for (const auto& e : fs::recursive_directory_iterator(dir))
        record(e.path(),
               e.path().lexically_relative(dir).string()); // not fs::relative: it follows symlinks
    return tree;
}

void PrintTo(const TreeEntry& entry, std::ostream* os) {
    *os << entry.type << ", mtime " << entry.mtimeNs << " ns, " << entry.bytes.size() << " bytes";
}

ReadOnlyTree::ReadOnlyTree(const fs::path& dir) {
    std::vector<fs::path> paths{dir};
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (!e.is_symlink()) paths.push_back(e.path());
    // Children first, so a directory is still writable while its entries are changed.
    for (auto it = paths.rbegin(); it != paths.rend(); ++it) {
        const auto mode = fs::status(*it).permissions();
        m_modes.emplace_back(*it, mode);
        fs::permissions(*it,
                        fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                        fs::perm_options::remove);
    }
}

ReadOnlyTree::~ReadOnlyTree() {
    std::error_code ec;
    for (auto it = m_modes.rbegin(); it != m_modes.rend(); ++it)
        fs::permissions(it->first, it->second, fs::perm_options::replace, ec);
}

bool runningAsRoot() {
    return ::geteuid() == 0;
}

float floatFromBits(std::uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

std::uint32_t bitsOfFloat(float f) {
    std::uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    return bits;
}

ProcessResult runProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                         int timeoutSeconds,
                         const std::function<void(int pid, const ProcessResult& soFar)>& onOutput,
                         const fs::path& stdoutTo) {
    int outPipe[2], errPipe[2];
    if (pipe(outPipe) != 0 || pipe(errPipe) != 0) throw std::runtime_error("pipe failed");
    // `env` entries replace inherited variables of the same name ("NAME=" sets it empty).
    const auto nameOf = [](std::string_view entry) { return entry.substr(0, entry.find('=')); };
    std::vector<std::string> envStrings;
    for (char** e = environ; *e; ++e)
        if (std::none_of(env.begin(), env.end(),
                         [&](const std::string& x) { return nameOf(x) == nameOf(*e); }))
            envStrings.emplace_back(*e);
    for (const auto& e : env)
        envStrings.push_back(e);
    std::vector<char*> envp, args;
    for (auto& e : envStrings)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    std::vector<std::string> argvCopy = argv;
    for (auto& a : argvCopy)
        args.push_back(a.data());
    args.push_back(nullptr);

    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        dup2(devnull, 0);
        const int out = stdoutTo.empty()
                            ? outPipe[1]
                            : open(stdoutTo.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0) _exit(127);
        dup2(out, 1);
        dup2(errPipe[1], 2);
        close(outPipe[1]); // with `stdoutTo`, the parent then reads end-of-file on the pipe at once
        close(outPipe[0]);
        close(errPipe[0]);
        execve(args[0], args.data(), envp.data());
        _exit(127);
    }
    close(outPipe[1]);
    close(errPipe[1]);
    ProcessResult result;
    std::array<pollfd, 2> fds{{{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}}};
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds);
    int open = 2;
    char buf[65536];
    while (open > 0) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                        deadline - std::chrono::steady_clock::now())
                        .count();
        if (left <= 0) {
            kill(pid, SIGKILL);
            break;
        }
        if (poll(fds.data(), fds.size(), static_cast<int>(left)) <= 0) continue;
        for (std::size_t i = 0; i < fds.size(); ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t n = read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                (i == 0 ? result.out : result.err).append(buf, static_cast<std::size_t>(n));
                if (onOutput) onOutput(pid, result);
            } else {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
        }
    }
    for (auto& f : fds)
        if (f.fd >= 0) close(f.fd);
    int status = 0;
    waitpid(pid, &status, 0);
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

void writeRankedPair(const fs::path& dir, int ranks, int steps,
                     const std::function<bool(int rank, int step)>& differs,
                     const std::string& rankDir) {
    for (const char* run : {"a", "b"})
        for (int rank = 0; rank < ranks; ++rank)
            for (int step = 1; step <= steps; ++step) {
                const bool changed = std::string(run) == "b" && differs(rank, step);
                writeDump(dir / run / (rankDir + std::to_string(rank)), std::uint64_t(step),
                          "h_q_logits", std::vector<float>{1, changed ? 3.0f : 2.0f});
            }
}

fs::path testDataDir() {
    return DUMPSCOPE_TEST_DATA_DIR;
}

fs::path sharedDir() {
    fs::path dir = DUMPSCOPE_SHARED_DIR;
    std::error_code ec;
    return fs::is_directory(dir, ec) ? fs::canonical(dir, ec) : fs::path{};
}

bool unpackSample(const std::string& name, const fs::path& into) {
    auto shared = sharedDir();
    if (shared.empty()) return false;
    auto archive = shared / "samples" / name;
    if (!fs::exists(archive)) return false;
    fs::create_directories(into);
    auto r = runProcess({"/usr/bin/tar", "-xJf", archive.string(), "-C", into.string()});
    return r.exitCode == 0;
}

} // namespace dumpscope::test

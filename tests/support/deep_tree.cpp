#include "deep_tree.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dumpscope::test {

namespace {

[[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error("DeepTree: " + what + ": " + std::strerror(errno));
}

// Removes everything inside the directory `fd` (closed here), depth first.
void removeContents(int fd) {
    DIR* d = ::fdopendir(fd);
    if (!d) {
        ::close(fd);
        return;
    }
    std::vector<std::string> names;
    while (dirent* e = ::readdir(d))
        if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
            names.emplace_back(e->d_name);
    for (const auto& name : names) {
        if (::unlinkat(::dirfd(d), name.c_str(), 0) == 0) continue;
        const int sub = ::openat(::dirfd(d), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
        if (sub >= 0) removeContents(sub);
        ::unlinkat(::dirfd(d), name.c_str(), AT_REMOVEDIR);
    }
    ::closedir(d);
}

} // namespace

DeepTree::DeepTree(const std::filesystem::path& base, std::size_t minLength,
                   const std::vector<std::string>& leaves, std::size_t componentLength)
    : m_base(std::filesystem::absolute(base)), m_path(m_base) {
    int fd = ::open(m_base.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd < 0) fail("open " + m_base.string());
    for (char c = 'a'; m_path.string().size() <= minLength; c = c == 'z' ? 'a' : c + 1) {
        const std::string name(componentLength, c);
        if (::mkdirat(fd, name.c_str(), 0755) != 0) fail("mkdirat");
        const int next = ::openat(fd, name.c_str(), O_RDONLY | O_DIRECTORY);
        ::close(fd);
        if (next < 0) fail("openat");
        fd = next;
        m_components.push_back(name);
        m_path /= name;
        m_relative /= name;
    }
    for (const auto& leaf : leaves)
        if (::mkdirat(fd, leaf.c_str(), 0755) != 0) fail("mkdirat " + leaf);
    ::close(fd);
}

DeepTree::~DeepTree() {
    if (m_components.empty()) return;
    const int base = ::open(m_base.c_str(), O_RDONLY | O_DIRECTORY);
    if (base < 0) return;
    const int top = ::openat(base, m_components.front().c_str(), O_RDONLY | O_DIRECTORY);
    if (top >= 0) removeContents(top);
    ::unlinkat(base, m_components.front().c_str(), AT_REMOVEDIR);
    ::close(base);
}

void DeepTree::write(const std::string& leaf, const std::string& name,
                     const std::string& bytes) const {
    int fd = ::open(m_base.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd < 0) fail("open " + m_base.string());
    std::vector<std::string> parts = m_components;
    parts.push_back(leaf);
    for (const auto& part : parts) {
        const int next = ::openat(fd, part.c_str(), O_RDONLY | O_DIRECTORY);
        ::close(fd);
        if (next < 0) fail("openat " + part);
        fd = next;
    }
    const int file = ::openat(fd, name.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::close(fd);
    if (file < 0) fail("openat " + name);
    const bool ok = ::write(file, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
    ::close(file);
    if (!ok) fail("write " + name);
}

void DeepTree::writeF32(const std::string& leaf, const std::string& name,
                        std::initializer_list<float> values) const {
    std::string bytes;
    for (float v : values) {
        char raw[sizeof v];
        std::memcpy(raw, &v, sizeof v);
        bytes.append(raw, sizeof v);
    }
    write(leaf, name, bytes);
}

} // namespace dumpscope::test

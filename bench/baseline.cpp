// dumpscope-baseline: the floor dumpscope-cli is measured against. For
// every file of RUN_A that RUN_B has too, maps both and counts the differing 32-bit words of
// their common length. No statistics, no verdict: only the bytes read and compared once.
// Deliberately plain (one pass, a loop the compiler vectorises); --threads splits the pairs.
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

// A read-only private mapping of a whole file; empty files map to nothing.
class Mapping {
  public:
    explicit Mapping(const fs::path& path) {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            fail(path, "open");
            return;
        }
        struct stat st {};
        if (::fstat(fd, &st) != 0) {
            ::close(fd);
            fail(path, "stat");
            return;
        }
        m_size = static_cast<std::size_t>(st.st_size);
        if (m_size > 0) {
            void* p = ::mmap(nullptr, m_size, PROT_READ, MAP_PRIVATE, fd, 0);
            if (p == MAP_FAILED) {
                ::close(fd);
                fail(path, "mmap");
                return;
            }
            m_data = static_cast<const unsigned char*>(p);
            ::madvise(p, m_size, MADV_SEQUENTIAL);
        }
        ::close(fd);
    }
    ~Mapping() {
        if (m_data) ::munmap(const_cast<unsigned char*>(m_data), m_size);
    }
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;

    const unsigned char* data() const { return m_data; }
    std::size_t size() const { return m_size; }
    bool ok() const { return m_ok; }

  private:
    void fail(const fs::path& path, const char* what) {
        std::fprintf(stderr, "error: %s %s: %s\n", what, path.c_str(), std::strerror(errno));
        m_ok = false;
    }
    const unsigned char* m_data = nullptr;
    std::size_t m_size = 0;
    bool m_ok = true;
};

std::uint64_t countDifferingWords(const unsigned char* a, const unsigned char* b,
                                  std::size_t words) {
    std::uint64_t n = 0;
    for (std::size_t i = 0; i < words; ++i) {
        std::uint32_t x, y;
        std::memcpy(&x, a + 4 * i, 4);
        std::memcpy(&y, b + 4 * i, 4);
        n += x != y;
    }
    return n;
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> dirs;
    unsigned threads = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--threads" && i + 1 < argc) {
            threads = static_cast<unsigned>(std::max(1, std::atoi(argv[++i])));
        } else if (arg.starts_with("-")) {
            std::fprintf(stderr, "usage: dumpscope-baseline RUN_A RUN_B [--threads N]\n");
            return 2;
        } else {
            dirs.emplace_back(arg);
        }
    }
    if (dirs.size() != 2) {
        std::fprintf(stderr, "usage: dumpscope-baseline RUN_A RUN_B [--threads N]\n");
        return 2;
    }

    std::vector<fs::path> names;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dirs[0], ec)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with("step_") && name.ends_with(".bin") && entry.is_regular_file() &&
            fs::is_regular_file(fs::path(dirs[1]) / name))
            names.push_back(name);
    }
    if (ec) {
        std::fprintf(stderr, "error: %s: %s\n", dirs[0].c_str(), ec.message().c_str());
        return 2;
    }
    std::sort(names.begin(), names.end());

    std::atomic<std::size_t> next{0};
    std::atomic<std::uint64_t> differing{0}, bytes{0};
    std::atomic<bool> failed{false};
    auto worker = [&] {
        for (std::size_t i; (i = next.fetch_add(1)) < names.size();) {
            const fs::path pa = fs::path(dirs[0]) / names[i], pb = fs::path(dirs[1]) / names[i];
            const Mapping a(pa), b(pb);
            if (!a.ok() || !b.ok()) {
                failed = true;
                continue;
            }
            const std::size_t words = std::min(a.size(), b.size()) / 4;
            differing += countDifferingWords(a.data(), b.data(), words);
            bytes += a.size() + b.size();
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
    for (auto& t : pool)
        t.join();

    std::printf("%llu differing 32-bit words in %zu file pairs (%llu bytes)\n",
                static_cast<unsigned long long>(differing.load()), names.size(),
                static_cast<unsigned long long>(bytes.load()));
    return failed ? 2 : 0;
}

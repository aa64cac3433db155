#include "dumpscope/buffer_view.h"

#include "io/regular_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace dumpscope {

namespace {

// pread until `size` bytes or end of file; returns the bytes read, or -1 on an error.
long long preadFull(int fd, unsigned char* out, std::size_t size, std::uint64_t offset) {
    std::size_t done = 0;
    while (done < size) {
        ssize_t n = ::pread(fd, out + done, size - done, static_cast<off_t>(offset + done));
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (n == 0) break;
        done += static_cast<std::size_t>(n);
    }
    return static_cast<long long>(done);
}

struct Page {
    std::uint64_t number = 0;
    std::size_t valid = 0; // bytes read; short at the end of the file
    std::uint64_t lastUse = 0;
    std::vector<unsigned char> bytes;
};

} // namespace

struct BufferView::Impl {
    int fd = -1;
    std::filesystem::path path;
    std::string error;
    DType dtype = DType::u8;
    std::size_t elementSize = 1;
    std::uint64_t byteSize = 0;
    struct timespec mtime {};

    std::mutex cacheMutex;
    std::vector<Page> pages; // at most kCachePages, evicted least recently used
    std::uint64_t useClock = 0;

    ~Impl() {
        if (fd >= 0) ::close(fd);
    }
};

BufferView::BufferView() : m_impl(std::make_unique<Impl>()) {}
BufferView::~BufferView() = default;
BufferView::BufferView(BufferView&&) noexcept = default;
BufferView& BufferView::operator=(BufferView&&) noexcept = default;

bool BufferView::open(const std::filesystem::path& path, DType dtype) {
    close();
    if (!m_impl) m_impl = std::make_unique<Impl>();
    Impl& d = *m_impl;
    d.path = path;
    d.dtype = dtype;
    d.elementSize = dtypeSize(dtype);
    // Symlinks to regular files are followed, as the scan and the comparison follow them; what
    // the link leads to must still be a regular file.
    detail::RegularFile file = detail::openRegularFile(path);
    if (!file.isOpen()) {
        d.error = path.string() + ": " + file.error();
        return false;
    }
    d.fd = file.release();
    d.byteSize = static_cast<std::uint64_t>(file.status().st_size);
    d.mtime = file.status().st_mtim;
    return true;
}

void BufferView::close() {
    if (!m_impl) return;
    Impl& d = *m_impl;
    if (d.fd >= 0) ::close(d.fd);
    d.fd = -1;
    d.byteSize = 0;
    d.error.clear();
    std::lock_guard lock(d.cacheMutex);
    d.pages.clear();
}

bool BufferView::isOpen() const {
    return m_impl && m_impl->fd >= 0;
}
const std::string& BufferView::error() const {
    return m_impl->error;
}
const std::filesystem::path& BufferView::path() const {
    return m_impl->path;
}
DType BufferView::dtype() const {
    return m_impl->dtype;
}
std::size_t BufferView::elementSize() const {
    return m_impl->elementSize;
}
std::uint64_t BufferView::size() const {
    return isOpen() ? m_impl->byteSize / m_impl->elementSize : 0;
}
std::uint64_t BufferView::byteSize() const {
    return isOpen() ? m_impl->byteSize : 0;
}

std::string BufferView::changedSinceOpen() const {
    if (!isOpen()) return {};
    const Impl& d = *m_impl;
    struct stat now {};
    if (::fstat(d.fd, &now) != 0) return d.path.string() + ": cannot stat: " + std::strerror(errno);
    if (static_cast<std::uint64_t>(now.st_size) != d.byteSize)
        return d.path.string() + ": changed while being read (size " + std::to_string(d.byteSize) +
               " -> " + std::to_string(now.st_size) + " bytes)";
    if (now.st_mtim.tv_sec != d.mtime.tv_sec || now.st_mtim.tv_nsec != d.mtime.tv_nsec)
        return d.path.string() + ": changed while being read (modification time moved)";
    return {};
}

std::optional<std::uint64_t> BufferView::bits(std::uint64_t index) const {
    if (index >= size()) return std::nullopt;
    Impl& d = *m_impl;
    // Pages hold whole elements: kPageBytes is a multiple of every element size.
    const std::uint64_t offset = index * d.elementSize;
    const std::uint64_t number = offset / kPageBytes;
    const std::size_t within = static_cast<std::size_t>(offset % kPageBytes);

    std::lock_guard lock(d.cacheMutex);
    Page* page = nullptr;
    for (Page& p : d.pages)
        if (p.number == number && !p.bytes.empty()) page = &p;
    if (!page) {
        if (d.pages.size() < kCachePages) {
            page = &d.pages.emplace_back();
        } else {
            page = &d.pages.front();
            for (Page& p : d.pages)
                if (p.lastUse < page->lastUse) page = &p;
        }
        page->bytes.resize(kPageBytes);
        long long n = preadFull(d.fd, page->bytes.data(), kPageBytes, number * kPageBytes);
        if (n < 0) {
            page->bytes.clear(); // never reuse a page whose read failed
            return std::nullopt;
        }
        page->number = number;
        page->valid = static_cast<std::size_t>(n);
    }
    page->lastUse = ++d.useClock;
    if (within + d.elementSize > page->valid) return std::nullopt; // the file shrank
    return loadBits(d.dtype, page->bytes.data() + within);
}

std::size_t BufferView::readRaw(std::uint64_t first, std::size_t count, unsigned char* out) const {
    const std::uint64_t n = size();
    if (first >= n || count == 0) return 0;
    if (count > n - first) count = static_cast<std::size_t>(n - first);
    const std::size_t es = m_impl->elementSize;
    long long got = preadFull(m_impl->fd, out, count * es, first * es);
    if (got <= 0) return 0;
    return static_cast<std::size_t>(got) / es;
}

std::size_t BufferView::readBits(std::uint64_t first, std::size_t count, std::uint64_t* out) const {
    if (!isOpen()) return 0;
    const std::size_t es = m_impl->elementSize;
    // Bounded scratch so that a huge request never allocates its whole byte size at once.
    constexpr std::size_t kScratchElements = 8192;
    std::vector<unsigned char> scratch(std::min(count, kScratchElements) * es);
    std::size_t done = 0;
    while (done < count) {
        std::size_t want = std::min(count - done, kScratchElements);
        std::size_t got = readRaw(first + done, want, scratch.data());
        for (std::size_t i = 0; i < got; ++i)
            out[done + i] = loadBits(m_impl->dtype, scratch.data() + i * es);
        done += got;
        if (got < want) break;
    }
    return done;
}

std::string forEachChunkPair(const BufferView& a, const BufferView& b, std::uint64_t n,
                             std::size_t chunkElements, const ChunkPairFn& fn) {
    const std::size_t es = a.elementSize();
    std::vector<unsigned char> bufA(chunkElements * es), bufB(chunkElements * es);
    for (std::uint64_t first = 0; first < n; first += chunkElements) {
        const auto m = static_cast<std::size_t>(std::min<std::uint64_t>(chunkElements, n - first));
        const std::size_t gotA = a.readRaw(first, m, bufA.data());
        const std::size_t gotB = b.readRaw(first, m, bufB.data());
        if (gotA != m || gotB != m)
            return (gotA != m ? a.path() : b.path()).string() +
                   ": read failed or the file shrank while being read";
        if (!fn(bufA.data(), bufB.data(), m, first)) break;
    }
    return {};
}

} // namespace dumpscope

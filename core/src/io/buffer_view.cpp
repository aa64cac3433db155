#include "dumpscope/buffer_view.h"

#include "io/source_reader.h"

#include <algorithm>
#include <mutex>
#include <vector>

namespace dumpscope {

namespace {

struct Page {
    std::uint64_t number = 0;
    std::size_t valid = 0; // bytes read; short at the end of the file
    std::uint64_t lastUse = 0;
    std::vector<unsigned char> bytes;
};

} // namespace

struct BufferView::Impl {
    detail::SourceReader file;
    DType dtype = DType::u8;
    std::size_t elementSize = 1;

    std::mutex cacheMutex;
    std::vector<Page> pages; // at most kCachePages, evicted least recently used
    std::uint64_t useClock = 0;
};

BufferView::BufferView() : m_impl(std::make_unique<Impl>()) {}
BufferView::~BufferView() = default;
BufferView::BufferView(BufferView&&) noexcept = default;
BufferView& BufferView::operator=(BufferView&&) noexcept = default;

bool BufferView::open(const std::filesystem::path& path, DType dtype) {
    close();
    if (!m_impl) m_impl = std::make_unique<Impl>();
    Impl& d = *m_impl;
    d.dtype = dtype;
    d.elementSize = dtypeSize(dtype);
    // Symlinks to regular files are followed, as the scan and the comparison follow them; what
    // the link leads to must still be a regular file.
    return d.file.open(path, detail::ReadPattern::random);
}

bool BufferView::open(const BufferSource& source, DType dtype) {
    if (!source.location) return open(source.path, dtype);
    close();
    if (!m_impl) m_impl = std::make_unique<Impl>();
    Impl& d = *m_impl;
    d.dtype = dtype;
    d.elementSize = dtypeSize(dtype);
    return d.file.open(source.path, *source.location, d.elementSize, detail::ReadPattern::random);
}

void BufferView::close() {
    if (!m_impl) return;
    Impl& d = *m_impl;
    d.file.close();
    std::lock_guard lock(d.cacheMutex);
    d.pages.clear();
}

bool BufferView::isOpen() const {
    return m_impl && m_impl->file.isOpen();
}
const std::string& BufferView::error() const {
    return m_impl->file.error();
}
const std::filesystem::path& BufferView::path() const {
    return m_impl->file.path();
}
DType BufferView::dtype() const {
    return m_impl->dtype;
}
std::size_t BufferView::elementSize() const {
    return m_impl->elementSize;
}
std::uint64_t BufferView::size() const {
    return isOpen() ? m_impl->file.size() / m_impl->elementSize : 0;
}
std::uint64_t BufferView::byteSize() const {
    return isOpen() ? m_impl->file.size() : 0;
}

std::string BufferView::changedSinceOpen() const {
    if (!isOpen()) return {};
    return m_impl->file.changedSinceOpen();
}

std::optional<std::uint64_t> BufferView::bits(std::uint64_t index, std::string* error) const {
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
        const detail::ReadOutcome got =
            d.file.readAt(page->bytes.data(), kPageBytes, number * kPageBytes);
        if (got.errorNumber != 0) {
            page->bytes.clear(); // never reuse a page whose read failed
            if (error) *error = d.file.describe(got, number * kPageBytes);
            return std::nullopt;
        }
        page->number = number;
        page->valid = got.bytes; // short on the last page, or when the file shrank
    }
    page->lastUse = ++d.useClock;
    if (within + d.elementSize > page->valid) { // the file shrank
        if (error) *error = d.file.describe({page->valid, 0}, number * kPageBytes);
        return std::nullopt;
    }
    return loadBits(d.dtype, page->bytes.data() + within);
}

std::size_t BufferView::readRaw(std::uint64_t first, std::size_t count, unsigned char* out,
                                std::string* error) const {
    const std::uint64_t n = size();
    if (first >= n || count == 0) return 0;
    if (count > n - first) count = static_cast<std::size_t>(n - first);
    const std::size_t es = m_impl->elementSize;
    const detail::ReadOutcome got = m_impl->file.readAt(out, count * es, first * es);
    if (got.bytes == count * es) return count;
    if (error) *error = m_impl->file.describe(got, first * es);
    return got.errorNumber != 0 ? 0 : got.bytes / es;
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
        for (auto [view, buf] : {std::pair{&a, bufA.data()}, std::pair{&b, bufB.data()}}) {
            std::string why;
            if (view->readRaw(first, m, buf, &why) == m) continue;
            // Empty when the range reaches past the view's own end: no read came up short.
            return why.empty() ? view->path().string() + ": has " + std::to_string(view->size()) +
                                     " elements, fewer than the " + std::to_string(n) + " to read"
                               : why;
        }
        if (!fn(bufA.data(), bufB.data(), m, first)) break;
    }
    return {};
}

} // namespace dumpscope

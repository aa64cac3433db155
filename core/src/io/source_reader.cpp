#include "io/source_reader.h"

#include "formats/inflate_stream.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <mutex>
#include <vector>

namespace dumpscope::detail {

namespace {

// A strided view is gathered from a window of its storage. A storage this small is read whole,
// once; a larger one through a sliding window, so a slice with a small step costs one read per
// window while a transpose of a large storage costs one read per element (re-save it with
// .contiguous() to read it at a raw dump's speed).
constexpr std::uint64_t kWholeExtentBytes = std::uint64_t{16} << 20;
constexpr std::uint64_t kWindowBytes = std::uint64_t{1} << 20;
// A view may read its storage's elements many times over (stride 0: torch's expand), so its
// elements, not the bytes on disk, set the work. A view of more than 2^28 elements that is
// also more than 64 times its storage is refused: a header of a few bytes must not buy hours.
constexpr std::uint64_t kMaxViewElements = std::uint64_t{1} << 28;
constexpr std::uint64_t kMaxViewRepeats = 64;

bool mulOverflows(std::uint64_t a, std::uint64_t b, std::uint64_t& out) {
    return __builtin_mul_overflow(a, b, &out);
}

} // namespace

struct SourceReader::Impl {
    DumpReader file;
    bool tensor = false;
    TensorLocation location;
    std::size_t elementSize = 1;
    std::uint64_t bytes = 0; // the buffer's bytes
    std::string error;       // an open() refusal of the location

    // Strided views and deflated members keep state between reads.
    mutable std::mutex mutex;
    mutable std::vector<unsigned char> window;
    mutable std::uint64_t windowStart = 0, windowValid = 0; // bytes of the extent
    mutable std::unique_ptr<InflateStream> inflate;
    mutable std::string readError; // what the last failed deflated read said
    bool checksum = false;         // keep the member's CRC-32 (checksumWholeMember)

    std::string memberAt(const std::string& what) const {
        return file.path().string() + ": member " + location.member + ": byte " +
               std::to_string(location.offset) + ": " + what;
    }
    std::string tensorName() const {
        return file.path().string() +
               (location.key.empty() ? std::string() : ": tensor \"" + location.key + "\"");
    }
    ReadOutcome readStrided(unsigned char* out, std::size_t n, std::uint64_t offset) const;
    ReadOutcome readDeflated(unsigned char* out, std::size_t n, std::uint64_t offset) const;
};

SourceReader::SourceReader() : m_impl(std::make_unique<Impl>()) {}
SourceReader::~SourceReader() = default;
SourceReader::SourceReader(SourceReader&&) noexcept = default;
SourceReader& SourceReader::operator=(SourceReader&&) noexcept = default;

bool SourceReader::open(const std::filesystem::path& path, ReadPattern pattern) {
    close();
    Impl& d = *m_impl;
    if (!d.file.open(path, pattern)) return false;
    d.bytes = d.file.size();
    return true;
}

bool SourceReader::open(const std::filesystem::path& path, const TensorLocation& location,
                        std::size_t elementSize, ReadPattern pattern) {
    close();
    Impl& d = *m_impl;
    d.tensor = true;
    d.location = location;
    d.elementSize = elementSize;
    if (!d.file.open(path, pattern)) return false;
    auto refuse = [&](const std::string& why) {
        d.error = d.tensorName() + ": " + why;
        d.file.close();
        return false;
    };
    if (mulOverflows(location.count, elementSize, d.bytes))
        return refuse("its element count overflows");
    const std::uint64_t fileSize = d.file.size();
    const std::uint64_t stored = location.deflated       ? location.compressedBytes
                                 : location.contiguous() ? d.bytes
                                                         : location.extentBytes;
    if (location.offset > fileSize || stored > fileSize - location.offset)
        return refuse("its data (" + std::to_string(stored) + " bytes at byte " +
                      std::to_string(location.offset) + ") lies past the end of the file (" +
                      std::to_string(fileSize) +
                      " bytes): the file is shorter than its header says");
    if (!location.contiguous()) {
        if (location.deflated)
            return refuse("a strided view inside a compressed member is not supported");
        if (location.sizes.size() != location.strides.size())
            return refuse("its view has " + std::to_string(location.sizes.size()) + " sizes but " +
                          std::to_string(location.strides.size()) + " strides");
        // The last element of the view must lie inside the storage's extent.
        std::uint64_t last = 0, term = 0;
        for (std::size_t i = 0; i < location.sizes.size(); ++i) {
            if (location.sizes[i] == 0) {
                last = 0;
                break;
            }
            if (mulOverflows(location.sizes[i] - 1, location.strides[i], term) ||
                __builtin_add_overflow(last, term, &last))
                return refuse("its view's strides overflow");
        }
        const std::uint64_t storageElements = location.extentBytes / elementSize;
        if (location.count > kMaxViewElements && location.count / kMaxViewRepeats > storageElements)
            return refuse("its view has " + std::to_string(location.count) +
                          " elements over a storage of " + std::to_string(storageElements) +
                          " (a stride-0 or expanded view): more than " +
                          std::to_string(kMaxViewRepeats) + " times its storage and more than " +
                          std::to_string(kMaxViewElements) +
                          " elements, the most dumpscope reads through a view");
        std::uint64_t end = 0;
        if (location.count > 0 &&
            (mulOverflows(last + 1, elementSize, end) || end > location.extentBytes))
            return refuse("its view reaches element " + std::to_string(last) + " of a storage of " +
                          std::to_string(location.extentBytes / elementSize) + " elements");
    }
    return true;
}

void SourceReader::close() {
    Impl& d = *m_impl;
    d.file.close();
    d.tensor = false;
    d.location = {};
    d.elementSize = 1;
    d.bytes = 0;
    d.error.clear();
    std::lock_guard lock(d.mutex);
    d.window.clear();
    d.windowStart = d.windowValid = 0;
    d.inflate.reset();
    d.readError.clear();
    d.checksum = false;
}

bool SourceReader::isOpen() const {
    return m_impl->file.isOpen();
}
const std::filesystem::path& SourceReader::path() const {
    return m_impl->file.path();
}
const std::string& SourceReader::error() const {
    return m_impl->error.empty() ? m_impl->file.error() : m_impl->error;
}
bool SourceReader::notRegular() const {
    return m_impl->file.notRegular();
}
dumpscope::FileIdentity SourceReader::openedIdentity() const {
    return m_impl->file.identity();
}

std::uint64_t SourceReader::size() const {
    return isOpen() ? m_impl->bytes : 0;
}

ReadOutcome SourceReader::Impl::readStrided(unsigned char* out, std::size_t n,
                                            std::uint64_t offset) const {
    const std::size_t es = elementSize;
    const auto& sizes = location.sizes;
    const auto& strides = location.strides;
    // The multi-index of the first element, and its element offset in the storage.
    std::uint64_t element = offset / es;
    std::vector<std::uint64_t> index(sizes.size(), 0);
    std::uint64_t at = 0;
    for (std::size_t i = sizes.size(); i-- > 0;) {
        index[i] = element % sizes[i];
        element /= sizes[i];
        at += index[i] * strides[i];
    }
    std::lock_guard lock(mutex);
    const std::uint64_t span =
        location.extentBytes <= kWholeExtentBytes ? location.extentBytes : kWindowBytes;
    if (window.size() < span) window.resize(span);
    ReadOutcome r;
    while (r.bytes + es <= n) {
        const std::uint64_t byte = at * es;
        if (byte < windowStart || byte + es > windowStart + windowValid) {
            windowStart = span == location.extentBytes ? 0 : byte & ~std::uint64_t{4095};
            const std::size_t len = static_cast<std::size_t>(
                std::min<std::uint64_t>(span, location.extentBytes - windowStart));
            const ReadOutcome got = file.readAt(window.data(), len, location.offset + windowStart);
            windowValid = got.bytes;
            if (byte + es > windowStart + windowValid) {
                r.errorNumber = got.errorNumber;
                return r;
            }
        }
        std::memcpy(out + r.bytes, window.data() + (byte - windowStart), es);
        r.bytes += es;
        // The next element in C order: carry from the innermost dimension.
        for (std::size_t i = sizes.size(); i-- > 0;) {
            at += strides[i];
            if (++index[i] < sizes[i]) break;
            at -= sizes[i] * strides[i];
            index[i] = 0;
        }
    }
    return r;
}

ReadOutcome SourceReader::Impl::readDeflated(unsigned char* out, std::size_t n,
                                             std::uint64_t offset) const {
    std::lock_guard lock(mutex);
    const std::uint64_t wanted = location.skipBytes + offset;
    // A deflate stream cannot be entered in the middle: a read behind its position starts over.
    if (!inflate || inflate->position() > wanted) {
        if (!inflate) inflate = std::make_unique<InflateStream>();
        inflate->reset(file, location.offset, location.compressedBytes, checksum);
    }
    ReadOutcome r;
    if (!inflate->skip(wanted - inflate->position())) {
        readError = inflate->error();
        r.errorNumber = readError.empty() ? 0 : EIO;
        return r;
    }
    r.bytes = inflate->read(out, n);
    if (r.bytes < n && !inflate->error().empty()) {
        readError = inflate->error();
        r.errorNumber = EIO;
    }
    return r;
}

ReadOutcome SourceReader::readAt(void* out, std::size_t n, std::uint64_t offset) const {
    const Impl& d = *m_impl;
    if (!d.tensor) return d.file.readAt(out, n, offset);
    if (offset >= d.bytes) return {};
    n = static_cast<std::size_t>(std::min<std::uint64_t>(n, d.bytes - offset));
    auto* bytes = static_cast<unsigned char*>(out);
    if (d.location.deflated) return d.readDeflated(bytes, n, offset);
    if (!d.location.contiguous()) {
        if (offset % d.elementSize != 0) return {0, EINVAL};
        return d.readStrided(bytes, n - n % d.elementSize, offset);
    }
    return d.file.readAt(out, n, d.location.offset + offset);
}

std::string SourceReader::readExact(void* out, std::size_t n, std::uint64_t offset,
                                    bool& ended) const {
    return readExactly(*this, out, n, offset, ended);
}

std::string SourceReader::describe(const ReadOutcome& got, std::uint64_t offset) const {
    const Impl& d = *m_impl;
    if (!d.tensor) return d.file.describe(got, offset);
    if (d.location.contiguous() && !d.location.deflated)
        return d.file.describe(got, d.location.offset + offset);
    if (d.location.deflated && got.errorNumber == EIO) {
        std::lock_guard lock(d.mutex);
        return d.readError;
    }
    const std::string element = std::to_string((offset + got.bytes) / d.elementSize);
    if (d.location.deflated && got.errorNumber == 0)
        return d.tensorName() + ": its compressed member inflates to " + element +
               " elements, fewer than the " + std::to_string(d.location.count) +
               " its header promises";
    if (got.errorNumber != 0)
        return d.tensorName() + ": read error at element " + element + ": " +
               std::strerror(got.errorNumber);
    return d.tensorName() + ": ended at element " + element +
           " while being read (the file is shorter than when it was listed)";
}

std::string SourceReader::changedSinceOpen() const {
    return m_impl->file.changedSinceOpen();
}

std::string SourceReader::sameCompressedStream(const SourceReader& other, bool& same) const {
    same = false;
    const Impl &d = *m_impl, &o = *other.m_impl;
    const TensorLocation &x = d.location, &y = o.location;
    if (!d.tensor || !o.tensor || !x.deflated || !y.deflated || !x.contiguous() ||
        !y.contiguous() || x.compressedBytes != y.compressedBytes || x.crc32 != y.crc32 ||
        x.inflatedBytes != y.inflatedBytes || x.skipBytes != y.skipBytes || d.bytes != o.bytes)
        return {};
    // The sizes and CRC-32 are the directory's word; the bytes on disk settle it.
    constexpr std::size_t kChunk = std::size_t{128} << 10;
    std::vector<unsigned char> bufX(kChunk), bufY(kChunk);
    for (std::uint64_t at = 0; at < x.compressedBytes; at += kChunk) {
        const std::size_t n =
            static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, x.compressedBytes - at));
        bool ended = false;
        if (auto e = d.file.readExact(bufX.data(), n, x.offset + at, ended); !e.empty()) return e;
        if (auto e = o.file.readExact(bufY.data(), n, y.offset + at, ended); !e.empty()) return e;
        if (std::memcmp(bufX.data(), bufY.data(), n) != 0) return {};
    }
    same = true;
    return {};
}

void SourceReader::checksumWholeMember() {
    Impl& d = *m_impl;
    if (!d.tensor || !d.location.deflated) return;
    std::lock_guard lock(d.mutex);
    d.checksum = true;
    d.inflate.reset();
}

std::string SourceReader::verifyWholeMember() const {
    const Impl& d = *m_impl;
    if (!d.tensor || !d.location.deflated) return {};
    std::lock_guard lock(d.mutex);
    if (!d.inflate) {
        // No element was read (an empty tensor): the header alone is inflated and checked.
        d.inflate = std::make_unique<InflateStream>();
        d.inflate->reset(d.file, d.location.offset, d.location.compressedBytes, d.checksum);
    }
    const bool ended = d.inflate->drain(d.location.inflatedBytes);
    if (!d.inflate->error().empty()) return d.inflate->error();
    if (!ended || d.inflate->position() != d.location.inflatedBytes)
        return d.memberAt("inflates to " + std::string(ended ? "" : "more than ") +
                          std::to_string(d.inflate->position()) +
                          " bytes where the directory says " +
                          std::to_string(d.location.inflatedBytes));
    if (d.checksum && d.inflate->crc() != d.location.crc32)
        return d.memberAt("its CRC-32 does not match the directory's");
    return {};
}

} // namespace dumpscope::detail

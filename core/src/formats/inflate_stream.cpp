#include "formats/inflate_stream.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <vector>

namespace dumpscope::detail {

namespace {

// Compressed bytes read per pread: large enough that the system call is a small share of the
// inflate work, small enough that a stream stays a few hundred KiB (with zlib's 32 KiB window).
constexpr std::size_t kInputChunk = std::size_t{128} << 10;
// The first pread after reset() reads this much, and each next one twice as much up to
// kInputChunk: reading an .npz member's header then costs a few KiB, not a whole chunk.
constexpr std::size_t kFirstInputChunk = std::size_t{4} << 10;
// What skip() inflates into and drops, per inflate() call.
constexpr std::size_t kSkipChunk = std::size_t{64} << 10;

} // namespace

struct InflateStream::Impl {
    z_stream z{};
    bool initialized = false;
    const DumpReader* file = nullptr;
    std::uint64_t offset = 0;          // the member's first compressed byte in the file
    std::uint64_t compressedBytes = 0; // the member's compressed size
    std::uint64_t fed = 0;             // compressed bytes read into `input` so far
    std::size_t nextChunk = kFirstInputChunk;
    std::uint64_t position = 0; // inflated bytes handed out or skipped
    bool checksum = false;
    uLong crc = 0; // of the inflated bytes, when `checksum`
    bool ended = false;
    std::string error;
    std::vector<unsigned char> input;
    std::vector<unsigned char> scratch; // skip()'s sink, allocated on its first use

    ~Impl() {
        if (initialized) inflateEnd(&z);
    }

    // The byte of the file zlib was reading when it stopped: the compressed bytes read so far
    // minus those still waiting in the input buffer.
    std::uint64_t fileByte() const { return offset + fed - z.avail_in; }

    void fail(const std::string& what) {
        error = file->path().string() + ": byte " + std::to_string(fileByte()) + ": " + what;
    }

    bool refill() {
        const std::size_t n =
            static_cast<std::size_t>(std::min<std::uint64_t>(nextChunk, compressedBytes - fed));
        nextChunk = std::min(nextChunk * 2, kInputChunk);
        const ReadOutcome got = file->readAt(input.data(), n, offset + fed);
        if (got.bytes != n) {
            error = file->describe(got, offset + fed);
            return false;
        }
        fed += n;
        z.next_in = input.data();
        z.avail_in = static_cast<uInt>(n);
        return true;
    }

    // Inflates into [out, out + n) until it is full, the member ends or an error; returns the
    // bytes written.
    std::size_t inflateInto(unsigned char* out, std::size_t n) {
        std::size_t done = 0;
        while (done < n && !ended && error.empty()) {
            if (z.avail_in == 0 && fed < compressedBytes && !refill()) break;
            // avail_out is a uInt: a request larger than 4 GiB is served in several calls.
            const std::size_t want = std::min<std::size_t>(n - done, UINT_MAX);
            z.next_out = out + done;
            z.avail_out = static_cast<uInt>(want);
            const int rc = inflate(&z, Z_NO_FLUSH);
            done += want - z.avail_out;
            if (rc == Z_STREAM_END) {
                ended = true;
            } else if (rc == Z_OK || rc == Z_BUF_ERROR) {
                // Room left for output, every compressed byte in, and no end of stream: the
                // member's data stops in the middle of a deflate block.
                if (z.avail_in == 0 && fed == compressedBytes && z.avail_out != 0)
                    fail("deflate data is corrupt: it stops before the end of the stream (" +
                         std::to_string(compressedBytes) + " compressed bytes)");
            } else {
                fail(std::string("deflate data is corrupt: ") +
                     (z.msg != nullptr ? z.msg : "zlib error " + std::to_string(rc)));
            }
        }
        position += done;
        if (checksum && done > 0) crc = crc32_z(crc, out, done);
        if (hooks::countInflatedBytes) hooks::countInflatedBytes(done);
        return done;
    }
};

InflateStream::InflateStream() : m_impl(std::make_unique<Impl>()) {}
InflateStream::~InflateStream() = default;
InflateStream::InflateStream(InflateStream&&) noexcept = default;
InflateStream& InflateStream::operator=(InflateStream&&) noexcept = default;

void InflateStream::reset(const DumpReader& file, std::uint64_t offset,
                          std::uint64_t compressedBytes, bool checksum) {
    Impl& s = *m_impl;
    s.file = &file;
    s.offset = offset;
    s.compressedBytes = compressedBytes;
    s.fed = 0;
    s.nextChunk = kFirstInputChunk;
    s.position = 0;
    s.checksum = checksum;
    s.crc = crc32_z(0L, Z_NULL, 0);
    s.ended = false;
    s.error.clear();
    if (s.input.empty()) s.input.resize(kInputChunk);
    s.z.next_in = nullptr;
    s.z.avail_in = 0;
    // Raw deflate (negative window bits): zip members carry no zlib header or trailer.
    const int rc = s.initialized ? inflateReset(&s.z) : inflateInit2(&s.z, -MAX_WBITS);
    if (rc != Z_OK) {
        s.error = file.path().string() + ": cannot start inflating (zlib error " +
                  std::to_string(rc) + ")";
        return;
    }
    s.initialized = true;
}

std::size_t InflateStream::read(void* out, std::size_t n) {
    if (m_impl->file == nullptr) return 0;
    return m_impl->inflateInto(static_cast<unsigned char*>(out), n);
}

bool InflateStream::skip(std::uint64_t n) {
    Impl& s = *m_impl;
    if (s.file == nullptr) return false;
    if (s.scratch.empty() && n > 0) s.scratch.resize(kSkipChunk);
    while (n > 0) {
        const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(n, kSkipChunk));
        const std::size_t got = s.inflateInto(s.scratch.data(), want);
        n -= got;
        if (got < want) return false;
    }
    return true;
}

bool InflateStream::drain(std::uint64_t limit) {
    Impl& s = *m_impl;
    if (s.file == nullptr) return false;
    if (s.scratch.empty()) s.scratch.resize(kSkipChunk);
    while (!s.ended && s.error.empty() && s.position <= limit)
        if (s.inflateInto(s.scratch.data(), s.scratch.size()) == 0 && !s.ended) break;
    return s.ended && s.error.empty() && s.position <= limit;
}

std::uint64_t InflateStream::position() const {
    return m_impl->position;
}
std::uint32_t InflateStream::crc() const {
    return static_cast<std::uint32_t>(m_impl->crc);
}
bool InflateStream::atEnd() const {
    return m_impl->ended;
}
const std::string& InflateStream::error() const {
    return m_impl->error;
}

} // namespace dumpscope::detail

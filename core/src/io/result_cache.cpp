#include "dumpscope/result_cache.h"

#include "dumpscope/fingerprint.h"
#include "io/regular_file.h"

#include <sys/stat.h>

namespace dumpscope {

namespace fs = std::filesystem;

std::optional<FileIdentity> fileIdentity(const fs::path& path) {
    struct stat st {};
    if (detail::statAnyLength(path, st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    return FileIdentity{
        static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
        static_cast<std::uint64_t>(st.st_size),
        static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec,
        static_cast<std::int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec};
}

bool ResultCache::sameInputs(const Entry& e, const std::optional<FileIdentity>& a,
                             const std::optional<FileIdentity>& b, DType dtype,
                             const CompareOptions& options) {
    const Tolerance &x = e.options.tolerance, &y = options.tolerance;
    return e.a == a && e.b == b && e.dtype == dtype && e.options.shape == options.shape &&
           e.options.roundingThreshold == options.roundingThreshold && x.atol == y.atol &&
           x.rtol == y.rtol && x.ulp == y.ulp;
}

namespace {

// What tells apart the buffers of one file: a tensor's key; for a side known by its fingerprint,
// everything its result depends on (the fingerprint, type and shape), kept apart from keys by
// the Key's flags, so that a byte result is never returned for a fingerprint pair.
std::string sideKey(const BufferSource& side) {
    if (side.logged) {
        std::string key = fingerprintHex(side.logged->fingerprint) + " " + side.logged->typeName;
        for (std::uint64_t d : side.logged->shape)
            key += " " + std::to_string(d);
        return key;
    }
    return side.location ? side.location->key : std::string();
}

} // namespace

BufferResult ResultCache::compare(const fs::path& a, const fs::path& b, DType dtype,
                                  const CompareOptions& options) {
    return compare(BufferSource{a, nullptr}, BufferSource{b, nullptr}, dtype, options);
}

BufferResult ResultCache::compare(const BufferSource& sideA, const BufferSource& sideB, DType dtype,
                                  const CompareOptions& options) {
    // A side known by its fingerprint is identified by what the log says of it, not by the
    // log file, which holds every buffer of the run and grows with each step.
    const fs::path a = sideA.fingerprintOnly() ? fs::path() : sideA.path;
    const fs::path b = sideB.fingerprintOnly() ? fs::path() : sideB.path;
    // Neither side has bytes to read (fingerprints, or one absent): comparing the pair again
    // costs less than looking it up, and keeping it would save no read.
    if (a.empty() && b.empty()) return compareSources(sideA, sideB, dtype, options);
    const auto idA = a.empty() ? std::nullopt : fileIdentity(a);
    const auto idB = b.empty() ? std::nullopt : fileIdentity(b);
    const std::uint64_t nFiles = (a.empty() ? 0 : 1) + (b.empty() ? 0 : 1);
    // A side that should exist but cannot be stat'ed is compared (and reported) every time.
    const bool cacheable = (a.empty() || idA) && (b.empty() || idB);
    const Key key{idA ? idA->device : 0,   idA ? idA->inode : 0,   idB ? idB->device : 0,
                  idB ? idB->inode : 0,    sideKey(sideA),         sideKey(sideB),
                  sideA.fingerprintOnly(), sideB.fingerprintOnly()};
    if (cacheable) {
        std::lock_guard lock(m_mutex);
        if (auto it = m_entries.find(key);
            it != m_entries.end() && sameInputs(it->second, idA, idB, dtype, options)) {
            ++m_stats.hits;
            return it->second.result;
        }
    }
    BufferResult r = compareSources(sideA, sideB, dtype, options);
    // Kept only when both files are still what they were before the comparison: a file written
    // meanwhile gets a new identity and is compared again next time.
    const bool keep = cacheable && !isError(r.status) && (a.empty() || fileIdentity(a) == idA) &&
                      (b.empty() || fileIdentity(b) == idB);
    std::lock_guard lock(m_mutex);
    ++m_stats.misses;
    m_stats.filesRead += nFiles;
    if (keep)
        m_entries[key] = Entry{idA, idB, dtype, options, r};
    else if (cacheable)
        m_entries.erase(key);
    return r;
}

ResultCache::Stats ResultCache::stats() const {
    std::lock_guard lock(m_mutex);
    Stats s = m_stats;
    s.entries = m_entries.size();
    return s;
}

void ResultCache::clear() {
    std::lock_guard lock(m_mutex);
    m_entries.clear();
}

} // namespace dumpscope

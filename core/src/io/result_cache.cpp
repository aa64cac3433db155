#include "dumpscope/result_cache.h"

#include "compare/compare_sides.h"
#include "dumpscope/fingerprint.h"
#include "io/identity_stat_count.h"
#include "io/regular_file.h"

#include <sys/stat.h>

namespace dumpscope {

namespace fs = std::filesystem;

std::optional<FileIdentity> fileIdentity(const fs::path& path) {
    detail::countIdentityStat();
    struct stat st {};
    if (detail::statAnyLength(path, st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    return detail::identityOf(st);
}

bool ResultCache::sameInputs(const Entry& e, const Entry& now) {
    const Tolerance &x = e.options.tolerance, &y = now.options.tolerance;
    return e.keyA == now.keyA && e.keyB == now.keyB && e.fingerprintA == now.fingerprintA &&
           e.fingerprintB == now.fingerprintB && e.a == now.a && e.b == now.b &&
           e.dtype == now.dtype && e.options.shape == now.options.shape &&
           e.options.roundingThreshold == now.options.roundingThreshold && x.atol == y.atol &&
           x.rtol == y.rtol && x.ulp == y.ulp;
}

namespace {

// What tells apart the buffers of one file: a tensor's key; for a side known by its fingerprint,
// everything its result depends on (the fingerprint, type and shape), kept apart from keys by
// the entry's flags, so that a byte result is never returned for a fingerprint pair.
std::string sideKey(const BufferSource& side) {
    if (side.logged) {
        std::string key = fingerprintHex(side.logged->fingerprint) + " " + side.logged->typeName;
        for (std::uint64_t d : side.logged->shape)
            key += " " + std::to_string(d);
        return key;
    }
    return side.location ? side.location->key : std::string();
}

// The pair by its paths and keys.
std::uint64_t nameHash(const fs::path& a, const fs::path& b, const std::string& keyA,
                       const std::string& keyB, bool fingerprintA, bool fingerprintB) {
    std::uint64_t h = 1469598103934665603ull ^ (fingerprintA ? 1 : 0) ^ (fingerprintB ? 2 : 0);
    for (const std::string* part : {&a.native(), &b.native(), &keyA, &keyB})
        h = (h ^ std::hash<std::string>{}(*part)) * 1099511628211ull;
    return h;
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
    Entry now{sideKey(sideA),
              sideKey(sideB),
              sideA.fingerprintOnly(),
              sideB.fingerprintOnly(),
              std::nullopt,
              std::nullopt,
              dtype,
              options,
              {}};
    const std::uint64_t name =
        nameHash(a, b, now.keyA, now.keyB, now.fingerprintA, now.fingerprintB);
    Shard& shard = m_shards[name % kShards];
    bool held = false;
    {
        std::lock_guard lock(shard.mutex);
        held = shard.entries.count(name) > 0;
    }
    // Only a pair held is looked up, by what its paths lead to now.
    if (held) {
        now.a = a.empty() ? std::nullopt : fileIdentity(a);
        now.b = b.empty() ? std::nullopt : fileIdentity(b);
        std::lock_guard lock(shard.mutex);
        if (auto it = shard.entries.find(name);
            it != shard.entries.end() && sameInputs(it->second, now)) {
            m_hits.fetch_add(1, std::memory_order_relaxed);
            return it->second.result;
        }
    }
    detail::OpenedFiles opened;
    BufferResult r = detail::compareSides(sideA, sideB, dtype, options, &opened);
    m_misses.fetch_add(1, std::memory_order_relaxed);
    m_filesRead.fetch_add((a.empty() ? 0 : 1) + (b.empty() ? 0 : 1), std::memory_order_relaxed);
    // Kept under the files as they were opened. One written while it was read is
    // changed_while_reading, never kept; one written or renamed over since has another identity
    // when the pair is next looked up. Errors are retried.
    const bool keep = !isError(r.status) && (a.empty() || opened.a) && (b.empty() || opened.b);
    if (keep) {
        now.a = opened.a;
        now.b = opened.b;
        now.result = r;
    }
    std::lock_guard lock(shard.mutex);
    if (keep)
        shard.entries.insert_or_assign(name, std::move(now));
    else if (held)
        shard.entries.erase(name); // out of date, and nothing to put in its place
    return r;
}

ResultCache::Stats ResultCache::stats() const {
    Stats s;
    s.hits = m_hits.load(std::memory_order_relaxed);
    s.misses = m_misses.load(std::memory_order_relaxed);
    s.filesRead = m_filesRead.load(std::memory_order_relaxed);
    for (const Shard& shard : m_shards) {
        std::lock_guard lock(shard.mutex);
        s.entries += shard.entries.size();
    }
    return s;
}

void ResultCache::clear() {
    for (Shard& shard : m_shards) {
        std::lock_guard lock(shard.mutex);
        shard.entries.clear();
    }
}

} // namespace dumpscope

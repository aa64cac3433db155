#include "dumpscope/diff_index.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>

namespace dumpscope {

bool DiffFilter::matches(DType t, std::uint64_t bitsA, std::uint64_t bitsB) const {
    switch (kind) {
    case Kind::all:
        return true;
    case Kind::deltaDecade: {
        // DeltaHistogram's classification: NaN side, infinite |Δ|, zero |Δ|, else a decade.
        const double delta = elementDelta(t, bitsA, bitsB).absDelta;
        if (std::isnan(delta)) return bin == kDecadeNan;
        if (std::isinf(delta)) return bin == kDecadeInfinite;
        if (delta == 0) return bin == kDecadeZero;
        return dumpscope::deltaDecade(delta) == bin;
    }
    case Kind::ulpBin: {
        const auto ulp = ulpDistance(t, bitsA, bitsB);
        if (!ulp) return bin == kUlpUndefined;
        return *ulp != 0 && dumpscope::ulpBin(*ulp) == bin;
    }
    }
    return false;
}

// Sets the bits of one pair's differing elements, chunk by chunk, then derives the block ranks.
class DiffIndexBuilder {
  public:
    DiffIndexBuilder(DType dtype, std::uint64_t n, const DiffFilter& filter)
        : m_dtype(dtype), m_es(dtypeSize(dtype)) {
        m_index.m_size = n;
        m_index.m_filter = filter;
        m_index.m_words.assign(static_cast<std::size_t>((n + 63) / 64), 0);
    }

    // `a` and `b` hold m elements starting at element `base`. Word skipping below relies on the
    // chunk starting at an element boundary, which every chunk does.
    void addChunk(const unsigned char* a, const unsigned char* b, std::size_t m,
                  std::uint64_t base) {
        const std::size_t bytes = m * m_es;
        std::size_t w = 0;
        // Most of a real pair is equal: skip 8 bytes at a time and look at elements only inside
        // a word that differs (every element size divides 8).
        for (; w + 8 <= bytes; w += 8) {
            std::uint64_t x, y;
            std::memcpy(&x, a + w, 8);
            std::memcpy(&y, b + w, 8);
            if (x == y) continue;
            for (std::size_t e = w / m_es; e < (w + 8) / m_es; ++e)
                check(a, b, e, base);
        }
        for (std::size_t e = w / m_es; e < m; ++e)
            check(a, b, e, base);
    }

    DiffIndex finish() {
        auto& words = m_index.m_words;
        const std::size_t blocks =
            (words.size() + DiffIndex::kWordsPerBlock - 1) / DiffIndex::kWordsPerBlock;
        m_index.m_blockRanks.assign(blocks + 1, 0);
        std::uint64_t total = 0;
        for (std::size_t w = 0; w < words.size(); ++w) {
            if (w % DiffIndex::kWordsPerBlock == 0)
                m_index.m_blockRanks[w / DiffIndex::kWordsPerBlock] = total;
            total += static_cast<std::uint64_t>(std::popcount(words[w]));
        }
        m_index.m_blockRanks[blocks] = total;
        m_index.m_count = total;
        return std::move(m_index);
    }

  private:
    void check(const unsigned char* a, const unsigned char* b, std::size_t e, std::uint64_t base) {
        const std::uint64_t x = loadBits(m_dtype, a + e * m_es);
        const std::uint64_t y = loadBits(m_dtype, b + e * m_es);
        if (x == y) return;
        if (m_index.m_filter.kind != DiffFilter::Kind::all &&
            !m_index.m_filter.matches(m_dtype, x, y))
            return;
        const std::uint64_t i = base + e;
        m_index.m_words[static_cast<std::size_t>(i / 64)] |= std::uint64_t{1} << (i % 64);
    }

    DType m_dtype;
    std::size_t m_es;
    DiffIndex m_index;
};

namespace {
// Elements per read: bounded memory (512 KiB per side for 8-byte elements) and a multiple of 64
// so that every chunk starts on a bitmap word.
constexpr std::size_t kChunkElements = 64 * 1024;
} // namespace

std::optional<DiffIndex> DiffIndex::build(const BufferView& a, const BufferView& b,
                                          const DiffFilter& filter, const ScanProgressFn& progress,
                                          std::string* error) {
    const DType dtype = a.dtype();
    const std::uint64_t n = std::min(a.size(), b.size());
    DiffIndexBuilder builder(dtype, n, filter);
    bool cancelled = false;
    const std::string failure = forEachChunkPair(
        a, b, n, kChunkElements,
        [&](const unsigned char* pa, const unsigned char* pb, std::size_t m, std::uint64_t base) {
            builder.addChunk(pa, pb, m, base);
            cancelled = progress && !progress(base + m, n);
            return !cancelled;
        });
    if (!failure.empty() && error) *error = failure;
    if (!failure.empty() || cancelled) return std::nullopt;
    return builder.finish();
}

DiffIndex DiffIndex::fromMemory(DType dtype, const void* a, const void* b, std::uint64_t n,
                                const DiffFilter& filter) {
    DiffIndexBuilder builder(dtype, n, filter);
    const std::size_t es = dtypeSize(dtype);
    const auto* pa = static_cast<const unsigned char*>(a);
    const auto* pb = static_cast<const unsigned char*>(b);
    for (std::uint64_t base = 0; base < n; base += kChunkElements) {
        const auto m = static_cast<std::size_t>(std::min<std::uint64_t>(kChunkElements, n - base));
        builder.addChunk(pa + base * es, pb + base * es, m, base);
    }
    return builder.finish();
}

std::size_t DiffIndex::memoryBytes() const {
    return sizeof(*this) + m_words.capacity() * sizeof(std::uint64_t) +
           m_blockRanks.capacity() * sizeof(std::uint64_t);
}

bool DiffIndex::contains(std::uint64_t index) const {
    if (index >= m_size) return false;
    return (m_words[static_cast<std::size_t>(index / 64)] >> (index % 64)) & 1;
}

std::uint64_t DiffIndex::rank(std::uint64_t index) const {
    if (index >= m_size) return m_count;
    const auto word = static_cast<std::size_t>(index / 64);
    const std::size_t block = word / kWordsPerBlock;
    std::uint64_t r = m_blockRanks[block];
    for (std::size_t w = block * kWordsPerBlock; w < word; ++w)
        r += static_cast<std::uint64_t>(std::popcount(m_words[w]));
    const std::uint64_t below = (std::uint64_t{1} << (index % 64)) - 1;
    return r + static_cast<std::uint64_t>(std::popcount(m_words[word] & below));
}

std::optional<std::uint64_t> DiffIndex::select(std::uint64_t k) const {
    if (k >= m_count) return std::nullopt;
    // The last block whose count-before is <= k holds the k-th element: the next block's
    // count-before exceeds k (the final entry is the total, which does).
    auto it = std::upper_bound(m_blockRanks.begin(), m_blockRanks.end(), k);
    const auto block = static_cast<std::size_t>(it - m_blockRanks.begin()) - 1;
    std::uint64_t remaining = k - m_blockRanks[block];
    const std::size_t end = std::min(m_words.size(), (block + 1) * kWordsPerBlock);
    for (std::size_t w = block * kWordsPerBlock; w < end; ++w) {
        std::uint64_t word = m_words[w];
        const auto pc = static_cast<std::uint64_t>(std::popcount(word));
        if (remaining >= pc) {
            remaining -= pc;
            continue;
        }
        for (; remaining > 0; --remaining)
            word &= word - 1; // drop the lowest set bits
        return std::uint64_t{w} * 64 + static_cast<std::uint64_t>(std::countr_zero(word));
    }
    return std::nullopt; // unreachable while the ranks match the bitmap
}

std::optional<std::uint64_t> DiffIndex::nextAfter(std::uint64_t index) const {
    if (index >= m_size) return std::nullopt;
    return select(rank(index + 1));
}

std::optional<std::uint64_t> DiffIndex::previousBefore(std::uint64_t index) const {
    const std::uint64_t r = rank(index);
    if (r == 0) return std::nullopt;
    return select(r - 1);
}

namespace {
void appendDouble(std::string& out, double v) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}
} // namespace

void appendDiffCsvLine(std::string& out, DType t, std::uint64_t index,
                       std::optional<std::uint64_t> bitsA, std::optional<std::uint64_t> bitsB) {
    out += std::to_string(index);
    out += ',';
    if (bitsA) out += formatValue(t, *bitsA);
    out += ',';
    if (bitsB) out += formatValue(t, *bitsB);
    out += ',';
    if (bitsA && bitsB) {
        const ElementDelta d = elementDelta(t, *bitsA, *bitsB);
        appendDouble(out, d.absDelta);
        out += ',';
        appendDouble(out, d.relDelta);
        out += ',';
        if (d.ulp) out += std::to_string(*d.ulp);
    } else {
        out += ",,";
    }
    out += ',';
    if (bitsA) out += formatBits(t, *bitsA);
    out += ',';
    if (bitsB) out += formatBits(t, *bitsB);
    out += '\n';
}

bool writeDiffCsv(const BufferView& a, const BufferView& b, const DiffIndex& index,
                  const std::function<bool(std::string_view)>& sink, std::string* error) {
    const DType t = a.dtype();
    std::string out(kDiffCsvHeader);
    constexpr std::size_t kFlushBytes = 64 * 1024;
    for (std::uint64_t k = 0; k < index.count(); ++k) {
        const std::uint64_t i = *index.select(k);
        std::string why;
        const auto x = a.bits(i, &why);
        const auto y = x ? b.bits(i, &why) : std::nullopt;
        if (!x || !y) {
            if (error)
                *error = why.empty() ? (!x ? a.path() : b.path()).string() + ": read failed" : why;
            return false;
        }
        appendDiffCsvLine(out, t, i, x, y);
        if (out.size() >= kFlushBytes) {
            if (!sink(out)) return false;
            out.clear();
        }
    }
    return sink(out);
}

} // namespace dumpscope

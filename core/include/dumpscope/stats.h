#pragma once

#include "dumpscope/dtype.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace dumpscope {

// One element pair, kept as raw bits so nothing is lost (NaN payloads, -0).
struct ElementDiff {
    std::uint64_t index = 0;
    std::uint64_t bitsA = 0;
    std::uint64_t bitsB = 0;
    double absDelta = 0; // |A-B| as double; NaN when either side is NaN
};

// N counters, all zero until one is written: only then are they allocated. Most buffer pairs
// of a run are equal, and their histograms stay empty; an analysis of 100,000 pairs keeps
// every pair's statistics, so an equal pair's must not cost N counters each. Once counting is
// done, shrink() keeps only the range from the first to the last nonzero counter: a divergent
// pair's differences span a few decades, not DeltaHistogram's 641. Writing expands it again.
template <std::size_t N> class LazyCounts {
    static_assert(N > 0 && N <= 0xffff);

  public:
    using value_type = std::uint64_t;
    // Reads every one of the N counters, the ones not stored as 0.
    class const_iterator {
      public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = std::uint64_t;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = std::uint64_t;
        const_iterator() = default;
        const_iterator(const LazyCounts* counts, std::ptrdiff_t i) : m_counts(counts), m_i(i) {}
        std::uint64_t operator*() const { return (*m_counts)[static_cast<std::size_t>(m_i)]; }
        std::uint64_t operator[](std::ptrdiff_t k) const { return *(*this + k); }
        const_iterator& operator++() { return ++m_i, *this; }
        const_iterator& operator--() { return --m_i, *this; }
        const_iterator operator++(int) { return {m_counts, m_i++}; }
        const_iterator operator--(int) { return {m_counts, m_i--}; }
        const_iterator& operator+=(std::ptrdiff_t k) { return m_i += k, *this; }
        const_iterator& operator-=(std::ptrdiff_t k) { return m_i -= k, *this; }
        friend const_iterator operator+(const_iterator it, std::ptrdiff_t k) { return it += k; }
        friend const_iterator operator+(std::ptrdiff_t k, const_iterator it) { return it += k; }
        friend const_iterator operator-(const_iterator it, std::ptrdiff_t k) { return it -= k; }
        friend std::ptrdiff_t operator-(const_iterator x, const_iterator y) {
            return x.m_i - y.m_i;
        }
        friend bool operator==(const_iterator x, const_iterator y) { return x.m_i == y.m_i; }
        friend auto operator<=>(const_iterator x, const_iterator y) { return x.m_i <=> y.m_i; }

      private:
        const LazyCounts* m_counts = nullptr;
        std::ptrdiff_t m_i = 0;
    };
    using iterator = const_iterator;

    LazyCounts() = default;
    LazyCounts(const LazyCounts& other) : m_first(other.m_first), m_size(other.m_size) {
        if (other.m_counts) {
            m_counts = std::make_unique<std::uint64_t[]>(m_size);
            std::copy_n(other.m_counts.get(), m_size, m_counts.get());
        }
    }
    LazyCounts(LazyCounts&&) noexcept = default;
    LazyCounts& operator=(const LazyCounts& other) {
        if (this != &other) *this = LazyCounts(other);
        return *this;
    }
    LazyCounts& operator=(LazyCounts&&) noexcept = default;

    static constexpr std::size_t size() { return N; }
    std::uint64_t operator[](std::size_t i) const {
        return i - m_first < m_size ? m_counts[i - m_first] : 0;
    }
    std::uint64_t& operator[](std::size_t i) { return own()[i]; }
    std::uint64_t* data() { return own(); } // for writing: all N counters, allocated
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, static_cast<std::ptrdiff_t>(N)}; }
    std::reverse_iterator<const_iterator> rbegin() const { return std::reverse_iterator(end()); }
    std::reverse_iterator<const_iterator> rend() const { return std::reverse_iterator(begin()); }
    bool allocated() const { return m_counts != nullptr; }
    // Counters stored (N once written, fewer after shrink()).
    std::size_t stored() const { return m_size; }

    // The counters from the first nonzero one to the last, as [first, last); {0, 0} when all
    // are zero. A histogram's bars are this range: the reports and the window both trim with
    // it, so they show the same bars. Shrunk, the stored range already is it and no counter
    // outside it is read; unshrunk, the scan runs over the N counters.
    std::pair<std::size_t, std::size_t> usedRange() const {
        std::size_t lo = 0, hi = m_size;
        while (lo < hi && m_counts[lo] == 0)
            ++lo;
        while (hi > lo && m_counts[hi - 1] == 0)
            --hi;
        if (lo == hi) return {0, 0};
        return {m_first + lo, m_first + hi};
    }

    // Keeps usedRange()'s counters only; none when all are zero.
    void shrink() {
        if (!m_counts) return;
        const auto [lo, hi] = usedRange();
        if (lo == m_first && hi - lo == m_size) return;
        std::unique_ptr<std::uint64_t[]> kept;
        if (hi > lo) {
            kept = std::make_unique<std::uint64_t[]>(hi - lo);
            std::copy(m_counts.get() + (lo - m_first), m_counts.get() + (hi - m_first), kept.get());
        }
        m_counts = std::move(kept);
        m_first = lo;
        m_size = hi - lo;
    }

    friend bool operator==(const LazyCounts& x, const LazyCounts& y) {
        return std::equal(x.begin(), x.end(), y.begin());
    }

  private:
    std::uint64_t* own() {
        if (m_size != N) {
            auto all = std::make_unique<std::uint64_t[]>(N); // zeroed
            if (m_counts) std::copy_n(m_counts.get(), m_size, all.get() + m_first);
            m_counts = std::move(all);
            m_first = 0;
            m_size = N;
        }
        return m_counts.get();
    }
    std::unique_ptr<std::uint64_t[]> m_counts; // counters m_first .. m_first + m_size - 1
    std::size_t m_first = 0;
    std::size_t m_size = 0;
};

// log10|Δ| per decade: bin d counts |Δ| in [10^d, 10^(d+1)). Differences whose |Δ| is 0
// (only the sign of zero) or NaN are counted apart. Decades span [kMinDecade, kMaxDecade].
struct DeltaHistogram {
    static constexpr int kMinDecade = -330;
    static constexpr int kMaxDecade = 310;
    LazyCounts<kMaxDecade - kMinDecade + 1> counts;
    std::uint64_t zero = 0;     // |Δ| == 0: sign of zero only
    std::uint64_t nan = 0;      // NaN on one or both sides
    std::uint64_t infinite = 0; // |Δ| is infinite
    std::uint64_t at(int decade) const {
        return counts[static_cast<std::size_t>(decade - kMinDecade)];
    }
};

// ULP distance per power of two: bin k counts distances in [2^k, 2^(k+1)), k in 0..63.
struct UlpHistogram {
    static constexpr std::size_t kBins = 64;
    LazyCounts<kBins> counts;
    std::uint64_t undefined = 0; // NaN on a side: no ULP distance
};

// One element pair in the terms the statistics use , for display and filtering.
struct ElementDelta {
    double a = 0, b = 0;
    double absDelta = 0; // |A-B| (exact for integers); NaN when either side is NaN
    double relDelta = 0; // |Δ| / max(|a|,|b|); 0 when both are zero, NaN with a NaN side,
                         // infinite when |Δ| is
    std::optional<std::uint64_t> ulp; // nullopt with a NaN side
};
ElementDelta elementDelta(DType t, std::uint64_t bitsA, std::uint64_t bitsB);

// The bin of one difference in each histogram. Shared by StatsAccumulator and the GUI's
// "elements of this bar" filter, so that a bar always holds exactly the elements it counts.
// deltaDecade: for a finite |Δ| > 0, the decade d with |Δ| in [10^d, 10^(d+1)), clamped to the
// histogram's range (|Δ| == 0, NaN and Inf go to DeltaHistogram's separate counts).
int deltaDecade(double absDelta);
// ulpBin: for a distance >= 1, the k with distance in [2^k, 2^(k+1)).
inline int ulpBin(std::uint64_t ulp) {
    return std::bit_width(ulp) - 1;
}

struct BufferStats {
    std::uint64_t nA = 0, nB = 0; // element counts
    std::uint64_t nDiff = 0;      // differing elements over min(nA, nB)
    std::optional<std::uint64_t> firstDiff, lastDiff;
    double maxAbsDelta = 0;
    std::optional<std::uint64_t> maxAbsDeltaIndex;
    double maxRelDelta = 0; // |Δ| / max(|a|,|b|)
    std::uint64_t maxUlp = 0;
    std::uint64_t nanA = 0, nanB = 0, infA = 0, infB = 0;
    std::uint64_t signedZeroDiffs = 0;     // differences that are only +0 vs -0
    std::uint64_t hashA = 0, hashB = 0;    // XXH3-64 of each side's bytes
    std::vector<ElementDiff> firstDiffs;   // first kKeep differing elements, by index
    std::vector<ElementDiff> largestDiffs; // kKeep largest |Δ|, largest first
    DeltaHistogram deltaHistogram;
    UlpHistogram ulpHistogram;

    // What kind of divergence it is (see kind.h), gathered in the same pass.
    double maxAbsA = 0, maxAbsB = 0;       // largest finite |value| per side: the scale
    std::uint64_t nanPayloadDiffs = 0;     // NaN on both sides, other bits
    std::uint64_t nonFiniteMismatches = 0; // NaN or Inf on one side only
    std::uint64_t outsideTolerance = 0;    // differences a Tolerance does not allow
    // The smallest rtol that alone lets every difference whose |Δ| is a number pass: the
    // largest of each one's (rtolToPass in schema/element_traits.h); +Inf when one has |B| = 0
    // or an infinite |Δ|. toleranceToPass() (tolerance_to_pass.h) reads it.
    double rtolToPass = 0;
    // Order-independent hashes of the differing elements of each side (two lanes): equal
    // when the sides hold the same values in another order.
    std::array<std::uint64_t, 2> multisetA{}, multisetB{};
    // For a shaped buffer (StatsAccumulator::setShape): differences per row (outermost
    // dimension) and per column (everything inside it). Empty for flat buffers. 32 bits: a
    // count is at most kMaxShapeCounts (2^24), and a buffer of millions of columns (the bench's
    // 4 GiB buffer is [256, 4194304]) holds its counts in half the memory.
    std::vector<std::uint32_t> rowDiffs, colDiffs;

    static constexpr std::size_t kKeep = 16;
};

// numpy's allclose rule |a-b| <= atol + rtol*|b|, and/or at most `ulp` ULP apart. A difference
// is within tolerance when it passes every criterion given; with none given, nothing is.
// NaN against NaN (other bits) and +0 against -0 are within any tolerance; NaN against a number
// never is.
struct Tolerance {
    std::optional<double> atol, rtol;
    std::optional<std::uint64_t> ulp;
    bool any() const { return atol || rtol || ulp; }
};

// Streams both sides of a buffer pair chunk by chunk and accumulates BufferStats over all
// elements. Chunks must hold whole elements; the common prefix of both sides is compared,
// and bytes beyond it are only hashed and counted (length mismatch).
class StatsAccumulator {
  public:
    explicit StatsAccumulator(DType dtype, const Tolerance& tolerance = {});
    ~StatsAccumulator();
    StatsAccumulator(const StatsAccumulator&) = delete;
    StatsAccumulator& operator=(const StatsAccumulator&) = delete;

    // Count differences per row and per column too (both at most kMaxShapeCounts, else
    // ignored). Call before the first addPair.
    void setShape(std::uint64_t rows, std::uint64_t cols);
    static constexpr std::uint64_t kMaxShapeCounts = 1u << 24;

    // Bytes of A and B at the same element offset; `base` is the index of the first element.
    void addPair(const unsigned char* a, const unsigned char* b, std::size_t nElements,
                 std::uint64_t base);
    // Bytes present on one side only (the tail of the longer file).
    void addTailA(const unsigned char* a, std::size_t nElements);
    void addTailB(const unsigned char* b, std::size_t nElements);
    BufferStats finish();

  private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// Convenience over in-memory buffers (tests, benchmarks). Sizes in bytes must be multiples
// of the element size.
BufferStats compareMemory(DType dtype, const void* a, std::size_t bytesA, const void* b,
                          std::size_t bytesB, const Tolerance& tolerance = {});

} // namespace dumpscope

#pragma once

#include "dumpscope/buffer_view.h"
#include "dumpscope/dtype.h"
#include "dumpscope/stats.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dumpscope {

// ElementDelta and elementDelta(): see stats.h.

// Histogram bins that have no decade or power of two: DeltaHistogram's zero / infinite / nan
// counts and UlpHistogram's undefined count. Values outside the regular bins' ranges so that one
// int names any bar.
inline constexpr int kDecadeZero = DeltaHistogram::kMaxDecade + 1;
inline constexpr int kDecadeInfinite = DeltaHistogram::kMaxDecade + 2;
inline constexpr int kDecadeNan = DeltaHistogram::kMaxDecade + 3;
inline constexpr int kUlpUndefined = 64;

// Which differing elements an index holds: all of them, or those of one histogram bar.
struct DiffFilter {
    enum class Kind { all, deltaDecade, ulpBin };
    Kind kind = Kind::all;
    int bin = 0; // decade (or kDecade*) / ULP power of two (or kUlpUndefined)

    static DiffFilter deltaDecade(int decade) { return {Kind::deltaDecade, decade}; }
    static DiffFilter ulpBin(int bin) { return {Kind::ulpBin, bin}; }
    // Whether a pair whose bits differ falls in this filter's bar.
    bool matches(DType t, std::uint64_t bitsA, std::uint64_t bitsB) const;
    bool operator==(const DiffFilter&) const = default;
};

// done / total in elements; return false to cancel.
using ScanProgressFn = std::function<bool(std::uint64_t done, std::uint64_t total)>;

// The positions of a buffer pair's differing elements (bitwise, as the statistics count them)
// over the pair's common prefix, as a bitmap with a cumulative count per 4096-element block: n/8
// bytes plus n/512. "The k-th difference" (select) and "differences before i" (rank) are O(log n),
// so a table can show only the differing rows of a 100-million-element buffer without a list of
// them. Immutable once built; safe to share between threads.
class DiffIndex {
  public:
    DiffIndex() = default; // covers no element

    // Scans both files once, in bounded chunks. nullopt when cancelled through `progress` or
    // when a read fails (then `error`, if given, says which file).
    static std::optional<DiffIndex> build(const BufferView& a, const BufferView& b,
                                          const DiffFilter& filter = {},
                                          const ScanProgressFn& progress = {},
                                          std::string* error = nullptr);
    // The same over in-memory element bytes, `n` elements each.
    static DiffIndex fromMemory(DType dtype, const void* a, const void* b, std::uint64_t n,
                                const DiffFilter& filter = {});

    std::uint64_t size() const { return m_size; }   // elements covered: min(nA, nB)
    std::uint64_t count() const { return m_count; } // elements indexed
    const DiffFilter& filter() const { return m_filter; }
    std::size_t memoryBytes() const;

    bool contains(std::uint64_t index) const;
    // Indexed elements before `index` (all of them when index >= size()).
    std::uint64_t rank(std::uint64_t index) const;
    // Position of the k-th indexed element (0-based); nullopt when k >= count().
    std::optional<std::uint64_t> select(std::uint64_t k) const;
    // Navigation: the first indexed element after `index`, the last one before it.
    std::optional<std::uint64_t> nextAfter(std::uint64_t index) const;
    std::optional<std::uint64_t> previousBefore(std::uint64_t index) const;

    // Bitmap words per rank block: one 64-bit cumulative count per 4096 elements.
    static constexpr std::size_t kWordsPerBlock = 64;

  private:
    friend class DiffIndexBuilder;
    std::uint64_t m_size = 0;
    std::uint64_t m_count = 0;
    DiffFilter m_filter;
    std::vector<std::uint64_t> m_words;      // bit i set: element i indexed
    std::vector<std::uint64_t> m_blockRanks; // indexed elements before each block, then total
};

// The CSV form of element pairs, shared by the export and the window's "copy as CSV": the header
// line, and one element's line (a side the element is missing from, the longer file's tail, has
// empty fields, and so do Δ, relative Δ and ULP then).
inline constexpr std::string_view kDiffCsvHeader =
    "index,a,b,abs_delta,rel_delta,ulp,a_bits,b_bits\n";
void appendDiffCsvLine(std::string& out, DType t, std::uint64_t index,
                       std::optional<std::uint64_t> bitsA, std::optional<std::uint64_t> bitsB);

// Writes the indexed elements as CSV: kDiffCsvHeader, then one line per element, in index order.
// Text goes to `sink` in pieces of bounded size; it returns false to stop (a write failed or
// the user cancelled), and so does this function. `error` names a failed read.
bool writeDiffCsv(const BufferView& a, const BufferView& b, const DiffIndex& index,
                  const std::function<bool(std::string_view)>& sink, std::string* error = nullptr);

} // namespace dumpscope

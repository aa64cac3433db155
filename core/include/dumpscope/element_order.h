#pragma once

#include "dumpscope/buffer_view.h"
#include "dumpscope/diff_index.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dumpscope {

// What the element table can order a buffer pair's differing elements by. Index order needs no
// scan: it is the DiffIndex's own.
enum class ElementOrderKey { absDelta, relDelta, ulp, valueA, valueB };

// The first `limit` elements of an ordering of a DiffIndex's elements, best first.
struct ElementOrder {
    ElementOrderKey key = ElementOrderKey::absDelta;
    bool descending = true;
    std::vector<std::uint64_t> elements; // at most `limit`, in order
    std::uint64_t considered = 0;        // the index's element count: elements.size() or more
};

// Orders the elements of `index` (all differences, or a histogram bar's) by `key`, keeping only
// the first `limit` in memory (a bounded heap: 10^8 differences cost `limit` entries), and ties
// by element index. A NaN key (|Δ|, relative Δ or a value with a NaN side, the ULP distance that
// a NaN side leaves undefined) ranks above +Inf, so descending lists NaNs first and ascending
// last; -Inf and +Inf are the ends of the values. Reads only the chunks of the two files that
// hold an indexed element. nullopt when cancelled through `progress` (done / total in elements
// of the common prefix) or when a read fails (then `error` names the file and the byte).
std::optional<ElementOrder> orderDifferingElements(const BufferView& a, const BufferView& b,
                                                   const DiffIndex& index, ElementOrderKey key,
                                                   bool descending, std::size_t limit,
                                                   const ScanProgressFn& progress = {},
                                                   std::string* error = nullptr);

} // namespace dumpscope

#include "dumpscope/element_order.h"

#include "dumpscope/stats.h"

#include <algorithm>
#include <cmath>
#include <queue>

namespace dumpscope {

namespace {

// One element's place in the order: NaN above every number, then the number (the ULP distance
// exactly, as an integer), then the element index, smaller first among equals whatever the
// direction, so that the order is total and the same on every run.
struct Ranked {
    bool nan = false;
    double value = 0;
    std::uint64_t ulp = 0;
    std::uint64_t index = 0;
};

Ranked rank(ElementOrderKey key, DType t, std::uint64_t bitsA, std::uint64_t bitsB,
            std::uint64_t index) {
    Ranked r;
    r.index = index;
    if (key == ElementOrderKey::ulp) {
        const auto ulp = ulpDistance(t, bitsA, bitsB);
        r.nan = !ulp;
        r.ulp = ulp.value_or(0);
        return r;
    }
    const ElementDelta d = elementDelta(t, bitsA, bitsB);
    switch (key) {
    case ElementOrderKey::absDelta:
        r.value = d.absDelta;
        break;
    case ElementOrderKey::relDelta:
        r.value = d.relDelta;
        break;
    case ElementOrderKey::valueA:
        r.value = d.a;
        break;
    case ElementOrderKey::valueB:
        r.value = d.b;
        break;
    case ElementOrderKey::ulp:
        break;
    }
    r.nan = std::isnan(r.value);
    if (r.nan) r.value = 0;
    return r;
}

// Whether x comes before y in the requested direction.
struct Before {
    bool descending;
    bool operator()(const Ranked& x, const Ranked& y) const {
        if (x.nan != y.nan) return descending ? x.nan : y.nan;
        if (x.value != y.value) return descending ? x.value > y.value : x.value < y.value;
        if (x.ulp != y.ulp) return descending ? x.ulp > y.ulp : x.ulp < y.ulp;
        return x.index < y.index;
    }
};

constexpr std::size_t kChunkElements = 64 * 1024;

} // namespace

std::optional<ElementOrder> orderDifferingElements(const BufferView& a, const BufferView& b,
                                                   const DiffIndex& index, ElementOrderKey key,
                                                   bool descending, std::size_t limit,
                                                   const ScanProgressFn& progress,
                                                   std::string* error) {
    const DType t = a.dtype();
    const std::size_t es = a.elementSize();
    const std::uint64_t n = index.size();
    const Before before{descending};
    // A max-heap under `before`: its top is the worst element kept, the first to give way.
    std::priority_queue<Ranked, std::vector<Ranked>, Before> kept(before);
    std::vector<unsigned char> bufA(kChunkElements * es), bufB(kChunkElements * es);
    for (std::uint64_t first = 0; first < n; first += kChunkElements) {
        const auto m = static_cast<std::size_t>(std::min<std::uint64_t>(kChunkElements, n - first));
        // A chunk without an indexed element is not read: sparse differences cost their chunks.
        if (limit > 0 && index.rank(first + m) > index.rank(first)) {
            for (auto [view, buf] : {std::pair{&a, bufA.data()}, std::pair{&b, bufB.data()}}) {
                std::string why;
                if (view->readRaw(first, m, buf, &why) == m) continue;
                if (error)
                    *error = why.empty()
                                 ? view->path().string() + ": has " + std::to_string(view->size()) +
                                       " elements, fewer than the " + std::to_string(n) + " indexed"
                                 : why;
                return std::nullopt;
            }
            for (std::size_t j = 0; j < m; ++j) {
                if (!index.contains(first + j)) continue;
                const Ranked r = rank(key, t, loadBits(t, bufA.data() + j * es),
                                      loadBits(t, bufB.data() + j * es), first + j);
                if (kept.size() < limit) {
                    kept.push(r);
                } else if (before(r, kept.top())) {
                    kept.pop();
                    kept.push(r);
                }
            }
        }
        if (progress && !progress(first + m, n)) return std::nullopt;
    }
    ElementOrder order;
    order.key = key;
    order.descending = descending;
    order.considered = index.count();
    order.elements.resize(kept.size());
    // The heap pops the worst first: fill from the back.
    for (std::size_t k = kept.size(); k-- > 0;) {
        order.elements[k] = kept.top().index;
        kept.pop();
    }
    return order;
}

} // namespace dumpscope

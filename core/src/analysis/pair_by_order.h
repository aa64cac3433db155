#pragma once
// The automatic passes of name alignment (--align auto): how the buffers left unpaired by name
// and by the map at one step and rank are paired (docs/alignment.md#pairing-by-order).
#include "dumpscope/name_alignment.h"
#include "dumpscope/scan.h"

#include <optional>
#include <vector>

namespace dumpscope {
struct NameRule;
}

namespace dumpscope::detail {

struct Pairing {
    DumpFile* a;
    DumpFile* b;
    std::optional<PairedBy> by; // none: the same name
    const NameRule* rule = nullptr;
};

// Pairs `leftA` with `leftB` (each in production order), appending to `out`, in three passes:
//   1. a name that is the other's name under wrapping modules ("h.0.mlp" and "model.h.0.mlp",
//      "module.…" of DistributedDataParallel, "_orig_mod.…" of torch.compile), one candidate
//      each way, the same type and shape;
//   2. the longest common subsequence of the two orders under (type, shape): a buffer one run
//      has and the other lacks shifts no pairing after it;
//   3. each of A's still left with the next of B's in order with its shape, whatever its type.
void pairByOrder(std::vector<DumpFile*> leftA, std::vector<DumpFile*> leftB,
                 std::vector<Pairing>& out);

// The index pairs (i, j) of a longest common subsequence of two sequences of lengths n and m
// under `same(i, j)`, in order (Myers' O((n + m) D) difference algorithm); nullopt when more than
// `maxEdits` insertions and deletions separate them.
template <class Same>
std::optional<std::vector<std::pair<std::size_t, std::size_t>>>
commonSubsequence(std::size_t n, std::size_t m, Same same, std::size_t maxEdits);

} // namespace dumpscope::detail

#include "analysis/pair_by_order_lcs.h"

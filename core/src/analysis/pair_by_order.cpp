#include "analysis/pair_by_order.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace dumpscope::detail {

namespace {

// Edits (buffers one run has and the other lacks) past which the common subsequence is given up
// for the pairing place by place: the walk back keeps O(edits²) indices.
constexpr std::size_t kMaxEdits = 1024;

std::string typeOf(const DumpFile& f) {
    return f.dtype ? std::string(dtypeName(*f.dtype)) : f.typeName;
}

bool sameTypeAndShape(const DumpFile& a, const DumpFile& b) {
    return a.shape == b.shape && typeOf(a) == typeOf(b);
}

// Each name after a dot of `name`: "model.h.0" gives "h.0" and "0".
template <class Each> void eachInnerName(std::string_view name, Each each) {
    for (std::size_t dot = name.find('.'); dot != std::string_view::npos;
         dot = name.find('.', dot + 1))
        each(name.substr(dot + 1));
}

// Pass 1: names that differ by wrapping modules only.
void pairWrapped(std::vector<DumpFile*>& leftA, std::vector<DumpFile*>& leftB,
                 std::vector<Pairing>& out) {
    std::unordered_map<std::string_view, std::vector<std::size_t>> byName, byInnerName;
    for (std::size_t j = 0; j < leftB.size(); ++j) {
        byName[leftB[j]->rest].push_back(j);
        eachInnerName(leftB[j]->rest,
                      [&](std::string_view inner) { byInnerName[inner].push_back(j); });
    }
    // Run B's candidate for each of A's: unique, or none.
    constexpr std::size_t none = SIZE_MAX;
    std::vector<std::size_t> candidate(leftA.size(), none);
    std::vector<unsigned> claims(leftB.size(), 0);
    for (std::size_t i = 0; i < leftA.size(); ++i) {
        std::vector<std::size_t> found;
        if (const auto it = byInnerName.find(leftA[i]->rest); it != byInnerName.end())
            found = it->second; // B wraps A's name
        bool longest = true;    // the longest of A's inner names that B holds decides
        eachInnerName(leftA[i]->rest, [&](std::string_view inner) {
            if (!longest) return;
            if (const auto it = byName.find(inner); it != byName.end()) {
                found.insert(found.end(), it->second.begin(), it->second.end());
                longest = false;
            }
        });
        if (found.size() == 1 && sameTypeAndShape(*leftA[i], *leftB[found[0]])) {
            candidate[i] = found[0];
            ++claims[found[0]];
        }
    }
    for (std::size_t i = 0; i < leftA.size(); ++i) {
        const std::size_t j = candidate[i];
        if (j == none || claims[j] != 1) continue;
        out.push_back({leftA[i], leftB[j], PairedBy::wrapped_match});
        leftA[i] = leftB[j] = nullptr;
    }
    std::erase(leftA, nullptr);
    std::erase(leftB, nullptr);
}

// Pass 2: the longest common subsequence under type and shape; place by place when the orders
// are too far apart for it.
void pairInOrder(std::vector<DumpFile*>& leftA, std::vector<DumpFile*>& leftB,
                 std::vector<Pairing>& out) {
    const auto same = [&](std::size_t i, std::size_t j) {
        return sameTypeAndShape(*leftA[i], *leftB[j]);
    };
    if (const auto common = commonSubsequence(leftA.size(), leftB.size(), same, kMaxEdits)) {
        for (const auto& [i, j] : *common) {
            out.push_back({leftA[i], leftB[j], PairedBy::exact_match});
            leftA[i] = leftB[j] = nullptr;
        }
    } else {
        for (std::size_t i = 0; i < std::min(leftA.size(), leftB.size()); ++i)
            if (same(i, i)) {
                out.push_back({leftA[i], leftB[i], PairedBy::exact_match});
                leftA[i] = leftB[i] = nullptr;
            }
    }
    std::erase(leftA, nullptr);
    std::erase(leftB, nullptr);
}

// Pass 3: each of A's with the next of B's with its shape (a bf16 run against its f32 twin).
void pairByShape(const std::vector<DumpFile*>& leftA, std::vector<DumpFile*>& leftB,
                 std::vector<Pairing>& out) {
    std::size_t from = 0;
    for (DumpFile* a : leftA)
        for (std::size_t j = from; j < leftB.size(); ++j)
            if (leftB[j] && leftB[j]->shape == a->shape) {
                out.push_back({a, leftB[j], PairedBy::shape_match});
                leftB[j] = nullptr;
                from = j + 1;
                break;
            }
}

} // namespace

void pairByOrder(std::vector<DumpFile*> leftA, std::vector<DumpFile*> leftB,
                 std::vector<Pairing>& out) {
    pairWrapped(leftA, leftB, out);
    pairInOrder(leftA, leftB, out);
    pairByShape(leftA, leftB, out);
}

} // namespace dumpscope::detail

#pragma once
// commonSubsequence (pair_by_order.h): Myers' greedy difference algorithm, keeping each round's
// furthest reaching x per diagonal to walk the path back.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace dumpscope::detail {

template <class Same>
std::optional<std::vector<std::pair<std::size_t, std::size_t>>>
commonSubsequence(std::size_t n, std::size_t m, Same same, std::size_t maxEdits) {
    using Index = std::int64_t;
    const Index N = static_cast<Index>(n), M = static_cast<Index>(m);
    const Index maxD = std::min<Index>(N + M, static_cast<Index>(maxEdits));
    // v[k + offset]: the furthest x reached on diagonal k = x - y; rounds[d]: v before round d,
    // diagonals -d … d only, so the rounds take O(D²) in all.
    const Index offset = maxD + 1;
    std::vector<Index> v(static_cast<std::size_t>(2 * offset + 1), 0);
    std::vector<std::vector<Index>> rounds;
    const auto at = [&](std::vector<Index>& w, Index k) -> Index& {
        return w[static_cast<std::size_t>(k + offset)];
    };
    for (Index d = 0; d <= maxD; ++d) {
        rounds.emplace_back(v.begin() + (offset - d - 1), v.begin() + (offset + d + 2));
        for (Index k = -d; k <= d; k += 2) {
            Index x = (k == -d || (k != d && at(v, k - 1) < at(v, k + 1))) ? at(v, k + 1)
                                                                           : at(v, k - 1) + 1;
            Index y = x - k;
            while (x < N && y < M && same(static_cast<std::size_t>(x), static_cast<std::size_t>(y)))
                ++x, ++y;
            at(v, k) = x;
            if (x < N || y < M) continue;
            // Walk back: each round's diagonal run of matches, before its one edit.
            std::vector<std::pair<std::size_t, std::size_t>> pairs;
            Index px = N, py = M;
            for (Index r = d; r >= 0; --r) {
                const std::vector<Index>& w = rounds[static_cast<std::size_t>(r)];
                const auto was = [&](Index kk) { return w[static_cast<std::size_t>(kk + r + 1)]; };
                const Index kk = px - py;
                const Index prevK =
                    (kk == -r || (kk != r && was(kk - 1) < was(kk + 1))) ? kk + 1 : kk - 1;
                const Index prevX = r == 0 ? 0 : was(prevK);
                const Index prevY = r == 0 ? 0 : prevX - prevK;
                const Index startX = r == 0 ? 0 : (prevK == kk + 1 ? prevX : prevX + 1);
                while (px > startX && py > startX - kk) {
                    --px, --py;
                    pairs.emplace_back(static_cast<std::size_t>(px), static_cast<std::size_t>(py));
                }
                px = prevX, py = prevY;
            }
            return std::vector<std::pair<std::size_t, std::size_t>>(pairs.rbegin(), pairs.rend());
        }
    }
    return std::nullopt;
}

} // namespace dumpscope::detail

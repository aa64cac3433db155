// The multiset fingerprint's term for 32-bit values (core/src/compare/multiset_hash.h) tells apart
// the small multisets that structured buffers hold: integer labels and floats one ULP apart. A weak
// term (a product without the rotated second one, or sums without the squares) collides here, and
// "permuted" would be said of buffers whose values really changed.
#include "compare/multiset_hash.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace {

using Fingerprint = std::pair<std::uint64_t, std::uint64_t>;

Fingerprint fingerprint(const std::vector<std::uint32_t>& values) {
    Fingerprint f{0, 0};
    for (std::uint32_t v : values) {
        const std::uint64_t h = dumpscope::detail::multisetTerm(v);
        f.first += h, f.second += h * h;
    }
    return f;
}

TEST(MultisetHash, SmallMultisetsOfNeighbouringValuesHaveDistinctFingerprints) {
    // 0.., 1.0f.., -1.0f..: every 2-multiset of 512 neighbouring values.
    for (std::uint32_t base : {0u, 0x3f800000u, 0xbf800000u}) {
        std::set<Fingerprint> seen;
        std::size_t count = 0;
        for (std::uint32_t i = 0; i < 512; ++i)
            for (std::uint32_t j = i; j < 512; ++j, ++count)
                seen.insert(fingerprint({base + i, base + j}));
        EXPECT_EQ(seen.size(), count) << "base " << base;
    }
    // Every 3-multiset of 0..63.
    std::set<Fingerprint> seen;
    std::size_t count = 0;
    for (std::uint32_t i = 0; i < 64; ++i)
        for (std::uint32_t j = i; j < 64; ++j)
            for (std::uint32_t k = j; k < 64; ++k, ++count)
                seen.insert(fingerprint({i, j, k}));
    EXPECT_EQ(seen.size(), count);
}

TEST(MultisetHash, OrderDoesNotMatterAndNarrowTypesUseTheSameTerm) {
    EXPECT_EQ(fingerprint({1, 2, 3, 0x3f800000u}), fingerprint({0x3f800000u, 3, 1, 2}));
    EXPECT_EQ(dumpscope::detail::multisetTerm(std::uint16_t{7}),
              dumpscope::detail::multisetTerm(std::uint32_t{7}));
    EXPECT_NE(dumpscope::detail::multisetTerm(std::uint32_t{7}),
              dumpscope::detail::multisetTerm(std::uint32_t{8}));
}

} // namespace

// orderDifferingElements on float32 and bf16 pairs written to files: the kept prefix equals a
// full sort of every difference by the same key, NaN keys rank above +Inf, ties go by index, a
// histogram bar's index orders only its elements, and cancel and read failures stop it.
#include "dumpscope/element_order.h"

#include "dumpscope/stats.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include <unistd.h>

using namespace dumpscope;
using dumpscope::test::TempDir;
using dumpscope::test::writeBytes;

namespace {

struct FloatPair {
    TempDir dir;
    BufferView a, b;
    FloatPair(const std::vector<float>& va, const std::vector<float>& vb) {
        writeBytes(dir / "a.bin", va.data(), va.size() * 4);
        writeBytes(dir / "b.bin", vb.data(), vb.size() * 4);
        EXPECT_TRUE(a.open(dir / "a.bin", DType::f32));
        EXPECT_TRUE(b.open(dir / "b.bin", DType::f32));
    }
    DiffIndex index(const DiffFilter& f = {}) {
        auto built = DiffIndex::build(a, b, f);
        EXPECT_TRUE(built.has_value());
        return built ? std::move(*built) : DiffIndex();
    }
};

// The key of one element through the core's own definitions of |Δ|, relative Δ and ULP
// (tested on their own in test_stats): what is under test here is the order, the bounded heap,
// the NaN rule and the chunks skipped. NaN (or an undefined ULP distance) ranks above +Inf.
struct RefKey {
    bool nan;
    double value;
    std::uint64_t ulp;
};

RefKey refKey(ElementOrderKey key, float x, float y) {
    std::uint32_t bx, by;
    std::memcpy(&bx, &x, 4);
    std::memcpy(&by, &y, 4);
    if (key == ElementOrderKey::ulp) {
        const auto u = ulpDistance(DType::f32, bx, by);
        return {!u, 0, u.value_or(0)};
    }
    const ElementDelta d = elementDelta(DType::f32, bx, by);
    const double v = key == ElementOrderKey::absDelta   ? d.absDelta
                     : key == ElementOrderKey::relDelta ? d.relDelta
                     : key == ElementOrderKey::valueA   ? double(x)
                                                        : double(y);
    return {std::isnan(v), std::isnan(v) ? 0 : v, 0};
}

std::vector<std::uint64_t> referenceOrder(const std::vector<float>& a, const std::vector<float>& b,
                                          ElementOrderKey key, bool descending) {
    std::vector<std::uint64_t> diffs;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
        if (std::memcmp(&a[i], &b[i], 4) != 0) diffs.push_back(i);
    std::sort(diffs.begin(), diffs.end(), [&](std::uint64_t i, std::uint64_t j) {
        const RefKey x = refKey(key, a[i], b[i]), y = refKey(key, a[j], b[j]);
        if (x.nan != y.nan) return descending ? x.nan : y.nan;
        if (x.value != y.value) return descending ? x.value > y.value : x.value < y.value;
        if (x.ulp != y.ulp) return descending ? x.ulp > y.ulp : x.ulp < y.ulp;
        return i < j;
    });
    return diffs;
}

constexpr ElementOrderKey kKeys[] = {ElementOrderKey::absDelta, ElementOrderKey::relDelta,
                                     ElementOrderKey::ulp, ElementOrderKey::valueA,
                                     ElementOrderKey::valueB};

} // namespace

TEST(ElementOrder, SmallPairPutsNanAboveInfinityAndBreaksTiesByIndex) {
    //                       0    1     2      3     4     5      6    7
    const std::vector<float> a{1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, -1.f};
    const std::vector<float> b{1.f, 2.5f, NAN, 4.5f, INFINITY, 6.f, 7.5f, -1.5f};
    FloatPair p(a, b);
    const DiffIndex all = p.index();
    ASSERT_EQ(all.count(), 6u); // 1, 2, 3, 4, 6, 7
    auto order = [&](ElementOrderKey key, bool descending, std::size_t limit) {
        auto o = orderDifferingElements(p.a, p.b, all, key, descending, limit);
        EXPECT_TRUE(o.has_value());
        EXPECT_EQ(o->considered, 6u);
        return o->elements;
    };
    // |Δ|: NaN, Inf, then the four 0.5s in index order, whichever the direction.
    EXPECT_EQ(order(ElementOrderKey::absDelta, true, 100),
              (std::vector<std::uint64_t>{2, 4, 1, 3, 6, 7}));
    EXPECT_EQ(order(ElementOrderKey::absDelta, false, 100),
              (std::vector<std::uint64_t>{1, 3, 6, 7, 4, 2}));
    EXPECT_EQ(order(ElementOrderKey::absDelta, true, 2), (std::vector<std::uint64_t>{2, 4}));
    // B's values: NaN above +Inf above 7.5 … -1.5 at the bottom.
    EXPECT_EQ(order(ElementOrderKey::valueB, true, 100),
              (std::vector<std::uint64_t>{2, 4, 6, 3, 1, 7}));
    EXPECT_EQ(order(ElementOrderKey::valueA, false, 3), (std::vector<std::uint64_t>{7, 1, 2}));
    // ULP: undefined with a NaN side, ranked like NaN.
    EXPECT_EQ(order(ElementOrderKey::ulp, true, 1), (std::vector<std::uint64_t>{2}));
    EXPECT_TRUE(order(ElementOrderKey::ulp, true, 0).empty());
}

TEST(ElementOrder, KeptPrefixEqualsAFullSortOnALargeSparsePair) {
    // Over three scan chunks, differences clustered in the first and last (the middle chunk has
    // none and is skipped), with NaN, ±Inf, ±0 and subnormals among them.
    const std::size_t n = 3 * 65536 + 5;
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<float> mag(-6, 3);
    std::vector<float> a(n), b;
    for (auto& x : a)
        x = std::pow(10.0f, mag(rng)) * (rng() % 2 ? 1.f : -1.f);
    b = a;
    for (std::size_t i = 0; i < n; ++i) {
        if (i >= 65536 && i < 2 * 65536) continue;
        switch (rng() % 40) {
        case 0:
            b[i] = std::nextafter(a[i], 1e30f);
            break;
        case 1:
            b[i] = a[i] * 1.001f;
            break;
        case 2:
            b[i] = NAN;
            break;
        case 3:
            b[i] = (rng() % 2) ? INFINITY : -INFINITY;
            break;
        case 4:
            a[i] = 0.f, b[i] = -0.f;
            break;
        case 5:
            b[i] = 1e-40f; // subnormal
            break;
        case 6:
            a[i] = 2.0f, b[i] = 3.0f; // many equal keys: ties go by index

            break;
        default:
            break;
        }
    }
    FloatPair p(a, b);
    const DiffIndex all = p.index();
    ASSERT_GT(all.count(), 10000u);
    for (ElementOrderKey key : kKeys) {
        for (bool descending : {true, false}) {
            SCOPED_TRACE(std::to_string(int(key)) + (descending ? " desc" : " asc"));
            const auto ref = referenceOrder(a, b, key, descending);
            ASSERT_EQ(ref.size(), all.count());
            for (std::size_t limit : {std::size_t{1}, std::size_t{1000}, ref.size() + 10}) {
                const auto got = orderDifferingElements(p.a, p.b, all, key, descending, limit);
                ASSERT_TRUE(got.has_value());
                EXPECT_EQ(got->considered, ref.size());
                const std::vector<std::uint64_t> want(
                    ref.begin(), ref.begin() + std::ptrdiff_t(std::min(limit, ref.size())));
                ASSERT_EQ(got->elements, want) << "limit " << limit;
            }
        }
    }
}

TEST(ElementOrder, AHistogramBarsIndexOrdersOnlyItsElements) {
    std::vector<float> a(5000), b;
    for (std::size_t i = 0; i < a.size(); ++i)
        a[i] = float(i);
    b = a;
    for (std::size_t i = 0; i < a.size(); i += 3)
        b[i] += (i % 2) ? 0.25f : 4.0f; // |Δ| 0.25 (decade -1) or 4 (decade 0)
    FloatPair p(a, b);
    const DiffIndex bar = p.index(DiffFilter::deltaDecade(-1));
    auto got = orderDifferingElements(p.a, p.b, bar, ElementOrderKey::valueA, true, 10);
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(got->considered, bar.count());
    ASSERT_EQ(got->elements.size(), 10u);
    for (std::uint64_t i : got->elements) {
        EXPECT_TRUE(bar.contains(i));
        EXPECT_EQ(i % 2, 1u) << i;
    }
    // The largest A among odd multiples of 3 below 5000 is 4995, then 4989.
    EXPECT_EQ(got->elements[0], 4995u);
    EXPECT_EQ(got->elements[1], 4989u);
}

TEST(ElementOrder, CancelAndReadFailureStop) {
    const std::size_t n = 4 * 65536;
    std::vector<float> a(n, 1.f), b(n, 2.f);
    FloatPair p(a, b);
    const DiffIndex all = p.index();
    int calls = 0;
    EXPECT_FALSE(orderDifferingElements(p.a, p.b, all, ElementOrderKey::absDelta, true, 10,
                                        [&](std::uint64_t, std::uint64_t) { return ++calls < 2; })
                     .has_value());
    EXPECT_EQ(calls, 2);
    ASSERT_EQ(::truncate((p.dir / "b.bin").c_str(), 4 * 1000), 0);
    std::string error;
    EXPECT_FALSE(
        orderDifferingElements(p.a, p.b, all, ElementOrderKey::absDelta, true, 10, {}, &error)
            .has_value());
    EXPECT_NE(error.find("b.bin"), std::string::npos) << error;
}

// The smallest --atol, --rtol and --ulp that would each alone make a buffer within tolerance
// (dumpscope/tolerance_to_pass.h), held to what it promises: compared again with that tolerance
// the buffer has no difference outside it, and with the next smaller value it has one; "none"
// means that not even the option's largest value passes. On every element type, with +0 vs -0,
// NaN payloads, Inf, subnormals and the extremes, through the AVX2 paths and the word-at-a-time
// ones. And the per-element rule itself against a bisection over the doubles.
#include "dumpscope/analyze.h"
#include "dumpscope/option_ranges.h"
#include "dumpscope/report.h"
#include "dumpscope/tolerance_to_pass.h"

#include "compare/dense_f32.h"
#include "run_fixture.h"
#include "schema/dtype_special.h"
#include "schema/element_traits.h"
#include "simple_stats.h"
#include "test_hooks.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace dumpscope {
namespace {

using test::smallestRtol;

// A float type's fields in its raw bits. F8 E4M3 has no Inf and one NaN magnitude (0x7f), so
// its exponent 1111 holds finite values too: anyValue keeps below it all the same.
struct FloatBits {
    std::uint64_t sign, exp, mant;
    bool hasInf = true;
};
FloatBits floatBits(DType t) {
    switch (t) {
    case DType::f8_e4m3:
        return {0x80, 0x78, 0x07, false};
    case DType::f8_e5m2:
        return {0x80, 0x7c, 0x03};
    case DType::f16:
        return {0x8000, 0x7c00, 0x03ff};
    case DType::bf16:
        return {0x8000, 0x7f80, 0x007f};
    case DType::f32:
        return {0x80000000u, 0x7f800000u, 0x007fffffu};
    default:
        return {0x8000000000000000ull, 0x7ff0000000000000ull, 0x000fffffffffffffull};
    }
}

std::uint64_t typeMask(DType t) {
    const std::size_t bits = 8 * dtypeSize(t);
    return bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
}

// Any finite value of a float type: any sign and exponent below Inf's (so ±0 and subnormals
// too), now and then the largest finite or the smallest subnormal; any value of an integer type.
std::uint64_t anyValue(DType t, std::mt19937_64& rng) {
    if (!isFloat(t)) return rng() & typeMask(t);
    const FloatBits f = floatBits(t);
    switch (rng() % 16) {
    case 0:
        return (rng() & f.sign) | (f.exp - 1); // ±largest finite
    case 1:
        return (rng() & f.sign) | 1; // ±smallest subnormal
    case 2:
        return rng() & f.sign; // ±0
    default:
        for (;;)
            if (const std::uint64_t v = rng() & typeMask(t); (v & f.exp) != f.exp) return v;
    }
}

// A few ULP from x, the same sign, never 0 and never Inf or NaN.
std::uint64_t fewUlpFrom(DType t, std::uint64_t x, std::mt19937_64& rng) {
    const std::uint64_t k = 1 + rng() % 4;
    if (!isFloat(t)) return (x + k) & typeMask(t);
    const FloatBits f = floatBits(t);
    const std::uint64_t mag = x & ~f.sign;
    return (x & f.sign) | (mag + k < f.exp ? mag + k : mag - k);
}

enum class Case {
    fewUlp,           // every element a few ULP apart, B never 0: all three values exist
    anyFinite,        // partners from anywhere (B = 0, sign flips, overflowing |Δ| in f64)
    tolerated,        // only +0 vs -0 and NaN vs NaN with other bits: 0 of each passes
    specials,         // few ULP, with +0 vs -0, NaN payloads, ±Inf against ±the largest
    nanAgainstNumber, // few ULP and one NaN against a number: nothing passes
};

struct Pair {
    std::vector<unsigned char> a, b;
};

Pair makePair(DType t, Case c, std::size_t n, std::mt19937_64& rng) {
    const std::size_t es = dtypeSize(t);
    Pair p{std::vector<unsigned char>(n * es), std::vector<unsigned char>(n * es)};
    const FloatBits f = floatBits(t);
    const std::uint64_t quietNan = f.hasInf ? f.exp | ((f.mant >> 1) + 1) : f.exp | f.mant;
    for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t x = anyValue(t, rng), y = x;
        switch (c) {
        case Case::fewUlp:
            if (!isFloat(t)) x = rng() & (typeMask(t) >> 2); // + a few stays in range, never 0
            y = fewUlpFrom(t, x, rng);
            break;
        case Case::anyFinite:
            y = rng() % 8 == 0 ? x : anyValue(t, rng);
            break;
        case Case::tolerated:
            if (i % 3 == 0) x = 0, y = f.sign;
            if (i % 3 == 1) x = quietNan, y = quietNan | f.sign | 1;
            break;
        case Case::specials:
            y = fewUlpFrom(t, x, rng);
            if (i % 7 == 0) x = f.sign, y = 0;
            if (i % 7 == 1) x = quietNan | 2, y = f.sign | quietNan;
            if (i == 2 && f.hasInf) x = f.exp | f.sign, y = (f.exp - 1) | f.sign; // -Inf, -largest
            if (i == 3 && f.hasInf) x = f.exp - 1, y = f.exp;
            break;
        case Case::nanAgainstNumber:
            y = fewUlpFrom(t, x, rng);
            if (i == n / 2) x = quietNan;
            break;
        }
        std::memcpy(p.a.data() + i * es, &x, es); // little-endian: the low bytes
        std::memcpy(p.b.data() + i * es, &y, es);
    }
    return p;
}

std::uint64_t outside(DType t, const Pair& p, const Tolerance& tol) {
    return compareMemory(t, p.a.data(), p.a.size(), p.b.data(), p.b.size(), tol).outsideTolerance;
}

// `v` passes and the next smaller value does not; nullopt: not even the option's largest does.
template <typename T, typename Make>
void expectSmallest(DType t, const Pair& p, const char* name, const std::optional<T>& v, T largest,
                    Make make) {
    if (!v) {
        EXPECT_GT(outside(t, p, make(largest)), 0u) << name << " none";
        return;
    }
    EXPECT_EQ(outside(t, p, make(*v)), 0u) << name << " " << *v;
    if (*v == 0) return;
    T below;
    if constexpr (std::is_floating_point_v<T>)
        below = std::nextafter(*v, T{0});
    else
        below = *v - 1;
    EXPECT_GT(outside(t, p, make(below)), 0u) << name << " below " << *v;
}

void expectSmallestThatPasses(DType t, const Pair& p, const ToleranceToPass& pass) {
    expectSmallest(t, p, "atol", pass.atol, kAtolRange.max, [](double v) {
        Tolerance tol;
        tol.atol = v;
        return tol;
    });
    expectSmallest(t, p, "rtol", pass.rtol, kRtolRange.max, [](double v) {
        Tolerance tol;
        tol.rtol = v;
        return tol;
    });
    expectSmallest(t, p, "ulp", pass.ulp, kUlpRange.max, [](std::uint64_t v) {
        Tolerance tol;
        tol.ulp = v;
        return tol;
    });
}

class ToleranceToPassTest : public ::testing::Test {
  protected:
    void TearDown() override { detail::setVectorPathsAllowed(true); }
};

TEST_F(ToleranceToPassTest, EachValuePassesAndTheNextSmallerDoesNotOnEveryType) {
    std::mt19937_64 rng(20261202);
    const std::uint64_t denseBefore = detail::denseF32Blocks();
    for (DType t : test::kAllTypes)
        for (Case c : {Case::fewUlp, Case::anyFinite, Case::tolerated, Case::specials,
                       Case::nanAgainstNumber}) {
            if (!isFloat(t) && c != Case::fewUlp && c != Case::anyFinite) continue;
            // 6 blocks of float32 in which every element differs: the dense AVX2 kernels.
            for (std::size_t n : {std::size_t{1}, std::size_t{37}, std::size_t{6 * 1024 + 5}}) {
                const Pair p = makePair(t, c, n, rng);
                for (bool vector : {true, false}) {
                    SCOPED_TRACE(std::string(dtypeName(t)) + " case " +
                                 std::to_string(static_cast<int>(c)) + " n=" + std::to_string(n) +
                                 (vector ? " vector paths" : " word paths"));
                    detail::setVectorPathsAllowed(vector);
                    const BufferStats s =
                        compareMemory(t, p.a.data(), p.a.size(), p.b.data(), p.b.size());
                    if (s.nDiff == 0) continue; // one element drawn equal
                    const ToleranceToPass pass = toleranceToPass(s);
                    expectSmallestThatPasses(t, p, pass);
                    switch (c) {
                    case Case::fewUlp:
                        EXPECT_TRUE(pass.atol && pass.rtol && pass.ulp);
                        EXPECT_LE(*pass.ulp, 4u);
                        break;
                    case Case::tolerated:
                        EXPECT_EQ(pass.atol, 0.0);
                        EXPECT_EQ(pass.rtol, 0.0);
                        EXPECT_EQ(pass.ulp, 0u);
                        break;
                    case Case::specials:
                        if (n < 4) break;
                        if (floatBits(t).hasInf) {
                            EXPECT_FALSE(pass.atol); // Inf against the largest: |Δ| is infinite
                            EXPECT_FALSE(pass.rtol);
                        }
                        EXPECT_EQ(pass.ulp.value_or(99), std::max<std::uint64_t>(1, s.maxUlp))
                            << "Inf is one ULP past the largest finite";
                        break;
                    case Case::nanAgainstNumber:
                        EXPECT_FALSE(pass.atol || pass.rtol || pass.ulp);
                        break;
                    case Case::anyFinite:
                        break;
                    }
                }
            }
        }
    if (detail::cpuHasAvx2()) {
        EXPECT_GT(detail::denseF32Blocks() - denseBefore, 10u) << "the dense kernels never ran";
    }
}

// A dense float32 block whose B turns 0 where A is not, after a finite smallest rtol: no rtol
// passes from there on, in the vector kernels as in the word path; and blocks where every
// |Δ| / |B| ties (sign flips: exactly 2) or steps just past the running value.
TEST_F(ToleranceToPassTest, DenseBlocksFollowBZeroAndTiesExactly) {
    std::mt19937_64 rng(7);
    const std::size_t n = 8 * 1024;
    std::vector<std::uint32_t> a(n), b(n);
    const auto bytes = [](const std::vector<std::uint32_t>& v) {
        std::vector<unsigned char> out(v.size() * 4);
        std::memcpy(out.data(), v.data(), out.size());
        return out;
    };
    for (std::size_t i = 0; i < n; ++i) {
        a[i] = 0x3f800000u + static_cast<std::uint32_t>(rng() % 0x7fffff);
        b[i] = a[i] + 1 + static_cast<std::uint32_t>(rng() % 3);
        if (i / 1024 == 3) b[i] = a[i] ^ 0x80000000u; // |Δ| / |B| = 2 everywhere
        if (i / 1024 == 4) b[i] = a[i] + 1 + static_cast<std::uint32_t>(i % 1024); // rising
    }
    for (const bool zero : {false, true}) {
        if (zero) b[6 * 1024 + 100] = 0, b[6 * 1024 + 101] = 0x80000000u;
        const Pair p{bytes(a), bytes(b)};
        for (bool vector : {true, false}) {
            SCOPED_TRACE(std::string(zero ? "B zero" : "B nonzero") + (vector ? " vector" : ""));
            detail::setVectorPathsAllowed(vector);
            const BufferStats s =
                compareMemory(DType::f32, p.a.data(), p.a.size(), p.b.data(), p.b.size());
            test::expectSameStats(s, test::simpleStats(DType::f32, p.a, p.b, {}));
            const ToleranceToPass pass = toleranceToPass(s);
            EXPECT_EQ(pass.rtol.has_value(), !zero);
            if (pass.rtol) {
                EXPECT_EQ(*pass.rtol, 2.0); // the sign flips need the most
            }
            expectSmallestThatPasses(DType::f32, p, pass);
        }
    }
}

// rtolToPass (schema/element_traits.h) is the smallest double r with |Δ| <= 0 + r * |b|, as
// a bisection over every double finds it: where the quotient |Δ| / |b| is rounded either way,
// subnormal operands, quotients past the largest double, and |b| = 0.
TEST(ToleranceToPass, RtolOfOneDifferenceIsTheSmallestDoubleThatPasses) {
    constexpr double kMax = std::numeric_limits<double>::max();
    constexpr double kTiny = std::numeric_limits<double>::denorm_min();
    const std::vector<std::pair<double, double>> edges = {{1, 3},
                                                          {1, 1},
                                                          {2, 1},
                                                          {1, 0},
                                                          {kTiny, 1e308},
                                                          {1e-15, kTiny},
                                                          {kMax, kTiny},
                                                          {kTiny, kTiny},
                                                          {3, kMax},
                                                          {kMax, 0.5},
                                                          {0x1p-50, kTiny},
                                                          {0x1.8p-50, kTiny},
                                                          {0x1p-1022, 0x1p-1022 * 3},
                                                          {1e300, 1e-300}};
    for (const auto& [d, b] : edges)
        EXPECT_EQ(std::bit_cast<std::uint64_t>(rtolToPass(d, b)),
                  std::bit_cast<std::uint64_t>(smallestRtol(d, b)))
            << d << " / " << b;
    std::mt19937_64 rng(11);
    const auto positive = [&](int maxExp) {
        const std::uint64_t e = rng() % static_cast<std::uint64_t>(maxExp);
        return std::bit_cast<double>(e << 52 | (rng() & 0x000fffffffffffffull));
    };
    int rounded = 0;
    for (int k = 0; k < 100000; ++k) {
        const double d = positive(0x7ff);
        // Scales of B near |Δ|, far from it, and anywhere (subnormals included).
        const double b = k % 3 == 0   ? d * (1 + static_cast<double>(rng() % 1000) * 0x1p-30)
                         : k % 3 == 1 ? positive(0x7ff)
                                      : d * static_cast<double>(1 + rng() % 7);
        if (!(b > 0) || std::isinf(b)) continue;
        const double r = rtolToPass(d, b);
        ASSERT_EQ(std::bit_cast<std::uint64_t>(r), std::bit_cast<std::uint64_t>(smallestRtol(d, b)))
            << d << " / " << b;
        rounded += r != d / b;
    }
    EXPECT_GT(rounded, 100) << "the quotient itself was always the answer: nothing was tested";
}

// The JSON, Markdown and HTML reports of an analysis of written dumps carry each divergent
// buffer's values: one bit flipped in q_logits' element 3 (8.125 as float32 at step 1).
TEST(ToleranceToPass, ReportsCarryTheValues) {
    test::TempDir dir;
    test::writeRunPair(dir);
    test::perturb(dir, 1, "h_q_logits");
    const Analysis an = analyze(dir / "a", dir / "b");
    const BufferResult* q = nullptr;
    for (const auto& b : an.buffers)
        if (b.name == "q_logits" && b.step == 1) q = &b;
    ASSERT_TRUE(q);
    const auto pass = toleranceToPass(*q);
    ASSERT_TRUE(pass && pass->atol && pass->rtol && pass->ulp);
    EXPECT_EQ(*pass->ulp, 1u);
    EXPECT_EQ(*pass->atol, q->stats.maxAbsDelta);
    const std::string text = toleranceToPassText(*pass);
    EXPECT_EQ(text, "atol " + toPassValueText(pass->atol) + " / rtol " +
                        toPassValueText(pass->rtol) + " / ulp 1");

    const auto json = nlohmann::json::parse(reportJson(an));
    int withValues = 0, withNull = 0;
    for (const auto& step : json["steps"])
        for (const auto& group : step["groups"])
            for (const auto& b : group["buffers"]) {
                if (b["status"] == "diverge") {
                    ++withValues;
                    EXPECT_EQ(b["tolerance_to_pass"]["atol"].get<double>(), *pass->atol);
                    EXPECT_EQ(b["tolerance_to_pass"]["rtol"].get<double>(), *pass->rtol);
                    EXPECT_EQ(b["tolerance_to_pass"]["ulp"].get<std::uint64_t>(), 1u);
                } else {
                    ++withNull;
                    EXPECT_TRUE(b["tolerance_to_pass"].is_null()) << b["name"];
                }
            }
    EXPECT_EQ(withValues, 1);
    EXPECT_GT(withNull, 10);
    EXPECT_NE(reportMarkdown(an).find("| 1 | `q_logits` | " + text + " |\n"), std::string::npos)
        << reportMarkdown(an);
    // The HTML table shows them to three digits, exact in the cell's tooltip.
    EXPECT_NE(reportHtml(an).find("title=\"" + text + "\""), std::string::npos);
}

// The text a front end shows: exact (reads back to the same double) or "none".
TEST(ToleranceToPass, TextReadsBackExactly) {
    for (double v : {1.1920928955078125e-07, 0.1, 5e-324, 1e300, 3.0}) {
        const std::string text = toPassValueText(std::optional<double>(v));
        EXPECT_EQ(std::strtod(text.c_str(), nullptr), v) << text;
    }
    EXPECT_EQ(toPassValueText(std::optional<double>()), "none");
    EXPECT_EQ(toPassValueText(std::optional<std::uint64_t>(32)), "32");
    ToleranceToPass t;
    t.atol = 0.5, t.ulp = 4;
    EXPECT_EQ(toleranceToPassText(t), "atol 0.5 / rtol none / ulp 4");
}

} // namespace
} // namespace dumpscope

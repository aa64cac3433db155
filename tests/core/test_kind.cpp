#include "dumpscope/analyze.h"
#include "dumpscope/kind.h"

#include "run_fixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace dumpscope;
using dumpscope::test::floatFromBits;

namespace {

template <typename T>
Kind kindOf(DType t, const std::vector<T>& a, const std::vector<T>& b,
            double threshold = kDefaultRoundingThreshold) {
    auto s = compareMemory(t, a.data(), a.size() * sizeof(T), b.data(), b.size() * sizeof(T));
    return classifyKind(t, s, a.size() != b.size(), threshold);
}

std::vector<float> ramp(std::size_t n) {
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = 0.5f + static_cast<float>(i) * 0.25f;
    return v;
}

} // namespace

TEST(Kind, BitIdentical) {
    auto a = ramp(10);
    EXPECT_EQ(kindOf(DType::f32, a, a), Kind::bit_identical);
}

TEST(Kind, SingleSignedZero) {
    std::vector<float> a{0.0f, 1.0f}, b{-0.0f, 1.0f};
    EXPECT_EQ(kindOf(DType::f32, a, b), Kind::signed_zero_only);
}

TEST(Kind, NanPayloadAndAllNan) {
    std::vector<float> a{floatFromBits(0x7fc00000), floatFromBits(0x7fc00001)};
    std::vector<float> b{floatFromBits(0x7fc00002), floatFromBits(0x7fc00003)};
    EXPECT_EQ(kindOf(DType::f32, a, b), Kind::nan_payload);
    EXPECT_EQ(kindOf(DType::f32, a, a), Kind::bit_identical); // all-NaN, same bits
}

TEST(Kind, NanOrInfOnOneSide) {
    EXPECT_EQ(kindOf(DType::f32, std::vector<float>{1, NAN}, std::vector<float>{1, 2}),
              Kind::nan_inf_mismatch);
    EXPECT_EQ(kindOf(DType::f32, std::vector<float>{INFINITY, 1}, std::vector<float>{3e38f, 1}),
              Kind::nan_inf_mismatch);
}

TEST(Kind, RoundingIsRelativeToTheBuffersScale) {
    // A few ULP on the largest element: rounding. The same absolute Δ on a tiny element gives
    // a huge per-element relative Δ but is still rounding relative to the buffer.
    auto a = ramp(100), b = a;
    b[99] = std::nextafter(std::nextafter(b[99], 100.f), 100.f);
    EXPECT_EQ(kindOf(DType::f32, a, b), Kind::rounding);
    auto c = a;
    c[0] = 1e-30f;
    auto d = c;
    d[0] = 2e-30f;
    EXPECT_EQ(kindOf(DType::f32, c, d), Kind::rounding);
    // A change of 1% of the scale: numeric.
    auto e = a;
    e[50] += 0.01f * a[99];
    EXPECT_EQ(kindOf(DType::f32, a, e), Kind::numeric);
}

TEST(Kind, ThresholdMovesTheLineAndCoarseTypesGetTwoEpsilons) {
    auto a = ramp(100), b = a;
    b[10] += 1e-3f * a[99]; // ratio ~1e-3
    EXPECT_EQ(kindOf(DType::f32, a, b), Kind::numeric);
    EXPECT_EQ(kindOf(DType::f32, a, b, 1e-2), Kind::rounding);
    // bf16's epsilon is 2^-7: one ULP on 1.0 against a scale of 3 (ratio 2.6e-3) is rounding,
    // eight ULP (ratio 2.1e-2) is not.
    std::vector<std::uint16_t> x{0x3f80, 0x4000, 0x4040}, y{0x3f81, 0x4000, 0x4040},
        z{0x3f88, 0x4000, 0x4040};
    EXPECT_EQ(kindOf(DType::bf16, x, z), Kind::numeric);
    EXPECT_EQ(kindOf(DType::bf16, x, y), Kind::rounding);
}

TEST(Kind, IntegersAreDiscrete) {
    EXPECT_EQ(
        kindOf(DType::i32, std::vector<std::int32_t>{1, 2, 3}, std::vector<std::int32_t>{1, 2, 4}),
        Kind::discrete);
}

TEST(Kind, PermutationOfOnePairAndOfRows) {
    EXPECT_EQ(
        kindOf(DType::i32, std::vector<std::int32_t>{5, 7, 9}, std::vector<std::int32_t>{5, 9, 7}),
        Kind::permuted);
    auto a = ramp(64), b = a;
    std::rotate(b.begin(), b.begin() + 8, b.end()); // rows of 8 reordered
    EXPECT_EQ(kindOf(DType::f32, a, b), Kind::permuted);
    // Same values but one duplicated instead of moved: not a permutation.
    std::vector<std::int32_t> c{5, 7, 9}, d{5, 9, 9};
    EXPECT_EQ(kindOf(DType::i32, c, d), Kind::discrete);
}

TEST(Kind, LengthMismatch) {
    EXPECT_EQ(kindOf(DType::f32, ramp(4), ramp(5)), Kind::length_mismatch);
}

TEST(Kind, SeverityOrderAndSuggestions) {
    EXPECT_LT(Kind::discrete, Kind::rounding);
    EXPECT_LT(Kind::numeric, Kind::rounding);
    EXPECT_EQ(kindName(Kind::nan_inf_mismatch), "nan_inf_mismatch");
    EXPECT_NE(kindSuggestion(Kind::rounding, "q_logits").find("order-dependent reduction"),
              std::string::npos);
    EXPECT_NE(kindSuggestion(Kind::discrete, "idx").find("argmax"), std::string::npos);
}

TEST(Tolerance, NumpyRuleUlpRuleAndBoth) {
    std::vector<float> a{1.0f, 100.0f}, b{1.0f + 1e-6f, 100.0f};
    auto within = [&](Tolerance t) {
        return compareMemory(DType::f32, a.data(), 8, b.data(), 8, t).outsideTolerance == 0;
    };
    EXPECT_TRUE(within({1e-5, std::nullopt, std::nullopt}));
    EXPECT_FALSE(within({1e-7, std::nullopt, std::nullopt}));
    EXPECT_TRUE(within({std::nullopt, 1e-5, std::nullopt})); // rtol * |B|
    EXPECT_FALSE(within({std::nullopt, 1e-7, std::nullopt}));
    EXPECT_TRUE(within({std::nullopt, std::nullopt, 8})); // 1e-6 is 8 ULP at 1.0
    EXPECT_FALSE(within({std::nullopt, std::nullopt, 7}));
    EXPECT_FALSE(within({1e-5, std::nullopt, 7})); // both must hold
    auto nan =
        compareMemory(DType::f32, std::vector<float>{NAN}.data(), 4, std::vector<float>{1.f}.data(),
                      4, Tolerance{1e30, std::nullopt, std::nullopt});
    EXPECT_EQ(nan.outsideTolerance, 1u); // NaN against a number is never tolerated
    // Nor is an infinite |Δ| by atol or rtol, even where rtol * |B| is infinite too (B Inf, or a
    // product past the largest double); by ULP, Inf is one above the largest float.
    const std::vector<float> finite{1.0f, 3.4028235e38f, -1.0f}, inf{INFINITY, INFINITY, -INFINITY};
    for (const Tolerance& t :
         {Tolerance{1e300, std::nullopt, std::nullopt}, Tolerance{std::nullopt, 1e-6, std::nullopt},
          Tolerance{std::nullopt, 1e300, std::nullopt}})
        EXPECT_EQ(compareMemory(DType::f32, finite.data(), 12, inf.data(), 12, t).outsideTolerance,
                  3u);
    EXPECT_EQ(compareMemory(DType::f32, finite.data() + 1, 4, inf.data() + 1, 4,
                            Tolerance{std::nullopt, std::nullopt, 1})
                  .outsideTolerance,
              0u);
}

TEST(Tolerance, WithinToleranceStatusAndTheVerdict) {
    test::TempDir dir;
    test::writeRunPair(dir);
    test::perturb(dir, 1, "h_q_logits"); // 1 ULP
    AnalyzeOptions options;
    options.tolerance.ulp = 2;
    auto an = analyze(dir / "a", dir / "b", options);
    const BufferResult* q = nullptr;
    for (const auto& b : an.buffers)
        if (b.step == 1 && b.name == "q_logits") q = &b;
    ASSERT_TRUE(q);
    EXPECT_EQ(q->status, Status::within_tolerance);
    EXPECT_EQ(q->kind, Kind::rounding);
    EXPECT_EQ(an.matrix[1].cells[1].status, Status::within_tolerance);
    EXPECT_EQ(an.verdict.exitCode, 1); // the verdict stays bitwise
    EXPECT_EQ(*an.verdict.firstDivergentStep, 1u);

    options.verdictTolerance = true;
    auto tolerant = analyze(dir / "a", dir / "b", options);
    EXPECT_EQ(tolerant.verdict.exitCode, 0);
    EXPECT_FALSE(tolerant.verdict.firstDivergentStep);

    options.tolerance.ulp = 0;
    auto strict = analyze(dir / "a", dir / "b", options);
    EXPECT_EQ(strict.verdict.exitCode, 1);
}

TEST(Kind, RootCauseCarriesKindsAndSuggestion) {
    test::TempDir dir;
    test::writeRunPair(dir);
    test::perturb(dir, 1, "h_q_logits");
    auto an = analyze(dir / "a", dir / "b");
    EXPECT_EQ(an.verdict.rootCause.kinds, std::vector<Kind>{Kind::rounding});
    EXPECT_NE(an.verdict.rootCause.suggestion.find("q_logits"), std::string::npos);
}

TEST(Kind, H200NoisyHeadIsRoundingInQLogits) {
    test::TempDir dir;
    if (!test::unpackSample("h200-noisy-head.tar.xz", dir.path()))
        GTEST_SKIP() << "../shared/samples/h200-noisy-head.tar.xz is not beside the checkout";
    auto an = analyze(dir / "s2_noisy_head" / "a", dir / "s2_noisy_head" / "b");
    EXPECT_EQ(an.verdict.rootCause.step, 1u);
    EXPECT_EQ(an.verdict.rootCause.groups, std::vector<std::string>{"H"});
    EXPECT_EQ(an.verdict.rootCause.buffers, std::vector<std::string>{"q_logits"});
    EXPECT_EQ(an.verdict.rootCause.kinds, std::vector<Kind>{Kind::rounding});
    for (const auto& b : an.buffers) {
        if (b.status == Status::diverge) {
            EXPECT_EQ(b.kind, Kind::rounding) << b.fileName << " ratio " << scaleRatio(b.stats);
        }
    }
}

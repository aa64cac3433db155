// The longest common subsequence that --align auto pairs buffers by (analysis/pair_by_order.h),
// against the quadratic dynamic programme on random sequences.
#include "analysis/pair_by_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

using dumpscope::detail::commonSubsequence;

namespace {

std::size_t lcsLength(const std::vector<int>& a, const std::vector<int>& b) {
    std::vector<std::vector<std::size_t>> t(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j)
            t[i][j] =
                a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : std::max(t[i - 1][j], t[i][j - 1]);
    return t[a.size()][b.size()];
}

} // namespace

TEST(CommonSubsequence, IsALongestOneAndInOrder) {
    std::mt19937 rng(7);
    for (int trial = 0; trial < 400; ++trial) {
        const int alphabet = 1 + trial % 5;
        std::vector<int> a(rng() % 40), b(rng() % 40);
        for (int& x : a)
            x = static_cast<int>(rng() % alphabet);
        for (int& x : b)
            x = static_cast<int>(rng() % alphabet);
        const auto same = [&](std::size_t i, std::size_t j) { return a[i] == b[j]; };
        const auto pairs = commonSubsequence(a.size(), b.size(), same, 1000);
        ASSERT_TRUE(pairs.has_value());
        EXPECT_EQ(pairs->size(), lcsLength(a, b)) << "trial " << trial;
        for (std::size_t k = 0; k < pairs->size(); ++k) {
            const auto [i, j] = (*pairs)[k];
            ASSERT_LT(i, a.size());
            ASSERT_LT(j, b.size());
            EXPECT_EQ(a[i], b[j]);
            if (k > 0) {
                EXPECT_GT(i, (*pairs)[k - 1].first);
                EXPECT_GT(j, (*pairs)[k - 1].second);
            }
        }
    }
}

TEST(CommonSubsequence, OneInsertionShiftsNothingAfterIt) {
    std::vector<int> a(10000), b;
    for (std::size_t i = 0; i < a.size(); ++i)
        a[i] = static_cast<int>(i % 3);
    b = a;
    b.insert(b.begin() + 5, 7);
    const auto pairs = commonSubsequence(
        a.size(), b.size(), [&](std::size_t i, std::size_t j) { return a[i] == b[j]; }, 8);
    ASSERT_TRUE(pairs.has_value());
    ASSERT_EQ(pairs->size(), a.size());
    EXPECT_EQ((*pairs)[4], (std::pair<std::size_t, std::size_t>{4, 4}));
    EXPECT_EQ((*pairs)[5], (std::pair<std::size_t, std::size_t>{5, 6}));
    EXPECT_EQ(pairs->back(), (std::pair<std::size_t, std::size_t>{9999, 10000}));
}

TEST(CommonSubsequence, GivesUpPastItsEdits) {
    const std::vector<int> a(50, 1), b(50, 2);
    const auto pairs = commonSubsequence(
        a.size(), b.size(), [&](std::size_t i, std::size_t j) { return a[i] == b[j]; }, 99);
    EXPECT_FALSE(pairs.has_value());
    const auto all = commonSubsequence(
        a.size(), b.size(), [&](std::size_t i, std::size_t j) { return a[i] == b[j]; }, 100);
    ASSERT_TRUE(all.has_value());
    EXPECT_TRUE(all->empty());
}

// dsfp1 (dumpscope/fingerprint.h) against docs/reference/fingerprint.md's test vectors, which
// the Python capture reproduces too, and against every way of cutting the bytes into update()
// calls: a word split across calls must give the same fingerprint as the bytes in one piece.
#include "dumpscope/fingerprint.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

using dumpscope::fingerprintHex;
using dumpscope::fingerprintOf;

std::string hexOf(const std::vector<unsigned char>& bytes) {
    return fingerprintHex(fingerprintOf(bytes.data(), bytes.size()));
}

std::vector<unsigned char> floats(std::initializer_list<float> values) {
    std::vector<unsigned char> out(values.size() * 4);
    std::size_t i = 0;
    for (float v : values) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &v, 4);
        for (int b = 0; b < 4; ++b)
            out[i++] = static_cast<unsigned char>(bits >> (8 * b)); // little-endian as stored
    }
    return out;
}

TEST(Fingerprint, MatchesTheSpecificationsTestVectors) {
    std::vector<unsigned char> all(256);
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = static_cast<unsigned char>(i);
    EXPECT_EQ(hexOf({}), "e220a8397b1dcdaf");
    EXPECT_EQ(hexOf({0x00}), "7c6ede0099d1dac1");
    EXPECT_EQ(hexOf({0x01}), "cdd66b81babc6412");
    EXPECT_EQ(hexOf(std::vector<unsigned char>(8, 0)), "3ad33b002d190fde");
    EXPECT_EQ(hexOf(floats({1.0f, 2.0f, 3.0f})), "f1448d0b1b7c9725");
    EXPECT_EQ(hexOf(floats({2.0f, 1.0f, 3.0f})), "4feb7b2c565c12c5");
    EXPECT_EQ(hexOf(floats({+0.0f})), "1e6873c009ddf61b");
    EXPECT_EQ(hexOf(floats({-0.0f})), "30df2f8fee6954f7");
    EXPECT_EQ(hexOf(all), "5e57f44cebd0dfd9");
}

// The page's table is the one every implementation is held to: each row of it is checked here,
// so a vector added to the page without a test fails.
TEST(Fingerprint, EveryVectorOfThePageIsChecked) {
    std::ifstream page(std::string(DUMPSCOPE_TEST_DATA_DIR) +
                       "/../../docs/reference/fingerprint.md");
    ASSERT_TRUE(page) << "docs/reference/fingerprint.md";
    std::stringstream text;
    text << page.rdbuf();
    const std::string s = text.str();
    const std::regex row(R"(\| `([0-9a-f]{16})` \|)");
    std::size_t rows = 0;
    for (auto it = std::sregex_iterator(s.begin(), s.end(), row); it != std::sregex_iterator();
         ++it)
        ++rows;
    EXPECT_EQ(rows, 9u);
}

TEST(Fingerprint, AnySplitIntoUpdatesGivesTheSameFingerprint) {
    std::vector<unsigned char> bytes(61);
    for (std::size_t i = 0; i < bytes.size(); ++i)
        bytes[i] = static_cast<unsigned char>(i * 37 + 11);
    for (std::size_t length = 0; length <= bytes.size(); ++length) {
        const std::uint64_t whole = fingerprintOf(bytes.data(), length);
        // Every single split point, and every pair of them.
        for (std::size_t a = 0; a <= length; ++a)
            for (std::size_t b = a; b <= length; ++b) {
                dumpscope::Fingerprint fp;
                fp.update(bytes.data(), a);
                fp.update(bytes.data() + a, b - a);
                fp.update(bytes.data() + b, length - b);
                ASSERT_EQ(fp.finish(), whole) << "length " << length << " cut " << a << "," << b;
            }
        // Byte by byte.
        dumpscope::Fingerprint fp;
        for (std::size_t i = 0; i < length; ++i)
            fp.update(bytes.data() + i, 1);
        ASSERT_EQ(fp.finish(), whole) << "length " << length;
        EXPECT_EQ(fp.length(), length);
    }
}

TEST(Fingerprint, EveryBitAndEveryPermutationOfWordsChangesIt) {
    std::vector<unsigned char> bytes(24, 0x5a);
    const std::uint64_t base = fingerprintOf(bytes.data(), bytes.size());
    for (std::size_t bit = 0; bit < bytes.size() * 8; ++bit) {
        auto flipped = bytes;
        flipped[bit / 8] ^= static_cast<unsigned char>(1u << (bit % 8));
        EXPECT_NE(fingerprintOf(flipped.data(), flipped.size()), base) << "bit " << bit;
    }
    // The same words in another order.
    std::vector<unsigned char> words(24);
    for (std::size_t i = 0; i < words.size(); ++i)
        words[i] = static_cast<unsigned char>(i / 8 + 1);
    auto swapped = words;
    std::swap_ranges(swapped.begin(), swapped.begin() + 8, swapped.begin() + 8);
    EXPECT_NE(fingerprintOf(words.data(), 24), fingerprintOf(swapped.data(), 24));
    // Trailing zero bytes are not padding: the length is part of it.
    EXPECT_NE(fingerprintOf(words.data(), 23), fingerprintOf(words.data(), 24) + 0);
    const unsigned char zeros[2] = {0, 0};
    EXPECT_NE(fingerprintOf(zeros, 1), fingerprintOf(zeros, 2));
}

TEST(Fingerprint, HexRoundTripsAndRefusesAnythingButSixteenLowercaseDigits) {
    for (std::uint64_t v : {0ull, 1ull, 0xe220a8397b1dcdafull, ~0ull}) {
        const std::string hex = fingerprintHex(v);
        EXPECT_EQ(hex.size(), 16u);
        EXPECT_EQ(dumpscope::parseFingerprintHex(hex), v);
    }
    EXPECT_EQ(fingerprintHex(1), "0000000000000001");
    for (const char* bad : {"", "e220a8397b1dcda", "e220a8397b1dcdaf0", "E220A8397B1DCDAF",
                            "e220a8397b1dcdag", " e220a8397b1dcda", "0x20a8397b1dcdaf"})
        EXPECT_FALSE(dumpscope::parseFingerprintHex(bad)) << bad;
}

} // namespace

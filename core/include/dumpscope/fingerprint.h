#pragma once
// dsfp1, the 64-bit fingerprint of a buffer's bytes that capture logs record
// (docs/reference/fingerprint.md). Header-only and standard library only: the core reads logs
// with it, capture.h writes them with it, and a trainer may include it alone.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dumpscope {

namespace fingerprint_detail {

inline constexpr std::uint64_t kG = 0x9E3779B97F4A7C15ull;
inline constexpr std::uint64_t kC0 = 0x632BE59BD9B4E019ull;
inline constexpr std::uint64_t kM1 = 0xBF58476D1CE4E5B9ull;
inline constexpr std::uint64_t kM2 = 0x94D049BB133111EBull;

constexpr std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * kM1;
    z = (z ^ (z >> 27)) * kM2;
    return z ^ (z >> 31);
}

} // namespace fingerprint_detail

// The fingerprint of bytes fed in pieces of any length, in order: a word split across two
// update() calls is carried over, so the result never depends on how the bytes were cut.
class Fingerprint {
  public:
    void update(const void* data, std::size_t n) {
        const auto* p = static_cast<const unsigned char*>(data);
        m_length += n;
        // Complete the word a previous call left open.
        while (n > 0 && m_partialBytes > 0) {
            absorbByte(*p++);
            --n;
        }
        for (; n >= 8; n -= 8, p += 8)
            addWord(loadLittleEndian(p));
        while (n-- > 0)
            absorbByte(*p++);
    }

    // The fingerprint of every byte given so far; the object may go on being updated.
    std::uint64_t finish() const {
        std::uint64_t sum = m_sum;
        if (m_partialBytes > 0) sum += term(m_partial, m_words); // zero-padded last word
        return fingerprint_detail::mix(sum + (m_length + 1) * fingerprint_detail::kG);
    }

    std::uint64_t length() const { return m_length; }

  private:
    static std::uint64_t loadLittleEndian(const unsigned char* p) {
        std::uint64_t w = 0;
        for (int i = 7; i >= 0; --i)
            w = (w << 8) | p[i];
        return w;
    }
    static std::uint64_t term(std::uint64_t word, std::uint64_t index) {
        using namespace fingerprint_detail;
        return mix(word ^ (index * kG + kC0));
    }
    void addWord(std::uint64_t word) {
        m_sum += term(word, m_words);
        ++m_words;
    }
    void absorbByte(unsigned char byte) {
        m_partial |= static_cast<std::uint64_t>(byte) << (8 * m_partialBytes);
        if (++m_partialBytes == 8) {
            addWord(m_partial);
            m_partial = 0;
            m_partialBytes = 0;
        }
    }

    std::uint64_t m_sum = 0;
    std::uint64_t m_words = 0;  // whole words summed
    std::uint64_t m_length = 0; // bytes given
    std::uint64_t m_partial = 0;
    unsigned m_partialBytes = 0;
};

inline std::uint64_t fingerprintOf(const void* data, std::size_t n) {
    Fingerprint fp;
    fp.update(data, n);
    return fp.finish();
}

// 16 lowercase hexadecimal digits, as logs write it.
inline std::string fingerprintHex(std::uint64_t fp) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 15; i >= 0; --i, fp >>= 4)
        out[static_cast<std::size_t>(i)] = digits[fp & 0xf];
    return out;
}

// Exactly 16 hexadecimal digits, lowercase as written; nullopt for anything else (upper case
// included: one spelling per fingerprint, so that logs compare as text too).
inline std::optional<std::uint64_t> parseFingerprintHex(std::string_view text) {
    if (text.size() != 16) return std::nullopt;
    std::uint64_t value = 0;
    for (char c : text) {
        unsigned d = 0;
        if (c >= '0' && c <= '9')
            d = static_cast<unsigned>(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = static_cast<unsigned>(c - 'a' + 10);
        else
            return std::nullopt;
        value = (value << 4) | d;
    }
    return value;
}

} // namespace dumpscope

#include "formats/npy_header.h"

#include "formats/little_endian.h"

#include <cstring>
#include <limits>

namespace dumpscope::detail {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicBytes = 6;

std::string quoted(const std::string& descr) {
    return "'" + descr + "'";
}

// The element type a descr names. numpy writes '<' for multi-byte types on every
// little-endian machine, '|' (no order) for one-byte types; '>' is big-endian.
NpyProblem describeType(const std::string& descr, std::uint64_t byte, NpyHeader& header) {
    header.typeName = descr;
    const auto refuse = [&](const std::string& why) { return NpyProblem{byte, why}; };
    if (descr.size() < 2 || std::strchr("<>|=", descr[0]) == nullptr)
        return refuse("dtype " + quoted(descr) + " is not supported");
    const char order = descr[0];
    const char kind = descr[1];
    switch (kind) {
    case 'O':
        return refuse("dtype " + quoted(descr) + " (Python objects) is not supported");
    case 'S':
    case 'a':
    case 'U':
        return refuse("dtype " + quoted(descr) + " (strings) is not supported");
    case 'M':
    case 'm':
        return refuse("dtype " + quoted(descr) + " (dates and times) is not supported");
    default:
        break;
    }
    const std::string digits = descr.substr(2);
    if (digits.empty() || digits.size() > 6 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
        return refuse("dtype " + quoted(descr) + " is not supported");
    const std::uint64_t size = std::stoull(digits);
    struct Known {
        char kind;
        std::uint64_t size;
        std::optional<DType> type;
    };
    static const Known kKnown[] = {
        {'f', 2, DType::f16},
        {'f', 4, DType::f32},
        {'f', 8, DType::f64},
        {'i', 1, DType::i8},
        {'i', 2, DType::i16},
        {'i', 4, DType::i32},
        {'i', 8, DType::i64},
        {'u', 1, DType::u8},
        {'u', 2, DType::u16},
        {'u', 4, DType::u32},
        {'u', 8, DType::u64},
        {'b', 1, DType::u8}, // numpy's bool: one byte, 0 or 1, compared as u8
        {'c', 8, std::nullopt},
        {'c', 16, std::nullopt}};
    const Known* known = nullptr;
    for (const Known& k : kKnown)
        if (k.kind == kind && k.size == size) known = &k;
    // Raw bytes of a fixed size: what bfloat16 (ml_dtypes) arrays are saved as. The schema may
    // give them a type; the plan decides.
    const bool rawBytes = kind == 'V' && size > 0;
    if (known == nullptr && !rawBytes)
        return refuse("dtype " + quoted(descr) + " is not supported");
    if (!rawBytes && size > 1) {
        if (order == '>')
            return refuse("big-endian data (" + descr +
                          ") is not supported: save it little-endian");
        if (order != '<') return refuse("dtype " + quoted(descr) + " does not say its byte order");
    }
    header.dtype = rawBytes ? std::nullopt : known->type;
    header.itemBytes = size;
    return {};
}

// A strict reader of the dictionary literal numpy writes:
// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
class DictParser {
  public:
    DictParser(const unsigned char* bytes, std::size_t begin, std::size_t end)
        : m_bytes(bytes), m_pos(begin), m_end(end) {}

    NpyProblem parse(NpyHeader& header) {
        bool sawDescr = false, sawOrder = false, sawShape = false;
        skipSpace();
        if (!take('{')) return fail("the header is not a dictionary ('{' expected)");
        skipSpace();
        while (!peek('}')) {
            const std::size_t keyAt = m_pos;
            std::string key;
            if (NpyProblem p = string(key); !p.ok()) return p;
            skipSpace();
            if (!take(':')) return fail("':' expected after the key '" + key + "'");
            skipSpace();
            bool* seen = key == "descr"           ? &sawDescr
                         : key == "fortran_order" ? &sawOrder
                         : key == "shape"         ? &sawShape
                                                  : nullptr;
            if (seen == nullptr)
                return NpyProblem{keyAt, "unexpected key '" + key +
                                             "' (a .npy header has descr, fortran_order "
                                             "and shape)"};
            if (*seen) return NpyProblem{keyAt, "the key '" + key + "' appears twice"};
            *seen = true;
            NpyProblem p = key == "descr"           ? descr(header)
                           : key == "fortran_order" ? boolean(header.fortranOrder)
                                                    : shape(header.shape);
            if (!p.ok()) return p;
            skipSpace();
            if (take(',')) {
                skipSpace();
            } else if (!peek('}')) {
                return fail("',' or '}' expected");
            }
        }
        ++m_pos;
        skipSpace();
        if (m_pos != m_end) return fail("unexpected text after the header's dictionary");
        if (!sawDescr || !sawOrder || !sawShape)
            return fail(std::string("the header lacks the key '") +
                        (!sawDescr   ? "descr"
                         : !sawOrder ? "fortran_order"
                                     : "shape") +
                        "'");
        return {};
    }

  private:
    NpyProblem fail(const std::string& what) const { return {m_pos, what}; }
    bool peek(char c) const { return m_pos < m_end && m_bytes[m_pos] == c; }
    bool take(char c) {
        if (!peek(c)) return false;
        ++m_pos;
        return true;
    }
    bool takeWord(const char* word) {
        const std::size_t n = std::strlen(word);
        if (m_end - m_pos < n || std::memcmp(m_bytes + m_pos, word, n) != 0) return false;
        m_pos += n;
        return true;
    }
    void skipSpace() {
        while (m_pos < m_end && (m_bytes[m_pos] == ' ' || m_bytes[m_pos] == '\n' ||
                                 m_bytes[m_pos] == '\t' || m_bytes[m_pos] == '\r'))
            ++m_pos;
    }

    NpyProblem string(std::string& out) {
        if (!peek('\'') && !peek('"')) return fail("a quoted string expected");
        const unsigned char quote = m_bytes[m_pos++];
        const std::size_t start = m_pos;
        while (m_pos < m_end && m_bytes[m_pos] != quote) {
            if (m_bytes[m_pos] == '\\') return fail("escapes in a string are not supported");
            ++m_pos;
        }
        if (m_pos == m_end) return NpyProblem{start - 1, "the string never ends"};
        out.assign(reinterpret_cast<const char*>(m_bytes) + start, m_pos - start);
        ++m_pos;
        return {};
    }

    NpyProblem descr(NpyHeader& header) {
        const std::size_t at = m_pos;
        if (peek('[')) {
            // A structured dtype: named by its list's text (up to a length) in the refusal.
            constexpr std::size_t kShown = 60;
            std::size_t end = m_pos, depth = 0;
            do {
                depth += m_bytes[end] == '[' ? 1 : m_bytes[end] == ']' ? -1 : 0;
                ++end;
            } while (end < m_end && depth > 0 && end - at < kShown);
            const std::string text(reinterpret_cast<const char*>(m_bytes) + at, end - at);
            return NpyProblem{at, "structured dtype " + text + (depth > 0 ? "..." : "") +
                                      " is not supported"};
        }
        std::string text;
        if (NpyProblem p = string(text); !p.ok()) return p;
        return describeType(text, at, header);
    }

    NpyProblem boolean(bool& out) {
        if (takeWord("True")) {
            out = true;
        } else if (takeWord("False")) {
            out = false;
        } else {
            return fail("True or False expected");
        }
        return {};
    }

    NpyProblem integer(std::uint64_t& out) {
        if (peek('-')) return fail("a negative dimension");
        const std::size_t start = m_pos;
        out = 0;
        while (m_pos < m_end && m_bytes[m_pos] >= '0' && m_bytes[m_pos] <= '9') {
            const unsigned digit = m_bytes[m_pos] - '0';
            if (out > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
                return NpyProblem{start, "a dimension over 2^64"};
            out = out * 10 + digit;
            ++m_pos;
        }
        if (m_pos == start) return fail("a dimension (a non-negative integer) expected");
        take('L'); // Python 2's long literal, in headers numpy wrote then
        return {};
    }

    // A tuple: (), (3,), (3, 4), (3, 4,). A lone (3) is an integer in Python, not a shape.
    NpyProblem shape(std::vector<std::uint64_t>& out) {
        const std::size_t at = m_pos;
        if (!take('(')) return fail("a tuple expected for the shape");
        skipSpace();
        bool comma = false;
        while (!take(')')) {
            std::uint64_t dim = 0;
            if (NpyProblem p = integer(dim); !p.ok()) return p;
            out.push_back(dim);
            skipSpace();
            comma = take(',');
            skipSpace();
            if (!comma && !peek(')')) return fail("',' or ')' expected in the shape");
            if (out.size() > 64) return NpyProblem{at, "a shape of more than 64 dimensions"};
        }
        if (out.size() == 1 && !comma) return NpyProblem{at, "the shape is not a tuple"};
        return {};
    }

    const unsigned char* m_bytes;
    std::size_t m_pos;
    std::size_t m_end;
};

std::string shapeText(const std::vector<std::uint64_t>& shape) {
    std::string text = "(";
    for (std::size_t i = 0; i < shape.size(); ++i)
        text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + (shape.size() == 1 ? ",)" : ")");
}

} // namespace

NpyProblem npyHeaderBytes(const unsigned char* bytes, std::size_t n, std::uint64_t& headerBytes) {
    if (n < kMagicBytes || std::memcmp(bytes, kMagic, kMagicBytes) != 0)
        return {0, "not a .npy array: it does not start with \\x93NUMPY"};
    if (n < 8) return {n, "the .npy header ends after " + std::to_string(n) + " bytes"};
    const unsigned major = bytes[6], minor = bytes[7];
    if (major < 1 || major > 3 || minor != 0)
        return {6, ".npy format version " + std::to_string(major) + "." + std::to_string(minor) +
                       " is not supported (1.0, 2.0 and 3.0 are)"};
    const std::size_t lengthBytes = major == 1 ? 2 : 4;
    if (n < 8 + lengthBytes)
        return {n, "the .npy header ends after " + std::to_string(n) + " bytes"};
    const std::uint64_t length = major == 1 ? loadLe16(bytes + 8) : loadLe32(bytes + 8);
    if (length > kMaxNpyHeaderBytes)
        return {8, "a header of " + std::to_string(length) + " bytes: more than the " +
                       std::to_string(kMaxNpyHeaderBytes) + " dumpscope reads"};
    headerBytes = 8 + lengthBytes + length;
    return {};
}

NpyProblem parseNpyHeader(const unsigned char* bytes, std::size_t n, NpyHeader& header) {
    header = NpyHeader{};
    if (NpyProblem p = npyHeaderBytes(bytes, n, header.headerBytes); !p.ok()) return p;
    if (n < header.headerBytes)
        return {n, "the .npy header ends after " + std::to_string(n) + " bytes"};
    const std::size_t begin = bytes[6] == 1 ? 10 : 12;
    DictParser parser(bytes, begin, static_cast<std::size_t>(header.headerBytes));
    if (NpyProblem p = parser.parse(header); !p.ok()) return p;
    header.count = 1;
    const auto overflow = [&] {
        return NpyProblem{begin, "the shape " + shapeText(header.shape) + " of " + header.typeName +
                                     " holds more than 2^64 bytes"};
    };
    for (const std::uint64_t dim : header.shape) {
        if (dim != 0 && header.count > std::numeric_limits<std::uint64_t>::max() / dim)
            return overflow();
        header.count *= dim;
    }
    if (header.count > std::numeric_limits<std::uint64_t>::max() / header.itemBytes)
        return overflow();
    header.dataBytes = header.count * header.itemBytes;
    return {};
}

TensorEntry npyEntry(const NpyHeader& header, const std::string& file, std::uint64_t dataOffset) {
    TensorEntry entry;
    entry.dtype = header.dtype;
    entry.typeName = header.typeName;
    entry.itemBytes = header.itemBytes;
    entry.shape = header.shape;
    TensorLocation& at = entry.location;
    at.file = file;
    at.offset = dataOffset;
    at.count = header.count;
    at.extentBytes = header.dataBytes;
    std::size_t longDims = 0;
    for (const std::uint64_t dim : header.shape)
        longDims += dim > 1 ? 1 : 0;
    // Fortran order is column-major: the first index moves fastest. With at most one dimension
    // longer than 1 the two orders are the same bytes, and the data stays contiguous.
    if (header.fortranOrder && longDims > 1) {
        at.sizes = header.shape;
        at.strides.resize(header.shape.size());
        std::uint64_t stride = 1;
        for (std::size_t i = 0; i < header.shape.size(); ++i) {
            at.strides[i] = stride;
            stride *= header.shape[i];
        }
    }
    return entry;
}

} // namespace dumpscope::detail

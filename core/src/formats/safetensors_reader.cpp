// safetensors: an 8-byte little-endian header length N, N bytes of JSON (each tensor's dtype,
// shape and data_offsets relative to the data region, plus an optional "__metadata__" map of
// strings), then the data region from byte 8 + N. Only the header is read here, through
// nlohmann-json's SAX interface: no document is built, so the memory taken is the listing's,
// whatever values a hostile header repeats or nests.
#include "formats/tensor_entry.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <string_view>

namespace dumpscope::detail {

namespace {

using Json = nlohmann::json;

struct SafetensorsType {
    std::string_view name;
    std::optional<DType> dtype;
};

// The format's type names. BOOL is one byte per element (0 or 1), compared as u8. The others a
// safetensors file may name (C64, F8_E8M0, sub-byte F4/F6 ...) are listed with no dtype.
constexpr std::array<SafetensorsType, 15> kTypes{{
    {"F64", DType::f64},
    {"F32", DType::f32},
    {"F16", DType::f16},
    {"BF16", DType::bf16},
    {"I64", DType::i64},
    {"I32", DType::i32},
    {"I16", DType::i16},
    {"I8", DType::i8},
    {"U64", DType::u64},
    {"U32", DType::u32},
    {"U16", DType::u16},
    {"U8", DType::u8},
    {"BOOL", DType::u8},
    {"F8_E4M3", DType::f8_e4m3},
    {"F8_E5M2", DType::f8_e5m2},
}};

// The format's other types (its reference implementation's list): listed with no dtype of
// ours, compared as their bytes or parts. Any other name is not a safetensors type.
constexpr std::array<std::string_view, 5> kOtherTypes{"C64", "F8_E8M0", "F4", "F6_E2M3", "F6_E3M2"};

bool isFormatType(std::string_view name) {
    return std::find(kOtherTypes.begin(), kOtherTypes.end(), name) != kOtherTypes.end();
}

std::optional<DType> typeOf(std::string_view name) {
    for (const auto& t : kTypes)
        if (t.name == name) return t.dtype;
    return std::nullopt;
}

// Where the header starts, and the largest one read: the format's own reference
// implementation refuses headers over 100 MB too.
constexpr std::uint64_t kHeaderStart = 8;
constexpr std::uint64_t kMaxHeaderBytes = 100'000'000;
// More dimensions than numpy or torch allow: a shape past it is not a tensor's.
constexpr std::size_t kMaxRank = 64;

// One tensor before it is placed: its data_offsets besides its entry.
struct Pending {
    TensorEntry entry;
    std::uint64_t begin = 0, end = 0;
};

ContainerListing refused(const std::string& path, std::uint64_t byte, const std::string& what) {
    ContainerListing out;
    out.error = path + ": byte " + std::to_string(byte) + ": " + what;
    return out;
}

ContainerListing refused(std::string error) {
    ContainerListing out;
    out.error = std::move(error);
    return out;
}

std::string jsonQuoted(const std::string& key) {
    return Json(key).dump();
}

// The file byte where `key` is written as a key in the header (as JSON spells it, followed by
// a colon), or the header's first byte when the file spells it another way (escaped
// differently). Only for messages: one search per refused file.
std::uint64_t keyByte(const std::string& header, const std::string& key) {
    const std::string q = jsonQuoted(key);
    for (auto pos = header.find(q); pos != std::string::npos; pos = header.find(q, pos + 1)) {
        const auto after = header.find_first_not_of(" \t\r\n", pos + q.size());
        if (after != std::string::npos && header[after] == ':') return kHeaderStart + pos;
    }
    return kHeaderStart;
}

// A tensor's fields as the header gives them; checked when its object ends.
struct Fields {
    std::optional<std::string> dtype;
    bool shapeSeen = false, offsetsSeen = false;
    std::vector<std::uint64_t> shape;
    std::vector<std::uint64_t> offsets;
};

const std::string kDtypeWrong = "\"dtype\" must be a string (F32, BF16, F8_E4M3, ...)";
const std::string kShapeWrong = "\"shape\" must be an array of non-negative integers";
const std::string kOffsetsWrong =
    "\"data_offsets\" must be [begin, end], two non-negative integers";
const std::string kMetadataWrong = "\"__metadata__\" must be an object of strings";

// The checks that need all of a tensor's fields; empty on success, else what is wrong.
std::string finishTensor(const std::string& key, Fields& f, Pending& p) {
    const std::string name = "tensor " + jsonQuoted(key);
    if (!f.dtype) return name + ": " + kDtypeWrong;
    if (!f.shapeSeen) return name + ": " + kShapeWrong;
    if (!f.offsetsSeen || f.offsets.size() != 2) return name + ": " + kOffsetsWrong;
    p.entry.key = key;
    p.entry.typeName = std::move(*f.dtype);
    p.entry.dtype = typeOf(p.entry.typeName);
    if (!p.entry.dtype && !isFormatType(p.entry.typeName))
        return name + ": dtype " + jsonQuoted(p.entry.typeName) + " is not a safetensors type";
    std::uint64_t count = 1;
    for (const auto n : f.shape)
        if (__builtin_mul_overflow(count, n, &count))
            return name + ": the shape's element count overflows 64 bits";
    p.entry.shape = std::move(f.shape);
    p.begin = f.offsets[0];
    p.end = f.offsets[1];
    if (p.end < p.begin)
        return name + ": data_offsets end " + std::to_string(p.end) + " is before its begin " +
               std::to_string(p.begin);
    if (p.entry.dtype) {
        std::uint64_t bytes = 0;
        if (__builtin_mul_overflow(count, dtypeSize(*p.entry.dtype), &bytes))
            return name + ": the shape's byte count overflows 64 bits";
        if (bytes != p.end - p.begin)
            return name + ": data_offsets span " + std::to_string(p.end - p.begin) +
                   " bytes but the shape and dtype " + p.entry.typeName + " need " +
                   std::to_string(bytes);
    }
    // A type of no dumpscope element type still has a size when its bytes divide evenly.
    p.entry.itemBytes = p.entry.dtype                                 ? dtypeSize(*p.entry.dtype)
                        : count > 0 && (p.end - p.begin) % count == 0 ? (p.end - p.begin) / count
                                                                      : 0;
    p.entry.location.key = key;
    p.entry.location.count = count;
    p.entry.location.extentBytes = p.end - p.begin;
    return {};
}

// The header's events, in a fixed structure: the top object (depth 1) holds tensors and
// "__metadata__" (depth 2), a tensor holds "shape" and "data_offsets" arrays (depth 3). A
// tensor's other fields are skipped, however nested. The first thing wrong stops the parse.
class HeaderSax : public Json::json_sax_t {
  public:
    std::vector<Pending> tensors;
    std::string error;    // what is wrong, without the file and byte
    std::string errorKey; // the top-level key it is about; empty: the header as a whole
    std::optional<std::uint64_t> errorByte; // where the JSON itself is wrong, in the header

    bool null() override { return scalar(false, 0, nullptr, "null"); }
    bool boolean(bool) override { return scalar(false, 0, nullptr, "boolean"); }
    bool number_integer(number_integer_t) override { return scalar(false, 0, nullptr, "number"); }
    bool number_unsigned(number_unsigned_t v) override {
        return scalar(true, v, nullptr, "number");
    }
    bool number_float(number_float_t, const string_t&) override {
        return scalar(false, 0, nullptr, "number");
    }
    bool string(string_t& v) override { return scalar(false, 0, &v, "string"); }
    bool binary(binary_t&) override { return scalar(false, 0, nullptr, "binary"); }

    bool start_object(std::size_t) override {
        if (m_skip) return ++m_skip, true;
        switch (m_depth) {
        case 0:
            return m_depth = 1, true;
        case 1:
            m_metadata = m_key == "__metadata__";
            m_fields = {};
            return m_depth = 2, true;
        case 2:
            return m_metadata ? fail(kMetadataWrong) : field(true);
        default:
            return fail(m_inShape ? kShapeWrong : kOffsetsWrong);
        }
    }
    bool end_object() override {
        if (m_skip) return --m_skip, true;
        if (m_depth == 2 && !m_metadata) {
            Pending p;
            if (auto e = finishTensor(m_key, m_fields, p); !e.empty())
                return errorKey = m_key, error = std::move(e), false;
            tensors.push_back(std::move(p));
        }
        return --m_depth, true;
    }
    bool start_array(std::size_t) override {
        if (m_skip) return ++m_skip, true;
        switch (m_depth) {
        case 0:
            return fail("the header must be a JSON object of tensors, not array");
        case 1:
            return m_key == "__metadata__" ? fail(kMetadataWrong) : notAnObject();
        case 2:
            return m_metadata ? fail(kMetadataWrong) : field(false);
        default:
            return fail(m_inShape ? kShapeWrong : kOffsetsWrong);
        }
    }
    bool end_array() override {
        if (m_skip) return --m_skip, true;
        return --m_depth, true;
    }
    bool key(string_t& k) override {
        if (m_skip) return true;
        (m_depth == 1 ? m_key : m_field) = k;
        return true;
    }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& e) override {
        // `position` counts from 1 the character at which the parser stopped.
        errorByte = position > 0 ? position - 1 : 0;
        std::string why = e.what();
        if (const auto colon = why.find(": ", why.find("column")); colon != std::string::npos)
            why = why.substr(colon + 2);
        error = "the header is not valid JSON: " + why;
        return false;
    }

  private:
    int m_depth = 0;
    std::size_t m_skip = 0; // containers open inside a skipped field
    std::string m_key, m_field;
    bool m_metadata = false, m_inShape = false;
    Fields m_fields;

    // Stops the parse: `what` about the top-level key being read, a tensor unless it is
    // "__metadata__", or about the whole header at depth 0.
    bool fail(const std::string& what) {
        errorKey = m_depth >= 1 ? m_key : std::string{};
        error = m_depth >= 1 && m_key != "__metadata__"
                    ? "tensor " + jsonQuoted(m_key) + ": " + what
                    : what;
        return false;
    }
    bool notAnObject() {
        return fail("must be an object with \"dtype\", \"shape\" and \"data_offsets\"");
    }
    // A tensor field's value opens a container: an array for shape and data_offsets.
    bool field(bool object) {
        const bool shape = m_field == "shape", offsets = m_field == "data_offsets";
        if (m_field == "dtype") return fail(kDtypeWrong);
        if (!shape && !offsets) return m_skip = 1, true;
        if (object) return fail(shape ? kShapeWrong : kOffsetsWrong);
        m_inShape = shape;
        (shape ? m_fields.shapeSeen : m_fields.offsetsSeen) = true;
        (shape ? m_fields.shape : m_fields.offsets).clear();
        return m_depth = 3, true;
    }
    bool scalar(bool isUnsigned, std::uint64_t v, string_t* text, const char* type) {
        if (m_skip) return true;
        switch (m_depth) {
        case 0:
            return fail(std::string("the header must be a JSON object of tensors, not ") + type);
        case 1:
            return m_key == "__metadata__" ? fail(kMetadataWrong) : notAnObject();
        case 2:
            if (m_metadata) return text ? true : fail(kMetadataWrong);
            if (m_field == "dtype")
                return text ? (m_fields.dtype = std::move(*text), true) : fail(kDtypeWrong);
            if (m_field == "shape") return fail(kShapeWrong);
            if (m_field == "data_offsets") return fail(kOffsetsWrong);
            return true;
        default:
            if (m_inShape) {
                if (!isUnsigned) return fail(kShapeWrong);
                if (m_fields.shape.size() == kMaxRank)
                    return fail("\"shape\" has more than " + std::to_string(kMaxRank) +
                                " dimensions");
                m_fields.shape.push_back(v);
                return true;
            }
            if (!isUnsigned || m_fields.offsets.size() == 2) return fail(kOffsetsWrong);
            m_fields.offsets.push_back(v);
            return true;
        }
    }
};

} // namespace

ContainerListing listSafetensors(const DumpReader& file, const std::string& relativePath) {
    const std::string path = file.path().string();
    const std::uint64_t size = file.size();
    if (size < kHeaderStart)
        return refused(path, 0,
                       "too short for safetensors: the header length needs 8 bytes, the file has " +
                           std::to_string(size));
    unsigned char lengthBytes[8];
    bool ended = false;
    if (auto e = file.readExact(lengthBytes, sizeof lengthBytes, 0, ended); !e.empty())
        return refused(std::move(e));
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
        n = n << 8 | lengthBytes[i];
    if (n > kMaxHeaderBytes)
        return refused(path, 0,
                       "header length " + std::to_string(n) + " is over the " +
                           std::to_string(kMaxHeaderBytes) + "-byte limit");
    if (n > size - kHeaderStart)
        return refused(path, 0,
                       "header length " + std::to_string(n) + " runs past the end of the file (" +
                           std::to_string(size) + " bytes)");
    std::string text(static_cast<std::size_t>(n), '\0');
    if (auto e = file.readExact(text.data(), text.size(), kHeaderStart, ended); !e.empty())
        return refused(std::move(e));

    HeaderSax sax;
    if (!Json::sax_parse(text, &sax)) {
        const std::uint64_t byte = sax.errorByte          ? kHeaderStart + *sax.errorByte
                                   : sax.errorKey.empty() ? kHeaderStart
                                                          : keyByte(text, sax.errorKey);
        return refused(path, byte, sax.error);
    }

    const std::uint64_t dataStart = kHeaderStart + n;
    const std::uint64_t dataBytes = size - dataStart;
    std::vector<Pending>& pending = sax.tensors;
    for (auto& p : pending) {
        if (p.end > dataBytes)
            return refused(path, keyByte(text, p.entry.key),
                           "tensor " + jsonQuoted(p.entry.key) + ": data_offsets end " +
                               std::to_string(p.end) + " is past the end of the data (" +
                               std::to_string(dataBytes) + " bytes from byte " +
                               std::to_string(dataStart) + ")");
        p.entry.location.file = relativePath;
        p.entry.location.offset = dataStart + p.begin;
    }
    // A name given twice would be two buffers of one name; a JSON library keeps one of them
    // silently.
    std::vector<const std::string*> names;
    names.reserve(pending.size());
    for (const auto& p : pending)
        names.push_back(&p.entry.key);
    std::sort(names.begin(), names.end(), [](auto* a, auto* b) { return *a < *b; });
    for (std::size_t i = 1; i < names.size(); ++i)
        if (*names[i] == *names[i - 1])
            return refused(path, keyByte(text, *names[i]),
                           "tensor " + jsonQuoted(*names[i]) + " is named twice in the header");

    // Listed in data order: the reference writer lays tensors out by dtype (widest first),
    // then name, and its older versions wrote the header's keys in hash order, so the data
    // order is the one order every writer's files keep. Overlapping tensors are refused, as the
    // reference implementation does: one byte cannot be two tensors' elements in a file
    // written by a writer. Gaps are allowed: no tensor reads them.
    std::stable_sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    });
    for (std::size_t i = 1; i < pending.size(); ++i) {
        const Pending &p = pending[i], &q = pending[i - 1];
        if (p.begin < q.end)
            return refused(path, keyByte(text, p.entry.key),
                           "tensor " + jsonQuoted(p.entry.key) + " (data_offsets [" +
                               std::to_string(p.begin) + ", " + std::to_string(p.end) +
                               "]) overlaps tensor " + jsonQuoted(q.entry.key) + " ([" +
                               std::to_string(q.begin) + ", " + std::to_string(q.end) + "])");
    }
    ContainerListing out;
    for (auto& p : pending)
        out.tensors.push_back(std::move(p.entry));
    return out;
}

} // namespace dumpscope::detail

// safetensors: an 8-byte little-endian header length N, N bytes of JSON (each tensor's dtype,
// shape and data_offsets relative to the data region, plus an optional "__metadata__" map of
// strings), then the data region from byte 8 + N. Only the header is read here.
#include "formats/tensor_entry.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <string_view>

namespace dumpscope::detail {

namespace {

using Json = nlohmann::ordered_json; // the file's key order, so the first bad entry is named

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

std::optional<DType> typeOf(std::string_view name) {
    for (const auto& t : kTypes)
        if (t.name == name) return t.dtype;
    return std::nullopt;
}

// Where the header starts, and the largest one read: the format's own reference
// implementation refuses headers over 100 MB too. The parsed header takes a few times that.
constexpr std::uint64_t kHeaderStart = 8;
constexpr std::uint64_t kMaxHeaderBytes = 100'000'000;

// One tensor before it is placed: its data_offsets, and the file byte where its entry is named
// in the header, for messages.
struct Pending {
    TensorEntry entry;
    std::uint64_t begin = 0, end = 0;
    std::uint64_t headerByte = 0;
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

std::string quoted(const std::string& key) {
    return Json(key).dump();
}

// The file byte where `key` is spelt in the header (searched as JSON spells it), or the
// header's first byte when the file spells it another way (escaped differently).
std::uint64_t keyByte(const std::string& header, const std::string& key) {
    const auto pos = header.find(quoted(key));
    return kHeaderStart + (pos == std::string::npos ? 0 : pos);
}

bool isUnsigned(const Json& v) {
    return v.is_number_unsigned();
}

// The tensor's fields, checked; empty on success, else what is wrong with them.
std::string readTensor(const std::string& key, const Json& value, Pending& p) {
    const std::string name = "tensor " + quoted(key);
    if (!value.is_object())
        return name + ": must be an object with \"dtype\", \"shape\" and \"data_offsets\"";
    const auto dtype = value.find("dtype");
    if (dtype == value.end() || !dtype->is_string())
        return name + ": \"dtype\" must be a string (F32, BF16, F8_E4M3, ...)";
    p.entry.key = key;
    p.entry.typeName = dtype->get<std::string>();
    p.entry.dtype = typeOf(p.entry.typeName);

    const auto shape = value.find("shape");
    if (shape == value.end() || !shape->is_array())
        return name + ": \"shape\" must be an array of non-negative integers";
    std::uint64_t count = 1;
    for (const auto& d : *shape) {
        if (!isUnsigned(d)) return name + ": \"shape\" must be an array of non-negative integers";
        const auto n = d.get<std::uint64_t>();
        if (__builtin_mul_overflow(count, n, &count))
            return name + ": the shape's element count overflows 64 bits";
        p.entry.shape.push_back(n);
    }
    if (p.entry.shape.empty()) count = 1; // 0-d: one element

    const auto offsets = value.find("data_offsets");
    if (offsets == value.end() || !offsets->is_array() || offsets->size() != 2 ||
        !isUnsigned((*offsets)[0]) || !isUnsigned((*offsets)[1]))
        return name + ": \"data_offsets\" must be [begin, end], two non-negative integers";
    p.begin = (*offsets)[0].get<std::uint64_t>();
    p.end = (*offsets)[1].get<std::uint64_t>();
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
    p.entry.location.key = key;
    p.entry.location.count = count;
    p.entry.location.extentBytes = p.end - p.begin;
    return {};
}

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

    Json header;
    try {
        header = Json::parse(text);
    } catch (const Json::parse_error& e) {
        // e.byte counts from 1 the character at which the parser stopped.
        const std::uint64_t at = kHeaderStart + (e.byte > 0 ? e.byte - 1 : 0);
        std::string why = e.what();
        if (const auto colon = why.find(": ", why.find("column")); colon != std::string::npos)
            why = why.substr(colon + 2);
        return refused(path, at, "the header is not valid JSON: " + why);
    }
    if (!header.is_object())
        return refused(path, kHeaderStart,
                       "the header must be a JSON object of tensors, not " +
                           std::string(header.type_name()));

    const std::uint64_t dataStart = kHeaderStart + n;
    const std::uint64_t dataBytes = size - dataStart;
    std::vector<Pending> pending;
    for (const auto& [key, value] : header.items()) {
        if (key == "__metadata__") {
            bool strings = value.is_object();
            if (strings)
                for (const auto& [k, v] : value.items())
                    strings = strings && v.is_string();
            if (!strings)
                return refused(path, keyByte(text, key),
                               "\"__metadata__\" must be an object of strings");
            continue;
        }
        Pending p;
        p.headerByte = keyByte(text, key);
        if (auto e = readTensor(key, value, p); !e.empty()) return refused(path, p.headerByte, e);
        if (p.end > dataBytes)
            return refused(path, p.headerByte,
                           "tensor " + quoted(key) + ": data_offsets end " + std::to_string(p.end) +
                               " is past the end of the data (" + std::to_string(dataBytes) +
                               " bytes from byte " + std::to_string(dataStart) + ")");
        p.entry.location.file = relativePath;
        p.entry.location.offset = dataStart + p.begin;
        pending.push_back(std::move(p));
    }

    // The writer lays tensors out one after another in its own order (by dtype size, then
    // name, in the Python library), which is not the header's key order: the data order is
    // the closest to the dump order the file keeps. Overlapping tensors are refused, as the
    // reference implementation does: one byte cannot be two tensors' elements in a file
    // written by a writer. Gaps are allowed: no tensor reads them.
    std::stable_sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    });
    for (std::size_t i = 1; i < pending.size(); ++i) {
        const Pending &p = pending[i], &q = pending[i - 1];
        if (p.begin < q.end)
            return refused(path, p.headerByte,
                           "tensor " + quoted(p.entry.key) + " (data_offsets [" +
                               std::to_string(p.begin) + ", " + std::to_string(p.end) +
                               "]) overlaps tensor " + quoted(q.entry.key) + " ([" +
                               std::to_string(q.begin) + ", " + std::to_string(q.end) + "])");
    }
    ContainerListing out;
    for (auto& p : pending)
        out.tensors.push_back(std::move(p.entry));
    return out;
}

} // namespace dumpscope::detail

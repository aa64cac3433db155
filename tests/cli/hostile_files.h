#pragma once
// Byte-level writers of small tensor files (.npy, .npz / zip, safetensors, torch.save), for the
// hostile-file generator: each writes a valid file from its parts, so that a test can make any
// one part lie (a length, an offset, a type, a pickle opcode) and keep the rest well formed.
#include "deflate_raw.h"

#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

namespace dumpscope::test::hostile {

inline void putLe(std::string& out, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i)
        out += static_cast<char>((v >> (8 * i)) & 0xff);
}

inline void setLe(std::string& out, std::size_t at, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i)
        out[at + static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xff);
}

// Little-endian float32 elements 1.5, 2.5, ... (none of their bytes is JSON text).
inline std::string floats(std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n; ++i) {
        const float f = 1.5f + static_cast<float>(i);
        std::uint32_t bits = 0;
        static_assert(sizeof bits == sizeof f);
        __builtin_memcpy(&bits, &f, sizeof f);
        putLe(out, bits, 4);
    }
    return out;
}

// A version 1.0 .npy: the dictionary literal as given, padded as numpy pads it.
inline std::string npyWithDict(std::string dict, const std::string& data) {
    dict += ' ';
    while ((10 + dict.size() + 1) % 64 != 0)
        dict += ' ';
    dict += '\n';
    std::string out("\x93NUMPY\x01\x00", 8);
    putLe(out, dict.size(), 2);
    return out + dict + data;
}

inline std::string npy(const std::string& descr, const std::string& shape,
                       const std::string& data) {
    return npyWithDict(
        "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }", data);
}

struct ZipEntry {
    std::string name;
    std::string data; // uncompressed
    bool deflated = false;
};

// Where each part of a written zip lies, for a test that makes one of them lie.
struct ZipLayout {
    std::vector<std::size_t> localHeaders, centralEntries;
    std::size_t centralStart = 0, endRecord = 0;
};

inline std::string zip(const std::vector<ZipEntry>& entries, ZipLayout* layout = nullptr) {
    std::string out, central;
    ZipLayout at;
    for (const ZipEntry& e : entries) {
        const std::string stored = e.deflated ? deflateRaw(e.data, 9) : e.data;
        const auto crc = crc32(0, reinterpret_cast<const Bytef*>(e.data.data()),
                               static_cast<uInt>(e.data.size()));
        const std::size_t local = out.size();
        at.localHeaders.push_back(local);
        auto common = [&](std::string& s) {
            putLe(s, 20, 2);                 // version needed
            putLe(s, 0, 2);                  // flags
            putLe(s, e.deflated ? 8 : 0, 2); // method
            putLe(s, 0, 4);                  // time, date
            putLe(s, crc, 4);
            putLe(s, stored.size(), 4);
            putLe(s, e.data.size(), 4);
            putLe(s, e.name.size(), 2);
            putLe(s, 0, 2); // extra
        };
        out += std::string("PK\x03\x04", 4);
        common(out);
        out += e.name + stored;
        at.centralEntries.push_back(central.size());
        central += std::string("PK\x01\x02", 4);
        putLe(central, 20, 2); // version made by
        common(central);
        putLe(central, 0, 2); // comment
        putLe(central, 0, 4); // disk, internal attributes
        putLe(central, 0, 4); // external attributes
        putLe(central, local, 4);
        central += e.name;
    }
    at.centralStart = out.size();
    for (std::size_t& c : at.centralEntries)
        c += at.centralStart;
    out += central;
    at.endRecord = out.size();
    out += std::string("PK\x05\x06", 4);
    putLe(out, 0, 4);
    putLe(out, entries.size(), 2);
    putLe(out, entries.size(), 2);
    putLe(out, central.size(), 4);
    putLe(out, at.centralStart, 4);
    putLe(out, 0, 2);
    if (layout) *layout = at;
    return out;
}

inline std::string safetensors(const std::string& header, const std::string& data) {
    std::string out;
    putLe(out, header.size(), 8);
    return out + header + data;
}

// Pickle pieces, protocol 2, as torch.save writes them.
namespace pkl {
inline std::string text(const std::string& s) {
    std::string out = "X";
    putLe(out, s.size(), 4);
    return out + s;
}
inline std::string integer(std::int64_t v) { // LONG1, 8 bytes, two's complement
    std::string out = "\x8a\x08";
    putLe(out, static_cast<std::uint64_t>(v), 8);
    return out;
}
inline std::string global(const std::string& module, const std::string& name) {
    return "c" + module + "\n" + name + "\n";
}
inline std::string tuple(const std::vector<std::int64_t>& values) {
    std::string out = "(";
    for (const auto v : values)
        out += integer(v);
    return out + "t";
}
// _rebuild_tensor_v2 of a FloatStorage keyed `key` of `storageElements` elements.
inline std::string tensor(const std::string& key, std::int64_t storageElements, std::int64_t offset,
                          const std::vector<std::int64_t>& size,
                          const std::vector<std::int64_t>& stride,
                          const std::string& storageType = "FloatStorage") {
    return global("torch._utils", "_rebuild_tensor_v2") + "((" + text("storage") +
           global("torch", storageType) + text(key) + text("cpu") + integer(storageElements) +
           "tQ" + integer(offset) + tuple(size) + tuple(stride) + "\x89" +
           global("collections", "OrderedDict") + ")RtR";
}
// {name: object}, the whole pickle.
inline std::string dictOf(const std::string& name, const std::string& object) {
    return std::string("\x80\x02}", 3) + text(name) + object + "s.";
}
} // namespace pkl

// A torch.save archive: archive/data.pkl, then each storage as archive/data/<key>.
inline std::string torchSave(const std::string& pickle,
                             const std::vector<std::pair<std::string, std::string>>& storages,
                             ZipLayout* layout = nullptr) {
    std::vector<ZipEntry> entries{{"archive/data.pkl", pickle, false}};
    for (const auto& [key, bytes] : storages)
        entries.push_back({"archive/data/" + key, bytes, false});
    entries.push_back({"archive/version", "3\n", false});
    return zip(entries, layout);
}

} // namespace dumpscope::test::hostile

#pragma once
// The hostile-file generator's cases: per format, a valid file and every way the generator makes
// it lie. Each case is a file name in a run and two contents: the valid one (run A) and the
// hostile one (run B, or both runs). Every hostile content is one a reader must refuse.
#include "hostile_files.h"

#include <string>
#include <vector>

namespace dumpscope::test::hostile {

struct Case {
    std::string label;
    std::string file; // relative to the run: "step_1.npz", "step_1_x.bin"
    std::string good, bad;
};

// A cut at every byte of [from, to) and at the given extra points.
inline void truncations(std::vector<Case>& out, const std::string& label, const std::string& file,
                        const std::string& good, std::size_t from, std::size_t to,
                        const std::vector<std::size_t>& extra = {}) {
    std::vector<std::size_t> cuts;
    for (std::size_t i = from; i < to && i < good.size(); ++i)
        cuts.push_back(i);
    for (const std::size_t i : extra)
        if (i < good.size() && (i < from || i >= to)) cuts.push_back(i);
    for (const std::size_t i : cuts)
        out.push_back({label + " cut at byte " + std::to_string(i), file, good, good.substr(0, i)});
}

inline std::vector<Case> npyCases(const std::string& file) {
    std::vector<Case> out;
    const std::string data = floats(4), good = npy("<f4", "(4,)", data);
    const std::size_t header = good.size() - data.size();
    truncations(out, "npy", file, good, 0, header, {header + 1, header + 7, good.size() - 1});
    // Too short cuts the dictionary; one byte too long takes a data byte (0) into it.
    for (const std::uint64_t length : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{50},
                                       header - 9, std::uint64_t{0xffff}}) {
        std::string bad = good;
        setLe(bad, 8, length, 2);
        out.push_back({"npy header length " + std::to_string(length), file, good, bad});
    }
    for (const char* descr : {"<f5", ">f4", ">i8", "|O", "<U2", "|S3", "<M8[ns]", "", "<f4<f4"})
        out.push_back({std::string("npy dtype ") + descr, file, good, npy(descr, "(4,)", data)});
    const std::string dicts[] = {
        "{'descr': '<f4', 'fortran_order': False, 'shape': (-4,), }",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)",
        "{'descr': '<f4', 'descr': '<i4', 'fortran_order': False, 'shape': (4,), }",
        "{'descr': '<f4', 'fortran_order': False, 'shape': " + std::string(300, '(') + "4" +
            std::string(300, ')') + ", }",
        "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (4,), }",
        "{'descr': '<f4', 'fortran_order': __import__('os'), 'shape': (4,), }",
    };
    for (const std::string& d : dicts)
        out.push_back({"npy dict " + d.substr(0, 60), file, good, npyWithDict(d, data)});
    std::string version = good;
    version[6] = 9;
    out.push_back({"npy version 9", file, good, version});
    return out;
}

inline std::vector<Case> safetensorsCases() {
    std::vector<Case> out;
    const std::string file = "step_1.safetensors";
    const std::string x = R"("x":{"dtype":"F32","shape":[4],"data_offsets":[0,16]})";
    const std::string data = floats(4), header = "{" + x + "}";
    const std::string good = safetensors(header, data);
    truncations(out, "safetensors", file, good, 0, 8 + header.size(), {8 + header.size() + 5});
    for (const std::uint64_t n : {std::uint64_t{0}, std::uint64_t{1}, header.size() - 1,
                                  header.size() + 1, ~std::uint64_t{0}, std::uint64_t{1} << 63}) {
        std::string bad = good;
        setLe(bad, 0, n, 8);
        out.push_back({"safetensors length " + std::to_string(n), file, good, bad});
    }
    const std::string headers[] = {
        R"({"x":{"dtype":"F5","shape":[4],"data_offsets":[0,16]}})",
        R"({"x":{"dtype":"F32","shape":[4],"data_offsets":[0,17]}})",
        R"({"x":{"dtype":"F32","shape":[4],"data_offsets":[0,12]}})",
        R"({"x":{"dtype":"F32","shape":[4],"data_offsets":[16,0]}})",
        R"({"x":{"dtype":"F32","shape":[4],"data_offsets":[-1,15]}})",
        R"({"x":{"dtype":"F32","shape":[4],"data_offsets":[0,18446744073709551615]}})",
        R"({"x":{"dtype":"F32","shape":[-4],"data_offsets":[0,16]}})",
        R"({"x":{"dtype":"F32","shape":[4611686018427387904,4],"data_offsets":[0,16]}})",
        R"({"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"y":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
        R"({"x":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},"x":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})",
        R"({"x":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},"__metadata__":{"a":[1]}})",
        R"({"x":)" + std::string(5000, '[') + std::string(5000, ']') + "}",
        R"(["x"])",
    };
    for (const std::string& h : headers)
        out.push_back({"safetensors header " + h.substr(0, 70), file, good, safetensors(h, data)});
    return out;
}

inline std::vector<Case> npzCases(bool deflated) {
    std::vector<Case> out;
    const std::string file = "step_1.npz", label = deflated ? "npz deflated" : "npz";
    const std::string member = npy("<f4", "(4,)", floats(4));
    ZipLayout at;
    const std::string good = zip({{"x.npy", member, deflated}, {"y.npy", member, deflated}}, &at);
    truncations(out, label, file, good, at.centralStart, good.size(),
                {0, 4, 20, 29, 31, 40, at.localHeaders[1] + 3, at.centralStart - 1});
    auto lie = [&](const std::string& what, std::size_t where, std::uint64_t value, int bytes) {
        std::string bad = good;
        setLe(bad, where, value, bytes);
        out.push_back({label + " " + what, file, good, bad});
    };
    const std::size_t c0 = at.centralEntries[0], c1 = at.centralEntries[1];
    for (const std::uint64_t v : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{0xffffffff}}) {
        lie("compressed size " + std::to_string(v), c0 + 20, v, 4);
        lie("size " + std::to_string(v), c0 + 24, v, 4);
        lie("local header offset " + std::to_string(v), c1 + 42, v, 4);
        lie("central directory offset " + std::to_string(v), at.endRecord + 16, v, 4);
        lie("name length " + std::to_string(v & 0xffff), c0 + 28, v & 0xffff, 2);
    }
    lie("local header offset onto the first member", c1 + 42, 0, 4);
    lie("crc", c0 + 16, 0x12345678, 4);
    lie("method 12", c0 + 10, 12, 2);
    lie("encrypted", c0 + 8, 1, 2);
    lie("member count", at.endRecord + 10, 3, 2);
    // Data corrupted inside the first member, past the local header and its name.
    for (const std::size_t byte : {std::size_t{40}, std::size_t{60}, at.localHeaders[1] - 2}) {
        std::string bad = good;
        bad[byte] = static_cast<char>(bad[byte] ^ 0x5a);
        out.push_back({label + " data byte " + std::to_string(byte) + " flipped", file, good, bad});
    }
    out.push_back({label + " duplicate member", file, good,
                   zip({{"x.npy", member, deflated},
                        {"y.npy", member, deflated},
                        {"x.npy", member, deflated}})});
    out.push_back({label + " member not .npy", file, good,
                   zip({{"x.npy", member, deflated},
                        {"y.npy", member, deflated},
                        {"z.txt", "hello", deflated}})});
    out.push_back({label + " object array member", file, good,
                   zip({{"x.npy", member, deflated}, {"y.npy", npy("|O", "(4,)", ""), deflated}})});
    // A member whose header claims far more elements than its data holds.
    const std::string claims = npy("<f4", "(100000000,)", floats(4));
    ZipLayout bombAt;
    std::string bomb = zip({{"x.npy", member, deflated}, {"y.npy", claims, deflated}}, &bombAt);
    setLe(bomb, bombAt.centralEntries[1] + 24, 400000000 + 128, 4);
    setLe(bomb, bombAt.localHeaders[1] + 22, 400000000 + 128, 4);
    out.push_back({label + " member claims 400 MB", file, good, bomb});
    return out;
}

inline std::vector<Case> torchCases(const std::string& file) {
    std::vector<Case> out;
    const std::string data = floats(4);
    const std::string pickle = pkl::dictOf("x", pkl::tensor("0", 4, 0, {4}, {1}));
    ZipLayout at;
    const std::string good = torchSave(pickle, {{"0", data}}, &at);
    truncations(out, "torch", file, good, at.centralStart, good.size(),
                {0, 10, 31, 50, at.localHeaders[1] - 1, at.localHeaders[1] + 40});
    auto withPickle = [&](const std::string& what, const std::string& p) {
        out.push_back({"torch " + what, file, good, torchSave(p, {{"0", data}})});
    };
    for (const auto& [module, name] :
         std::vector<std::pair<std::string, std::string>>{{"os", "system"},
                                                          {"posix", "system"},
                                                          {"builtins", "eval"},
                                                          {"__builtin__", "eval"},
                                                          {"subprocess", "Popen"},
                                                          {"torch._utils", "_rebuild_qtensor"},
                                                          {"torch._utils", "_rebuild_from_type_v2"},
                                                          {"torch", "load"}})
        withPickle("global " + module + "." + name, std::string("\x80\x02", 2) +
                                                        pkl::global(module, name) +
                                                        pkl::text("id") + "\x85R.");
    withPickle("REDUCE of a storage type",
               std::string("\x80\x02", 2) + pkl::global("torch", "FloatStorage") + ")R.");
    withPickle("INST", "\x80\x02(ios\nsystem\n.");
    withPickle("OBJ", std::string("\x80\x02(", 3) + pkl::global("os", "system") + "o.");
    withPickle("PERSID", "\x80\x02P0\n.");
    withPickle("EXT1", "\x80\x02\x82\x01.");
    withPickle("protocol 0", "(lp0\nI1\na.");
    withPickle("BUILD on a tensor",
               std::string("\x80\x02", 2) + pkl::tensor("0", 4, 0, {4}, {1}) + "}b.");
    withPickle("deep nesting", std::string("\x80\x02", 2) + std::string(300, '(') + ")" +
                                   std::string(300, 't') + ".");
    withPickle("objects left on the stack",
               std::string("\x80\x02", 2) + std::string(3, ']') + pickle.substr(2));
    withPickle("deep marks", std::string("\x80\x02", 2) + std::string(300, '(') + ".");
    withPickle("no STOP", pickle.substr(0, pickle.size() - 1));
    withPickle("view past its storage", pkl::dictOf("x", pkl::tensor("0", 4, 0, {100}, {1})));
    withPickle("offset past its storage", pkl::dictOf("x", pkl::tensor("0", 4, 9, {4}, {1})));
    withPickle("negative stride", pkl::dictOf("x", pkl::tensor("0", 4, 3, {4}, {-1})));
    withPickle("negative size", pkl::dictOf("x", pkl::tensor("0", 4, 0, {-4}, {1})));
    withPickle("negative offset", pkl::dictOf("x", pkl::tensor("0", 4, -1, {4}, {1})));
    withPickle("stride 0 over 2^40 elements",
               pkl::dictOf("x", pkl::tensor("0", 4, 0, {std::int64_t{1} << 40}, {0})));
    withPickle("missing storage", pkl::dictOf("x", pkl::tensor("7", 4, 0, {4}, {1})));
    withPickle("unknown storage type",
               pkl::dictOf("x", pkl::tensor("0", 4, 0, {4}, {1}, "PickleStorage")));
    out.push_back({"torch byteorder big", file, good,
                   zip({{"archive/data.pkl", pickle, false},
                        {"archive/byteorder", "big", false},
                        {"archive/data/0", data, false}})});
    out.push_back({"torch without data.pkl", file, good, zip({{"archive/data/0", data, false}})});
    out.push_back(
        {"torch legacy", file, good,
         std::string("\x80\x02\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19", 14) + "garbage"});
    return out;
}

inline std::vector<Case> allCases() {
    std::vector<Case> all;
    for (auto part : {npyCases("step_1_x.npy"), safetensorsCases(), npzCases(false), npzCases(true),
                      torchCases("step_1.pt"),
                      // Claimed by their magic under a raw dump's name.
                      npyCases("step_1_x.bin"), torchCases("step_1_x.bin")})
        all.insert(all.end(), part.begin(), part.end());
    return all;
}

} // namespace dumpscope::test::hostile

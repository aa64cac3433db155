// The restricted unpickler on the data.pkl of real torch.save files (the fuzzer's seeds, written
// by tests/data/formats/write_torch.py) and on hostile pickles built here opcode by opcode.
#include "formats/pickle_opcodes.h"
#include "formats/pickle_reader.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <string>

using namespace dumpscope::detail;
using namespace std::string_literals;
using namespace dumpscope::detail::pickle_op;
using dumpscope::test::readFile;
using dumpscope::test::testDataDir;

namespace {

std::string seed(const std::string& name) {
    const std::string bytes = readFile(testDataDir() / ".." / "fuzz" / "corpus" / "pickle" / name);
    EXPECT_FALSE(bytes.empty()) << name;
    return bytes;
}

// A protocol-2 pickle: PROTO 2, then `body` (which ends with its own STOP).
std::string pickle2(const std::string& body) {
    return std::string{static_cast<char>(kProto), 2} + body;
}
std::string op(Opcode code) {
    return std::string(1, static_cast<char>(code));
}
std::string global(const std::string& module, const std::string& name) {
    return op(kGlobal) + module + "\n" + name + "\n";
}

const PickleObject& at(const Pickle& p, std::size_t id) {
    return p.objects[id];
}

// The dict's (key, value id) pairs, keys being strings.
std::vector<std::pair<std::string, std::size_t>> dictItems(const Pickle& p, std::size_t id) {
    std::vector<std::pair<std::string, std::size_t>> out;
    const PickleObject& d = at(p, id);
    EXPECT_EQ(d.kind, PickleKind::dict);
    for (std::size_t i = 0; i + 1 < d.items.size(); i += 2) {
        EXPECT_EQ(at(p, d.items[i]).kind, PickleKind::text);
        out.emplace_back(p.strings[at(p, d.items[i]).index], d.items[i + 1]);
    }
    return out;
}

const PickleTensor& tensorAt(const Pickle& p, std::size_t id) {
    EXPECT_EQ(at(p, id).kind, PickleKind::tensor);
    return p.tensors[at(p, id).index];
}

// The error must name the source and the byte of the opcode at fault, and say `what`.
void expectRefused(const std::string& bytes, std::size_t byte, const std::string& what) {
    const Pickle p = readPickle(bytes, "run/x.pt: x/data.pkl");
    EXPECT_EQ(p.error.rfind("run/x.pt: x/data.pkl byte " + std::to_string(byte) + ": ", 0), 0)
        << p.error;
    EXPECT_NE(p.error.find(what), std::string::npos) << p.error;
    EXPECT_TRUE(p.objects.empty());
}

} // namespace

TEST(PickleReader, StateDictOfRealTorchSave) {
    const Pickle p = readPickle(seed("state_dict.pkl"), "state_dict.pt: data.pkl");
    ASSERT_EQ(p.error, "");
    const auto items = dictItems(p, p.root);
    ASSERT_EQ(items.size(), 4u);
    const char* keys[] = {"0.weight", "0.bias", "2.weight", "2.bias"};
    const std::vector<std::vector<std::uint64_t>> sizes = {{3, 4}, {3}, {2, 3}, {2}};
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(items[i].first, keys[i]);
        const PickleTensor& t = tensorAt(p, items[i].second);
        EXPECT_EQ(t.size, sizes[i]);
        EXPECT_EQ(t.storageOffset, 0u);
        const PickleStorage& s = p.storages[t.storage];
        EXPECT_EQ(s.type, "FloatStorage");
        EXPECT_EQ(s.key, std::to_string(i));
        EXPECT_EQ(s.location, "cpu");
    }
}

TEST(PickleReader, ViewsKeepTheirOffsetsAndStrides) {
    const Pickle p = readPickle(seed("views.pkl"), "views.pt: data.pkl");
    ASSERT_EQ(p.error, "");
    const auto items = dictItems(p, p.root);
    ASSERT_EQ(items.size(), 6u);
    struct View {
        const char* key;
        std::uint64_t offset;
        std::vector<std::uint64_t> size, stride;
    };
    // big = arange(60).reshape(6, 10): the views torch.save wrote, as torch describes them.
    const View views[] = {{"slice", 10, {10}, {1}},
                          {"t", 0, {10, 6}, {1, 10}},
                          {"every_other", 0, {6, 5}, {10, 2}},
                          {"row", 20, {10}, {1}},
                          {"block", 12, {3, 3}, {10, 1}},
                          {"column", 7, {6, 1}, {10, 1}}};
    for (std::size_t i = 0; i < 6; ++i) {
        SCOPED_TRACE(views[i].key);
        EXPECT_EQ(items[i].first, views[i].key);
        const PickleTensor& t = tensorAt(p, items[i].second);
        EXPECT_EQ(t.storageOffset, views[i].offset);
        EXPECT_EQ(t.size, views[i].size);
        EXPECT_EQ(t.stride, views[i].stride);
        EXPECT_EQ(p.storages[t.storage].key, "0"); // one storage for all six
        EXPECT_EQ(p.storages[t.storage].numel, 60u);
    }
}

TEST(PickleReader, NestedContainersParametersAndProtocol4) {
    const Pickle nested = readPickle(seed("nested.pkl"), "nested.pt: data.pkl");
    ASSERT_EQ(nested.error, "");
    const auto top = dictItems(nested, nested.root);
    ASSERT_EQ(top.size(), 3u);
    EXPECT_EQ(top[1].first, "grads");
    EXPECT_EQ(at(nested, top[1].second).kind, PickleKind::list);
    EXPECT_EQ(at(nested, top[1].second).items.size(), 2u);
    EXPECT_EQ(at(nested, top[2].second).kind, PickleKind::tuple); // meta: (1, "a", 2.5)
    const auto& meta = at(nested, top[2].second).items;
    ASSERT_EQ(meta.size(), 3u);
    EXPECT_EQ(at(nested, meta[0]).integer, 1);
    EXPECT_EQ(at(nested, meta[2]).number, 2.5);

    // nn.Parameter pickles through _rebuild_parameter: it is its tensor.
    const Pickle param = readPickle(seed("parameter.pkl"), "parameter.pt: data.pkl");
    ASSERT_EQ(param.error, "");
    const auto w = dictItems(param, param.root);
    ASSERT_EQ(w.size(), 2u);
    EXPECT_EQ(tensorAt(param, w[0].second).size, (std::vector<std::uint64_t>{2, 2}));
    EXPECT_EQ(at(param, w[1].second).integer, 7);

    // FRAME, MEMOIZE, SHORT_BINUNICODE and STACK_GLOBAL, as protocol 4 writes them.
    const Pickle p4 = readPickle(seed("protocol4.pkl"), "protocol4.pt: data.pkl");
    ASSERT_EQ(p4.error, "");
    const auto items = dictItems(p4, p4.root);
    ASSERT_EQ(items.size(), 2u);
    EXPECT_EQ(p4.storages[tensorAt(p4, items[0].second).storage].type, "ShortStorage");
    const auto& b = at(p4, items[1].second).items;
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(p4.storages[tensorAt(p4, b[0]).storage].type, "DoubleStorage");
}

TEST(PickleReader, RefusesGlobalsByName) {
    expectRefused(pickle2(global("os", "system") + "X\x04\0\0\0true\x85R."s), 2,
                  "refuses global os.system: not something torch.save writes for tensors");
    expectRefused(pickle2(global("builtins", "eval") + "."), 2, "refuses global builtins.eval");
    expectRefused(pickle2("}(X\x01\0\0\0p"s + global("subprocess", "Popen") + "u."), 10,
                  "refuses global subprocess.Popen");
    // STACK_GLOBAL is checked the same way.
    expectRefused(pickle2("\x8c\x02os\x8c\x06system\x93."), 14, "refuses global os.system");
    // Real torch.save files that hold a non-tensor global: the global is named (protocol 2
    // spells builtins __builtin__).
    EXPECT_NE(
        readPickle(seed("refused_eval.pkl"), "e").error.find("refuses global __builtin__.eval"),
        std::string::npos);
    EXPECT_NE(readPickle(seed("refused_counter.pkl"), "c")
                  .error.find("refuses global collections.Counter"),
              std::string::npos);
    EXPECT_NE(readPickle(seed("refused_reduce.pkl"), "r").error.find("refuses global posix.system"),
              std::string::npos);
    EXPECT_NE(readPickle(seed("script.pkl"), "s").error.find("refuses global __torch__."),
              std::string::npos);
}

TEST(PickleReader, RefusesReduceOnAnythingButTorchsRebuilders) {
    // An allowed global that torch.save never calls.
    expectRefused(pickle2(global("torch", "FloatStorage") + ")R."), 23,
                  "REDUCE calls torch.FloatStorage, which torch.save never calls");
    expectRefused(pickle2(global("torch", "float32") + ")R."), 18, "REDUCE calls torch.float32");
    // Something that is not a global at all.
    expectRefused(pickle2("))R."), 4, "REDUCE calls a tuple");
    // OrderedDict is made, never called with arguments.
    expectRefused(pickle2(global("collections", "OrderedDict") + "]\x85R."), 29,
                  "makes an OrderedDict from arguments");
    // _rebuild_tensor_v2 of something that is not a storage.
    expectRefused(pickle2(global("torch._utils", "_rebuild_tensor_v2") + "(NK\0))\x89}t"s + "R."),
                  44, "_rebuild_tensor_v2 of None, not a storage");
    // A persistent id that is not torch's storage tuple.
    expectRefused(pickle2("X\x03\0\0\0abcQ."s), 10, "a persistent id that is not ('storage'");
    // BUILD with a state torch.save never sets.
    expectRefused(pickle2("]}X\x01\0\0\0aK\x01sb."s), 13, "BUILD sets a state on a list");
}

TEST(PickleReader, EveryTruncationIsAnErrorAtItsByte) {
    const std::string whole = seed("dict.pkl");
    ASSERT_EQ(readPickle(whole, "dict").error, "");
    for (std::size_t n = 0; n < whole.size(); ++n) {
        const Pickle p = readPickle(whole.substr(0, n), "run/dict.pt: dict/data.pkl");
        ASSERT_EQ(p.error.rfind("run/dict.pt: dict/data.pkl byte ", 0), 0) << n << ": " << p.error;
        // The byte named lies inside the bytes given.
        const std::size_t byte = std::stoul(p.error.substr(32));
        EXPECT_LE(byte, n) << p.error;
    }
    expectRefused(pickle2("X\xff\xff\xff\xff"
                          "abc."),
                  2, "BINUNICODE of 4294967295 bytes, but only 4 follow");
    expectRefused(pickle2("N"), 3, "the pickle ends without a STOP");
    expectRefused(pickle2("\x95\0\0\0\0\0\0\0\x01N."s), 2, "a FRAME of 72057594037927936 bytes");
}

TEST(PickleReader, NestingIsCapped) {
    // 300 tuples, each holding the one before: refused at the 257th.
    std::string deep = ")";
    for (int i = 0; i < 300; ++i)
        deep += "\x85";
    expectRefused(pickle2(deep + "."), 2 + kMaxPickleDepth,
                  "containers nest deeper than 256 levels");
    // Lists appended into one another.
    std::string lists = "]";
    for (int i = 0; i < 300; ++i)
        lists += "]";
    for (int i = 0; i < 300; ++i)
        lists += "a";
    expectRefused(pickle2(lists + "."), 2 + 301 + 255, "containers nest deeper than 256 levels");
    // MARKs left open.
    expectRefused(pickle2(std::string(300, '(') + "."), 2 + kMaxPickleDepth,
                  "MARKs nest deeper than 256 levels");
    // 256 levels are fine.
    std::string ok = ")";
    for (std::size_t i = 1; i < kMaxPickleDepth; ++i)
        ok += "\x85";
    EXPECT_EQ(readPickle(pickle2(ok + "."), "ok").error, "");
}

TEST(PickleReader, MemoAndStackAreChecked) {
    expectRefused(pickle2("h\x05."), 2, "BINGET reads memo entry 5, which nothing put there");
    expectRefused(pickle2("Nq\x00j\x01\0\0\0."s), 5, "LONG_BINGET reads memo entry 1");
    expectRefused(pickle2("q\x00."s), 2, "stack underflow: BINPUT finds no value");
    expectRefused(pickle2("\x85."), 2, "stack underflow: TUPLE finds no value to take");
    expectRefused(pickle2("Na."), 3, "stack underflow: APPEND finds no value");
    expectRefused(pickle2("."), 2, "stack underflow: STOP finds no value to take");
    // A MARK fences the stack: SETITEMS cannot take what lies below it.
    expectRefused(pickle2("N(\x85."), 4, "stack underflow: TUPLE finds no value to take");
    expectRefused(pickle2("}N(u."), 5, "SETITEMS adds to None, not a dict");
    expectRefused(pickle2("}(Nu."), 5, "SETITEMS with a key but no value");
    expectRefused(pickle2("Ne."), 3, "APPENDS without a MARK before it");
    expectRefused(pickle2("K\x00K\x01K\x02s."s), 8, "SETITEM adds to an int, not a dict");
}

TEST(PickleReader, OtherOpcodesAndProtocolsAreRefused) {
    expectRefused(pickle2("i os\nsystem\n."), 2, "opcode 0x69 is not one torch.save writes");
    expectRefused(std::string("\x80\x06N."), 0, "pickle protocol 6: only 2 to 5 are read");
    expectRefused(std::string("(lp0\n."), 1, "opcode 0x6c");
    expectRefused(pickle2("P1\n."), 2, "opcode 0x50");
    // A negative BINSTRING length.
    expectRefused(pickle2("T\xff\xff\xff\xff."), 2, "BINSTRING with a negative length");
}

TEST(PickleReader, NumbersAsPythonWritesThem) {
    // BININT -2, BININT2 65535, LONG1 -129 and 2^63 - 1, a LONG1 wider than 64 bits, BINFLOAT.
    const std::string body = "(J\xfe\xff\xff\xffM\xff\xff\x8a\x02\x7f\xfe"
                             "\x8a\x08\xff\xff\xff\xff\xff\xff\xff\x7f\x8a\x09"
                             "\0\0\0\0\0\0\0\0\x01G\xc0\x04\0\0\0\0\0\0t."s;
    const Pickle p = readPickle(pickle2(body), "n");
    ASSERT_EQ(p.error, "");
    const auto& items = at(p, p.root).items;
    ASSERT_EQ(items.size(), 6u);
    EXPECT_EQ(at(p, items[0]).integer, -2);
    EXPECT_EQ(at(p, items[1]).integer, 65535);
    EXPECT_EQ(at(p, items[2]).integer, -385);
    EXPECT_EQ(at(p, items[3]).integer, INT64_MAX);
    EXPECT_EQ(at(p, items[4]).kind, PickleKind::bigInteger);
    EXPECT_EQ(at(p, items[5]).number, -2.5);
}

TEST(PickleReader, SizeIsCapped) {
    const std::string huge(kMaxPickleBytes + 1, 'N');
    expectRefused(huge, 0, "a pickle of 67108865 bytes, over the 67108864 read");
    // DUP and the memo push old values again for a byte each: the stack is capped...
    const std::string dups = "(N" + std::string(kMaxPickleObjects, '2') + "t.";
    EXPECT_NE(readPickle(pickle2(dups), "dup").error.find("the stack holds over 4194304 values"),
              std::string::npos);
    // ... and so are the values all containers hold together.
    std::string tuples;
    for (std::size_t i = 0; i <= kMaxPickleObjects / 1000; ++i)
        tuples += "(N" + std::string(999, '2') + "t0";
    EXPECT_NE(readPickle(pickle2(tuples + "N."), "tuples")
                  .error.find("containers hold more than 4194304 values"),
              std::string::npos);
}

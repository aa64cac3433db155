#include "formats/pickle_reader.h"

#include "formats/pickle_opcodes.h"
#include "formats/pickle_torch.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <unordered_map>
#include <utility>

namespace dumpscope::detail {

namespace {

using namespace pickle_op;

std::uint64_t loadLe(const unsigned char* p, std::size_t n) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i)
        v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
    return v;
}

class Unpickler {
  public:
    Unpickler(std::string_view bytes, std::string_view source, Pickle& out)
        : m_bytes(bytes), m_source(source), m_out(out) {}

    void run() {
        if (m_bytes.size() > kMaxPickleBytes) {
            fail("a pickle of " + std::to_string(m_bytes.size()) + " bytes, over the " +
                 std::to_string(kMaxPickleBytes) + " read");
            return;
        }
        while (m_pos < m_bytes.size()) {
            m_opByte = m_pos;
            const auto code = static_cast<unsigned char>(m_bytes[m_pos++]);
            if (code == kStop) {
                std::size_t root = 0;
                if (!pop(root, "STOP")) return;
                // torch.save pickles one object: anything else left is not its pickle.
                if (!m_stack.empty() || !m_marks.empty()) {
                    fail("STOP leaves " + std::to_string(m_stack.size()) + " object(s) and " +
                         std::to_string(m_marks.size()) + " MARK(s) besides the saved one");
                    return;
                }
                m_out.root = root;
                return;
            }
            if (!step(code)) return;
        }
        m_opByte = m_bytes.size();
        fail("the pickle ends without a STOP");
    }

  private:
    bool fail(const std::string& what) {
        m_out.error = std::string(m_source) + " byte " + std::to_string(m_opByte) + ": " + what;
        return false;
    }

    const PickleObject& object(std::size_t id) const { return m_out.objects[id]; }
    const std::string& text(std::size_t id) const { return m_out.strings[object(id).index]; }

    // The next n bytes of the opcode's argument.
    bool take(std::size_t n, const unsigned char*& p, const char* op) {
        if (m_bytes.size() - m_pos < n)
            return fail(std::string("the pickle ends inside ") + op + "'s argument (" +
                        std::to_string(n) + " bytes wanted, " +
                        std::to_string(m_bytes.size() - m_pos) + " left)");
        p = reinterpret_cast<const unsigned char*>(m_bytes.data()) + m_pos;
        m_pos += n;
        return true;
    }
    bool takeUnsigned(std::size_t n, std::uint64_t& v, const char* op) {
        const unsigned char* p = nullptr;
        if (!take(n, p, op)) return false;
        v = loadLe(p, n);
        return true;
    }

    std::size_t frameStart() const { return m_marks.empty() ? 0 : m_marks.back(); }

    bool push(std::size_t id) {
        if (m_stack.size() >= kMaxPickleObjects)
            return fail("the stack holds over " + std::to_string(kMaxPickleObjects) + " values");
        m_stack.push_back(id);
        return true;
    }
    bool pushNew(PickleObject obj) {
        if (m_out.objects.size() >= kMaxPickleObjects)
            return fail("more than " + std::to_string(kMaxPickleObjects) + " objects");
        if (obj.depth > kMaxPickleDepth)
            return fail("containers nest deeper than " + std::to_string(kMaxPickleDepth) +
                        " levels");
        m_out.objects.push_back(std::move(obj));
        return push(m_out.objects.size() - 1);
    }
    // None, a bool (`integer` 0 or 1), an int or a float.
    bool pushLeaf(PickleKind kind, std::int64_t integer = 0, double number = 0) {
        PickleObject obj;
        obj.kind = kind;
        obj.boolean = kind == PickleKind::boolean && integer != 0;
        obj.integer = integer;
        obj.number = number;
        return pushNew(std::move(obj));
    }
    bool pushString(PickleKind kind, std::string s) {
        PickleObject obj;
        obj.kind = kind;
        obj.index = m_out.strings.size();
        m_out.strings.push_back(std::move(s));
        return pushNew(std::move(obj));
    }

    bool pop(std::size_t& id, const char* op) {
        if (m_stack.size() <= frameStart())
            return fail(std::string("stack underflow: ") + op + " finds no value to take");
        id = m_stack.back();
        m_stack.pop_back();
        return true;
    }
    bool top(std::size_t& id, const char* op) {
        if (m_stack.size() <= frameStart())
            return fail(std::string("stack underflow: ") + op + " finds no value");
        id = m_stack.back();
        return true;
    }
    // The values pushed since the last MARK, which is dropped.
    bool popMark(std::vector<std::size_t>& items, const char* op) {
        if (m_marks.empty()) return fail(std::string(op) + " without a MARK before it");
        items.assign(m_stack.begin() + static_cast<std::ptrdiff_t>(m_marks.back()), m_stack.end());
        m_stack.resize(m_marks.back());
        m_marks.pop_back();
        return true;
    }

    std::size_t depthOf(std::size_t id) const { return object(id).depth; }

    // Containers' items, counted over the whole pickle: DUP and the memo push old values again
    // for a byte each, so the objects' count alone does not bound them.
    bool hold(std::size_t n) {
        m_held += n;
        if (m_held > kMaxPickleObjects)
            return fail("containers hold more than " + std::to_string(kMaxPickleObjects) +
                        " values");
        return true;
    }

    bool pushTuple(std::vector<std::size_t> items) {
        if (!hold(items.size())) return false;
        PickleObject obj;
        obj.kind = PickleKind::tuple;
        obj.depth = 1;
        for (std::size_t id : items)
            obj.depth = std::max(obj.depth, depthOf(id) + 1);
        obj.items = std::move(items);
        return pushNew(std::move(obj));
    }
    bool tupleOf(std::size_t n) {
        std::vector<std::size_t> items(n);
        for (std::size_t i = n; i-- > 0;)
            if (!pop(items[i], "TUPLE")) return false;
        return pushTuple(std::move(items));
    }

    // Adds `items` to the container `into`, which must be of `kind`.
    bool extend(std::size_t into, PickleKind kind, const std::vector<std::size_t>& items,
                const char* op) {
        if (object(into).kind != kind)
            return fail(std::string(op) + " adds to " + pickleKindName(object(into).kind) +
                        ", not " + pickleKindName(kind));
        if (kind == PickleKind::dict && items.size() % 2 != 0)
            return fail(std::string(op) + " with a key but no value");
        if (!hold(items.size())) return false;
        std::size_t depth = object(into).depth;
        for (std::size_t id : items)
            depth = std::max(depth, depthOf(id) + 1);
        if (depth > kMaxPickleDepth)
            return fail("containers nest deeper than " + std::to_string(kMaxPickleDepth) +
                        " levels");
        PickleObject& target = m_out.objects[into];
        target.depth = depth;
        target.items.insert(target.items.end(), items.begin(), items.end());
        return true;
    }
    bool appendTo(PickleKind kind, std::size_t values, const char* op) {
        std::vector<std::size_t> items(values);
        for (std::size_t i = values; i-- > 0;)
            if (!pop(items[i], op)) return false;
        std::size_t into = 0;
        return top(into, op) && extend(into, kind, items, op);
    }
    bool appendMarked(PickleKind kind, const char* op) {
        std::vector<std::size_t> items;
        std::size_t into = 0;
        return popMark(items, op) && top(into, op) && extend(into, kind, items, op);
    }

    bool readString(PickleKind kind, std::size_t lengthBytes, const char* op) {
        std::uint64_t n = 0;
        const unsigned char* p = nullptr;
        if (!takeUnsigned(lengthBytes, n, op)) return false;
        if (n > m_bytes.size() - m_pos)
            return fail(std::string(op) + " of " + std::to_string(n) + " bytes, but only " +
                        std::to_string(m_bytes.size() - m_pos) + " follow");
        if (!take(static_cast<std::size_t>(n), p, op)) return false;
        return pushString(kind, std::string(reinterpret_cast<const char*>(p), n));
    }

    bool line(std::string& out, const char* op) {
        const std::size_t end = m_bytes.find('\n', m_pos);
        if (end == std::string_view::npos)
            return fail(std::string("the pickle ends inside ") + op + "'s name");
        out.assign(m_bytes.substr(m_pos, end - m_pos));
        m_pos = end + 1;
        return true;
    }

    bool global(const std::string& module, const std::string& name) {
        const auto role = allowedPickleGlobal(module, name);
        if (!role)
            return fail("refuses global " + module + "." + name +
                        ": not something torch.save writes for tensors");
        PickleObject obj;
        obj.kind = PickleKind::global;
        obj.integer = static_cast<std::int64_t>(*role);
        obj.index = m_out.strings.size();
        m_out.strings.push_back(module + "." + name);
        return pushNew(std::move(obj));
    }

    bool memoPut(std::uint64_t index, const char* op) {
        std::size_t id = 0;
        if (!top(id, op)) return false;
        if (m_memo.size() >= kMaxPickleObjects && !m_memo.contains(index))
            return fail("the memo holds over " + std::to_string(kMaxPickleObjects) + " values");
        m_memo[index] = id;
        return true;
    }
    bool memoGet(std::uint64_t index, const char* op) {
        const auto it = m_memo.find(index);
        if (it == m_memo.end())
            return fail(std::string(op) + " reads memo entry " + std::to_string(index) +
                        ", which nothing put there");
        return push(it->second);
    }

    bool step(unsigned char code);
    bool long1();
    bool pushMade(PickleMade made) {
        if (!made.error.empty()) return fail(made.error);
        if (made.existing) return push(*made.existing);
        return pushNew(std::move(made.object));
    }
    bool reduce(bool newObject) {
        const char* op = newObject ? "NEWOBJ" : "REDUCE";
        std::size_t args = 0, fn = 0;
        return pop(args, op) && pop(fn, op) &&
               pushMade(pickleReduce(m_out, fn, args, newObject, m_opByte));
    }
    bool persistentId() {
        std::size_t pid = 0;
        return pop(pid, "BINPERSID") && pushMade(picklePersistentId(m_out, pid));
    }
    bool build() {
        std::size_t state = 0, target = 0;
        if (!pop(state, "BUILD") || !top(target, "BUILD")) return false;
        const std::string why = pickleBuild(m_out, target, state);
        return why.empty() || fail(why);
    }

    std::string_view m_bytes;
    std::string_view m_source;
    Pickle& m_out;
    std::size_t m_pos = 0;
    std::size_t m_opByte = 0;
    std::size_t m_held = 0;
    std::vector<std::size_t> m_stack;
    std::vector<std::size_t> m_marks; // where each open MARK's values start on m_stack
    std::unordered_map<std::uint64_t, std::size_t> m_memo;
};

bool Unpickler::step(unsigned char code) {
    std::uint64_t v = 0;
    const unsigned char* p = nullptr;
    switch (code) {
    case kProto:
        if (!takeUnsigned(1, v, "PROTO")) return false;
        if (v < 2 || v > 5)
            return fail("pickle protocol " + std::to_string(v) + ": only 2 to 5 are read");
        return true;
    case kFrame: // frames only batch the reads of the opcodes inside them
        if (!takeUnsigned(8, v, "FRAME")) return false;
        if (v > m_bytes.size() - m_pos)
            return fail("a FRAME of " + std::to_string(v) + " bytes, but only " +
                        std::to_string(m_bytes.size() - m_pos) + " follow");
        return true;
    case kMark:
        if (m_marks.size() >= kMaxPickleDepth)
            return fail("MARKs nest deeper than " + std::to_string(kMaxPickleDepth) + " levels");
        m_marks.push_back(m_stack.size());
        return true;
    case kPop:
        if (m_stack.size() > frameStart()) {
            m_stack.pop_back();
            return true;
        }
        if (m_marks.empty()) return fail("stack underflow: POP finds no value to take");
        m_marks.pop_back();
        return true;
    case kPopMark: {
        std::vector<std::size_t> dropped;
        return popMark(dropped, "POP_MARK");
    }
    case kDup: {
        std::size_t id = 0;
        return top(id, "DUP") && push(id);
    }
    case kNone:
        return pushLeaf(PickleKind::none);
    case kNewTrue:
    case kNewFalse:
        return pushLeaf(PickleKind::boolean, code == kNewTrue ? 1 : 0);
    case kBinInt:
        return takeUnsigned(4, v, "BININT") &&
               pushLeaf(PickleKind::integer,
                        static_cast<std::int32_t>(static_cast<std::uint32_t>(v)));
    case kBinInt1:
        return takeUnsigned(1, v, "BININT1") &&
               pushLeaf(PickleKind::integer, static_cast<std::int64_t>(v));
    case kBinInt2:
        return takeUnsigned(2, v, "BININT2") &&
               pushLeaf(PickleKind::integer, static_cast<std::int64_t>(v));
    case kLong1:
        return long1();
    case kBinFloat: {
        if (!take(8, p, "BINFLOAT")) return false;
        std::uint64_t bits = 0; // big-endian, unlike every other number in a pickle
        for (int i = 0; i < 8; ++i)
            bits = (bits << 8) | p[i];
        return pushLeaf(PickleKind::floating, 0, std::bit_cast<double>(bits));
    }
    case kBinUnicode:
        return readString(PickleKind::text, 4, "BINUNICODE");
    case kShortBinUnicode:
        return readString(PickleKind::text, 1, "SHORT_BINUNICODE");
    case kBinUnicode8:
        return readString(PickleKind::text, 8, "BINUNICODE8");
    case kBinString: // a Python 2 str: its length is signed
        if (m_bytes.size() - m_pos >= 4 && (static_cast<unsigned char>(m_bytes[m_pos + 3]) & 0x80))
            return fail("BINSTRING with a negative length");
        return readString(PickleKind::text, 4, "BINSTRING");
    case kShortBinString:
        return readString(PickleKind::text, 1, "SHORT_BINSTRING");
    case kBinBytes:
        return readString(PickleKind::bytes, 4, "BINBYTES");
    case kShortBinBytes:
        return readString(PickleKind::bytes, 1, "SHORT_BINBYTES");
    case kBinBytes8:
        return readString(PickleKind::bytes, 8, "BINBYTES8");
    case kEmptyList:
    case kEmptyDict: {
        PickleObject obj;
        obj.kind = code == kEmptyList ? PickleKind::list : PickleKind::dict;
        obj.depth = 1;
        return pushNew(std::move(obj));
    }
    case kEmptyTuple:
        return pushTuple({});
    case kTuple1:
        return tupleOf(1);
    case kTuple2:
        return tupleOf(2);
    case kTuple3:
        return tupleOf(3);
    case kTuple: {
        std::vector<std::size_t> items;
        return popMark(items, "TUPLE") && pushTuple(std::move(items));
    }
    case kAppend:
        return appendTo(PickleKind::list, 1, "APPEND");
    case kAppends:
        return appendMarked(PickleKind::list, "APPENDS");
    case kSetItem:
        return appendTo(PickleKind::dict, 2, "SETITEM");
    case kSetItems:
        return appendMarked(PickleKind::dict, "SETITEMS");
    case kBinPut:
        return takeUnsigned(1, v, "BINPUT") && memoPut(v, "BINPUT");
    case kLongBinPut:
        return takeUnsigned(4, v, "LONG_BINPUT") && memoPut(v, "LONG_BINPUT");
    case kMemoize:
        return memoPut(m_memo.size(), "MEMOIZE");
    case kBinGet:
        return takeUnsigned(1, v, "BINGET") && memoGet(v, "BINGET");
    case kLongBinGet:
        return takeUnsigned(4, v, "LONG_BINGET") && memoGet(v, "LONG_BINGET");
    case kGlobal: {
        std::string module, name;
        return line(module, "GLOBAL") && line(name, "GLOBAL") && global(module, name);
    }
    case kStackGlobal: {
        std::size_t nameId = 0, moduleId = 0;
        if (!pop(nameId, "STACK_GLOBAL") || !pop(moduleId, "STACK_GLOBAL")) return false;
        if (object(nameId).kind != PickleKind::text || object(moduleId).kind != PickleKind::text)
            return fail("STACK_GLOBAL's module and name are not strings");
        return global(text(moduleId), text(nameId));
    }
    case kReduce:
        return reduce(false);
    case kNewObj:
        return reduce(true);
    case kBinPersId:
        return persistentId();
    case kBuild:
        return build();
    default:
        break;
    }
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", code);
    return fail(std::string("opcode ") + hex + " is not one torch.save writes for tensors");
}

bool Unpickler::long1() {
    std::uint64_t n = 0;
    const unsigned char* p = nullptr;
    if (!takeUnsigned(1, n, "LONG1") || !take(static_cast<std::size_t>(n), p, "LONG1"))
        return false;
    if (n > 8) return pushLeaf(PickleKind::bigInteger);
    std::uint64_t v = loadLe(p, static_cast<std::size_t>(n));
    if (n > 0 && n < 8 && (p[n - 1] & 0x80)) v |= ~std::uint64_t{0} << (8 * n); // sign-extend
    return pushLeaf(PickleKind::integer, static_cast<std::int64_t>(v));
}

} // namespace

Pickle readPickle(std::string_view bytes, std::string_view source) {
    Pickle out;
    Unpickler(bytes, source, out).run();
    if (!out.error.empty()) {
        out.objects.clear();
        out.strings.clear();
        out.storages.clear();
        out.tensors.clear();
        out.root = 0;
    }
    return out;
}

} // namespace dumpscope::detail

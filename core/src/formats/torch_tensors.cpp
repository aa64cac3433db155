#include "formats/torch_tensors.h"

#include "formats/pickle_torch.h"
#include "formats/torch_types.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace dumpscope::detail {

namespace {

std::string joinCounts(const std::vector<std::uint64_t>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

// Whether a view's elements lie one after another in C order: each stride is the product of
// the sizes after it. A dimension of size 1 is never stepped along, so its stride is free.
bool cOrderContiguous(const std::vector<std::uint64_t>& size,
                      const std::vector<std::uint64_t>& stride) {
    std::uint64_t expected = 1;
    for (std::size_t i = size.size(); i-- > 0;) {
        if (size[i] == 0) return true;
        if (size[i] != 1 && stride[i] != expected) return false;
        expected *= size[i]; // cannot overflow: the element count was checked first
    }
    return true;
}

class TensorWalk {
  public:
    TensorWalk(const Pickle& pickle, const TorchTensorSource& source, ContainerListing& out)
        : m_pickle(pickle), m_source(source), m_out(out) {}

    bool visit(std::size_t id, const std::string& key, std::size_t depth) {
        if (depth > kMaxPickleDepth)
            return fail(key, "containers nest deeper than " + std::to_string(kMaxPickleDepth) +
                                 " levels (or hold themselves)");
        if (++m_visits > kMaxPickleObjects)
            return fail(key, "the containers hold one another more than " +
                                 std::to_string(kMaxPickleObjects) + " times over");
        const PickleObject& obj = m_pickle.objects[id];
        switch (obj.kind) {
        case PickleKind::tensor:
            return tensor(m_pickle.tensors[obj.index], key);
        case PickleKind::dict:
            return dict(obj, key, depth);
        case PickleKind::list:
        case PickleKind::tuple:
            for (std::size_t i = 0; i < obj.items.size(); ++i)
                if (!visit(obj.items[i], join(key, std::to_string(i)), depth + 1)) return false;
            return true;
        case PickleKind::global:
            warn(key, m_pickle.strings[obj.index] + ", not a tensor: left out");
            return true;
        case PickleKind::storage:
            warn(key, "a storage, not a tensor: left out");
            return true;
        default:
            return true; // a number, a string, None: not data to compare
        }
    }

  private:
    static std::string join(const std::string& key, const std::string& component) {
        return key.empty() ? component : key + "." + component;
    }
    std::string where(const std::string& key) const {
        return m_source.path + ": " + (key.empty() ? std::string("the saved object") : key);
    }
    bool fail(const std::string& key, const std::string& what) {
        m_out.error = where(key) + ": " + what;
        return false;
    }
    void warn(const std::string& key, const std::string& what) {
        m_out.warnings.push_back(where(key) + ": " + what);
    }
    // A tensor named in the pickle whose elements cannot be read: an error buffer of its own.
    bool refuse(const std::string& key, const std::string& what) {
        m_out.refused.push_back({key, where(key) + ": " + what});
        return true;
    }

    // A dict's values in insertion order, each key once with its last value, as Python has it.
    bool dict(const PickleObject& obj, const std::string& key, std::size_t depth) {
        struct Entry {
            std::string name;
            std::size_t value = 0;
            const char* refusedKey = nullptr; // the kind of a key that names nothing
        };
        std::vector<Entry> entries;
        std::unordered_map<std::string, std::size_t> position;
        for (std::size_t i = 0; i + 1 < obj.items.size(); i += 2) {
            const PickleObject& k = m_pickle.objects[obj.items[i]];
            const std::size_t value = obj.items[i + 1];
            if (k.kind != PickleKind::text && k.kind != PickleKind::integer) {
                entries.push_back({"", value, pickleKindName(k.kind)});
                continue;
            }
            std::string name =
                k.kind == PickleKind::text ? m_pickle.strings[k.index] : std::to_string(k.integer);
            const auto [it, added] = position.emplace(name, entries.size());
            if (added)
                entries.push_back({std::move(name), value, nullptr});
            else
                entries[it->second].value = value;
        }
        for (const Entry& e : entries) {
            if (e.refusedKey != nullptr)
                warn(key, std::string("a key that is ") + e.refusedKey +
                              ", not a str or an int: its value is left out");
            else if (!visit(e.value, join(key, e.name), depth + 1))
                return false;
        }
        return true;
    }

    bool tensor(const PickleTensor& t, const std::string& key);

    const Pickle& m_pickle;
    const TorchTensorSource& m_source;
    ContainerListing& m_out;
    std::size_t m_visits = 0;
    std::unordered_set<std::string> m_keys;
};

bool TensorWalk::tensor(const PickleTensor& t, const std::string& key) {
    const PickleStorage& storage = m_pickle.storages[t.storage];
    const TorchType* type =
        t.dtype.empty() ? findTorchStorageType(storage.type) : findTorchDType(t.dtype);
    const std::string memberName = m_source.prefix + "data/" + storage.key;
    const ZipMember* member = m_source.member(memberName);
    if (type == nullptr) return fail(key, "storage type " + storage.type + " is not torch's");
    if (member == nullptr) return fail(key, "its storage " + memberName + " is not in the archive");
    if (!m_keys.insert(key).second)
        return refuse(key, "a second tensor of that name: which one is meant is unknown");
    const std::uint64_t itemSize = type->itemSize;
    const std::uint64_t capacity = member->uncompressedSize / itemSize;
    std::uint64_t count = 1, last = t.storageOffset;
    bool fits = true;
    for (std::size_t i = 0; i < t.size.size(); ++i)
        fits = fits && !__builtin_mul_overflow(count, t.size[i], &count);
    for (std::size_t i = 0; fits && count > 0 && i < t.size.size(); ++i) {
        std::uint64_t step = 0;
        fits = !__builtin_mul_overflow(t.size[i] - 1, t.stride[i], &step) &&
               !__builtin_add_overflow(last, step, &last);
    }
    if (!fits || (count > 0 && last >= capacity))
        return fail(key, "its view (storage offset " + std::to_string(t.storageOffset) + ", size " +
                             joinCounts(t.size) + ", stride " + joinCounts(t.stride) +
                             ") reaches past the " + std::to_string(capacity) +
                             " elements of its storage " + memberName + " (pickle byte " +
                             std::to_string(t.byte) + ")");
    // An empty view may sit anywhere: it reads nothing.
    const std::uint64_t skip =
        count == 0 ? std::min(t.storageOffset, capacity) * itemSize : t.storageOffset * itemSize;

    TensorEntry entry;
    entry.key = key;
    entry.dtype = type->dtype;
    entry.typeName = type->typeName;
    entry.itemBytes = itemSize;
    entry.shape = t.size;
    TensorLocation& loc = entry.location;
    loc.file = m_source.relativePath;
    loc.member = member->name;
    loc.key = key;
    loc.count = count;
    loc.extentBytes = member->uncompressedSize - skip;
    const bool contiguous = cOrderContiguous(t.size, t.stride);
    if (!contiguous) {
        loc.sizes = t.size;
        loc.strides = t.stride;
    }
    if (member->method == 8) {
        if (!contiguous)
            return refuse(key, "a non-contiguous view in a compressed member (" + member->name +
                                   "): not supported (re-save the tensor with .contiguous())");
        loc.deflated = true;
        loc.offset = member->dataOffset;
        loc.compressedBytes = member->compressedSize;
        loc.skipBytes = skip;
        loc.inflatedBytes = member->uncompressedSize;
        loc.crc32 = member->crc32;
    } else if (member->method == 0) {
        loc.offset = member->dataOffset + skip;
    } else {
        return refuse(key, "its storage " + member->name + " is compressed with method " +
                               std::to_string(member->method) + ": not supported");
    }
    m_out.tensors.push_back(std::move(entry));
    return true;
}

} // namespace

bool listPickledTensors(const Pickle& pickle, const TorchTensorSource& source,
                        ContainerListing& out) {
    return TensorWalk(pickle, source, out).visit(pickle.root, "", 0);
}

} // namespace dumpscope::detail

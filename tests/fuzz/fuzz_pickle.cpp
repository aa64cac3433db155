// Fuzzes the restricted unpickler (a torch.save file's data.pkl) and the walk that names and
// locates its tensors. Seeds: the data.pkl of real torch.save files (write_torch.py). Whatever
// the bytes, the tree must be well formed (every index in range, nesting within the cap), an
// error must name the source and a byte inside the input, and every tensor listed must lie
// inside its storage member, which is given here the size the pickle says it has.
#include "formats/pickle_reader.h"
#include "formats/torch_tensors.h"
#include "formats/torch_types.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <string_view>

using namespace dumpscope::detail;

namespace {

void check(bool ok) {
    if (!ok) std::abort();
}

void checkTree(const Pickle& p) {
    check(p.root < p.objects.size());
    for (const PickleObject& obj : p.objects) {
        check(obj.depth <= kMaxPickleDepth);
        for (std::size_t item : obj.items)
            check(item < p.objects.size());
        if (obj.kind == PickleKind::text || obj.kind == PickleKind::bytes ||
            obj.kind == PickleKind::global)
            check(obj.index < p.strings.size());
        if (obj.kind == PickleKind::storage) check(obj.index < p.storages.size());
        if (obj.kind == PickleKind::tensor) check(obj.index < p.tensors.size());
    }
    for (const PickleTensor& t : p.tensors) {
        check(t.storage < p.storages.size());
        check(t.size.size() == t.stride.size());
    }
}

// Each entry's elements, stepped through in C order of its view, stay inside its extent (the
// walk checked the same products for overflow before listing it).
void checkEntry(const TensorEntry& e) {
    const dumpscope::TensorLocation& loc = e.location;
    std::uint64_t count = 1;
    for (std::uint64_t s : e.shape)
        count *= s;
    check(count == loc.count);
    if (count == 0 || !e.dtype) return;
    std::uint64_t last = count - 1;
    if (!loc.contiguous()) {
        check(loc.sizes == e.shape && loc.strides.size() == loc.sizes.size());
        last = 0;
        for (std::size_t i = 0; i < loc.sizes.size(); ++i)
            last += (loc.sizes[i] - 1) * loc.strides[i];
    }
    check((last + 1) * dumpscope::dtypeSize(*e.dtype) <= loc.extentBytes);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const Pickle p = readPickle(bytes, "fuzz.pt: data.pkl");
    if (!p.error.empty()) {
        check(p.error.rfind("fuzz.pt: data.pkl byte ", 0) == 0);
        check(std::strtoull(p.error.c_str() + 23, nullptr, 10) <= size);
        check(p.objects.empty() && p.tensors.empty());
        return 0;
    }
    checkTree(p);

    // Each storage member as large as the pickle says, so that a listed view must fit in it.
    std::map<std::string, ZipMember> members;
    for (const PickleStorage& s : p.storages) {
        const TorchType* type = findTorchStorageType(s.type);
        check(type != nullptr);
        ZipMember m;
        m.name = "a/data/" + s.key;
        m.uncompressedSize = m.compressedSize = s.numel > (std::uint64_t{1} << 40)
                                                    ? (std::uint64_t{1} << 40)
                                                    : s.numel * type->itemSize;
        m.dataOffset = 64;
        members.emplace(m.name, m);
    }
    const TorchTensorSource source{"fuzz.pt", "fuzz.pt", "a/", [&](const std::string& name) {
                                       const auto it = members.find(name);
                                       return it == members.end() ? nullptr : &it->second;
                                   }};
    ContainerListing out;
    if (!listPickledTensors(p, source, out)) {
        check(!out.error.empty());
        return 0;
    }
    for (const TensorEntry& e : out.tensors)
        checkEntry(e);
    return 0;
}

#pragma once
// A restricted unpickler for the data.pkl of a torch.save file. It builds a plain tree of what
// the pickle describes (containers, numbers, strings, storages, tensors) and never imports or
// calls anything: a global is accepted only when it is one torch.save writes for tensors and
// their containers, and every other one is refused by name. Everything it holds is bounded by
// the pickle's own size, which is itself capped.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dumpscope::detail {

inline constexpr std::size_t kMaxPickleBytes = std::size_t{64} << 20;
// How deep MARKs and containers may nest: torch.save's state_dicts nest a handful of levels.
inline constexpr std::size_t kMaxPickleDepth = 256;
// Objects the pickle may make: a tensor takes about a dozen, so this holds ~300k tensors while
// keeping the tree a few hundred MiB at most.
inline constexpr std::size_t kMaxPickleObjects = std::size_t{4} << 20;

enum class PickleKind : std::uint8_t {
    none,
    boolean,
    integer,    // fits in int64: `integer`
    bigInteger, // a LONG1 wider than 64 bits: only ever a leaf
    floating,   // `number`
    text,       // a str: strings[index]
    bytes,      // a bytes object: strings[index]
    list,       // items
    tuple,      // items
    dict,       // items: key, value, key, value... in insertion order (a repeated key repeats)
    global,     // an allowed global that is a value (a dtype, a storage type): strings[index]
    storage,    // storages[index]
    tensor,     // tensors[index]
};

// The storage a tensor views: the persistent id torch.save writes for it,
// ('storage', <storage type>, key, location, numel).
struct PickleStorage {
    std::string type; // "FloatStorage", "UntypedStorage", ...
    std::string key;  // the zip member "<archive>/data/<key>" holds its bytes
    std::string location;
    std::uint64_t numel = 0; // elements of `type` (bytes for UntypedStorage)
};

// torch._utils._rebuild_tensor_v2(storage, storage_offset, size, stride, ...): a view of a
// storage, offset and strides counted in elements.
struct PickleTensor {
    std::size_t storage = 0; // index into Pickle::storages
    // _rebuild_tensor_v3's dtype ("float8_e4m3fn"), whose elements the storage's bytes hold;
    // empty when the storage's type is the tensor's.
    std::string dtype;
    std::uint64_t storageOffset = 0;
    std::vector<std::uint64_t> size;
    std::vector<std::uint64_t> stride;
    std::size_t byte = 0; // where the pickle rebuilds it, for messages
};

struct PickleObject {
    PickleKind kind = PickleKind::none;
    bool boolean = false;
    std::int64_t integer = 0;
    double number = 0;
    std::size_t index = 0;          // into strings, storages or tensors, by kind
    std::vector<std::size_t> items; // into objects
    // Containers nested inside this one, counting itself: capped at kMaxPickleDepth as the
    // pickle builds it, so that whoever walks the tree recurses a bounded depth.
    std::size_t depth = 0;
};

struct Pickle {
    std::vector<PickleObject> objects;
    std::vector<std::string> strings;
    std::vector<PickleStorage> storages;
    std::vector<PickleTensor> tensors;
    std::size_t root = 0; // the object STOP returned
    // "SOURCE byte B: what"; the rest is then meaningless.
    std::string error;
};

// Reads one pickle (protocols 2 to 5, the opcodes torch.save writes). `source` names it in
// messages ("run/step_3.pt: archive/data.pkl"). Never throws.
Pickle readPickle(std::string_view bytes, std::string_view source);

} // namespace dumpscope::detail

#pragma once
// What torch.save's pickles may name and call, and what those calls make. The unpickler asks
// here for every global, every REDUCE / NEWOBJ, every persistent id and every BUILD; nothing is
// ever imported or run: the objects torch would build are made from the pickle's own values.
#include "formats/pickle_reader.h"

#include <optional>
#include <string>
#include <string_view>

namespace dumpscope::detail {

enum class PickleGlobal {
    orderedDict,               // collections.OrderedDict: a state_dict, a tensor's hooks
    rebuildTensor,             // torch._utils._rebuild_tensor_v2: every plain tensor
    rebuildTensorV3,           // _rebuild_tensor_v3: one of a dtype with no storage type
    rebuildParameter,          // torch._utils._rebuild_parameter: an nn.Parameter
    rebuildParameterWithState, // the same, with Python attributes set on the parameter
    storageType,               // torch.FloatStorage ...: named in a storage's persistent id
    dtype,                     // torch.float32 ...: _rebuild_tensor_v3's, or a value
};

// The role of `module.name`, or null: torch.save writes no such global for tensors.
std::optional<PickleGlobal> allowedPickleGlobal(std::string_view module, std::string_view name);

// "a dict", "a tensor": for messages.
const char* pickleKindName(PickleKind kind);

// What an opcode makes: an object to add, or one that exists already (a parameter is its
// tensor), or why it is refused.
struct PickleMade {
    std::string error; // what is wrong, without the file and the byte
    std::optional<std::size_t> existing;
    PickleObject object;
};

// REDUCE (or NEWOBJ, with `newObject`) of the global `fn` on the tuple `args`. A tensor made
// gets `byte` as where it was rebuilt.
PickleMade pickleReduce(Pickle& pickle, std::size_t fn, std::size_t args, bool newObject,
                        std::size_t byte);
// BINPERSID of `pid`: a storage.
PickleMade picklePersistentId(Pickle& pickle, std::size_t pid);
// BUILD with `state` on `target`: empty when accepted (an OrderedDict's instance dict).
std::string pickleBuild(const Pickle& pickle, std::size_t target, std::size_t state);

} // namespace dumpscope::detail

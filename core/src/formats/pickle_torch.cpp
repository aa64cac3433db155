#include "formats/pickle_torch.h"

#include "formats/torch_types.h"

#include <utility>
#include <vector>

namespace dumpscope::detail {

std::optional<PickleGlobal> allowedPickleGlobal(std::string_view module, std::string_view name) {
    if (module == "collections" && name == "OrderedDict") return PickleGlobal::orderedDict;
    if (module == "torch._utils") {
        if (name == "_rebuild_tensor_v2") return PickleGlobal::rebuildTensor;
        if (name == "_rebuild_tensor_v3") return PickleGlobal::rebuildTensorV3;
        if (name == "_rebuild_parameter") return PickleGlobal::rebuildParameter;
        if (name == "_rebuild_parameter_with_state") return PickleGlobal::rebuildParameterWithState;
        return std::nullopt;
    }
    if (module == "torch") {
        if (findTorchStorageType(name) != nullptr) return PickleGlobal::storageType;
        if (findTorchDType(name) != nullptr) return PickleGlobal::dtype;
    }
    return std::nullopt;
}

const char* pickleKindName(PickleKind kind) {
    switch (kind) {
    case PickleKind::none:
        return "None";
    case PickleKind::boolean:
        return "a bool";
    case PickleKind::integer:
    case PickleKind::bigInteger:
        return "an int";
    case PickleKind::floating:
        return "a float";
    case PickleKind::text:
        return "a str";
    case PickleKind::bytes:
        return "bytes";
    case PickleKind::list:
        return "a list";
    case PickleKind::tuple:
        return "a tuple";
    case PickleKind::dict:
        return "a dict";
    case PickleKind::global:
        return "a global";
    case PickleKind::storage:
        return "a storage";
    case PickleKind::tensor:
        return "a tensor";
    }
    return "an object";
}

namespace {

PickleMade refused(std::string why) {
    PickleMade made;
    made.error = std::move(why);
    return made;
}

PickleMade madeObject(PickleKind kind, std::size_t index, std::size_t depth) {
    PickleMade made;
    made.object.kind = kind;
    made.object.index = index;
    made.object.depth = depth;
    return made;
}

const std::string& textOf(const Pickle& pickle, std::size_t id) {
    return pickle.strings[pickle.objects[id].index];
}

bool isCount(const Pickle& pickle, std::size_t id) {
    const PickleObject& obj = pickle.objects[id];
    return obj.kind == PickleKind::integer && obj.integer >= 0;
}

bool countsOf(const Pickle& pickle, std::size_t id, std::vector<std::uint64_t>& out) {
    if (pickle.objects[id].kind != PickleKind::tuple) return false;
    for (std::size_t item : pickle.objects[id].items) {
        if (!isCount(pickle, item)) return false;
        out.push_back(static_cast<std::uint64_t>(pickle.objects[item].integer));
    }
    return true;
}

// _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks
// [, metadata]), and _rebuild_tensor_v3 with the dtype after the hooks: requires_grad, the hooks
// and the metadata do not change the elements.
PickleMade rebuildTensor(Pickle& pickle, const std::vector<std::size_t>& args, bool v3,
                         std::size_t byte) {
    const std::size_t least = v3 ? 7 : 6;
    if (args.size() < least || args.size() > least + 1)
        return refused("_rebuild_tensor_v" + std::string(v3 ? "3" : "2") + " with " +
                       std::to_string(args.size()) + " arguments, not " + std::to_string(least) +
                       " or " + std::to_string(least + 1));
    if (pickle.objects[args[0]].kind != PickleKind::storage)
        return refused(std::string("_rebuild_tensor_v2 of ") +
                       pickleKindName(pickle.objects[args[0]].kind) + ", not a storage");
    PickleTensor tensor;
    tensor.byte = byte;
    if (v3) {
        const PickleObject& dtype = pickle.objects[args[6]];
        if (dtype.kind != PickleKind::global ||
            static_cast<PickleGlobal>(dtype.integer) != PickleGlobal::dtype)
            return refused("_rebuild_tensor_v3 whose dtype is not one of torch's dtypes");
        const std::string& name = pickle.strings[dtype.index];
        tensor.dtype = name.substr(name.rfind('.') + 1);
    }
    tensor.storage = pickle.objects[args[0]].index;
    if (!isCount(pickle, args[1]))
        return refused("_rebuild_tensor_v2 with a storage offset that is not a count");
    tensor.storageOffset = static_cast<std::uint64_t>(pickle.objects[args[1]].integer);
    if (!countsOf(pickle, args[2], tensor.size) || !countsOf(pickle, args[3], tensor.stride))
        return refused("_rebuild_tensor_v2 with a size or stride that is not a tuple of counts");
    if (tensor.size.size() != tensor.stride.size())
        return refused("_rebuild_tensor_v2 with " + std::to_string(tensor.size.size()) +
                       " sizes but " + std::to_string(tensor.stride.size()) + " strides");
    pickle.tensors.push_back(std::move(tensor));
    return madeObject(PickleKind::tensor, pickle.tensors.size() - 1, 0);
}

} // namespace

PickleMade pickleReduce(Pickle& pickle, std::size_t fn, std::size_t args, bool newObject,
                        std::size_t byte) {
    const char* op = newObject ? "NEWOBJ" : "REDUCE";
    const PickleKind argsKind = pickle.objects[args].kind;
    const PickleKind fnKind = pickle.objects[fn].kind;
    if (argsKind != PickleKind::tuple)
        return refused(std::string(op) + "'s arguments are " + pickleKindName(argsKind) +
                       ", not a tuple");
    if (fnKind != PickleKind::global)
        return refused(std::string(op) + " calls " + pickleKindName(fnKind) +
                       ": only torch's tensor rebuilders and OrderedDict are called");
    const std::vector<std::size_t> argv = pickle.objects[args].items;
    const auto role = static_cast<PickleGlobal>(pickle.objects[fn].integer);
    if (role == PickleGlobal::orderedDict) {
        if (!argv.empty())
            return refused(std::string(op) +
                           " makes an OrderedDict from arguments: torch.save adds its items after");
        return madeObject(PickleKind::dict, 0, 1);
    }
    if (!newObject &&
        (role == PickleGlobal::rebuildTensor || role == PickleGlobal::rebuildTensorV3))
        return rebuildTensor(pickle, argv, role == PickleGlobal::rebuildTensorV3, byte);
    if (!newObject && (role == PickleGlobal::rebuildParameter ||
                       role == PickleGlobal::rebuildParameterWithState)) {
        // A parameter is its tensor; requires_grad, its hooks and its state do not matter here.
        if (argv.empty() || pickle.objects[argv[0]].kind != PickleKind::tensor)
            return refused(textOf(pickle, fn) + " without a tensor as its first argument");
        PickleMade made;
        made.existing = argv[0];
        return made;
    }
    return refused(std::string(op) + " calls " + textOf(pickle, fn) +
                   ", which torch.save never calls");
}

// torch.save's persistent id of a storage: ('storage', <storage type>, key, location, numel).
PickleMade picklePersistentId(Pickle& pickle, std::size_t pid) {
    const std::vector<std::size_t> items = pickle.objects[pid].items;
    const auto is = [&](std::size_t i, PickleKind kind) {
        return i < items.size() && pickle.objects[items[i]].kind == kind;
    };
    if (pickle.objects[pid].kind != PickleKind::tuple || items.size() != 5 ||
        !is(0, PickleKind::text) || textOf(pickle, items[0]) != "storage")
        return refused("a persistent id that is not ('storage', type, key, location, numel)");
    if (!is(1, PickleKind::global) ||
        static_cast<PickleGlobal>(pickle.objects[items[1]].integer) != PickleGlobal::storageType)
        return refused("a storage whose type is not one of torch's storage types");
    PickleStorage storage;
    const std::string& type = textOf(pickle, items[1]);
    storage.type = type.substr(type.rfind('.') + 1);
    if (is(2, PickleKind::text))
        storage.key = textOf(pickle, items[2]);
    else if (isCount(pickle, items[2]))
        storage.key = std::to_string(pickle.objects[items[2]].integer);
    else
        return refused("a storage whose key is neither a string nor a count");
    if (!is(3, PickleKind::text) || !isCount(pickle, items[4]))
        return refused("a storage whose location is not a string or whose size is not a count");
    storage.location = textOf(pickle, items[3]);
    storage.numel = static_cast<std::uint64_t>(pickle.objects[items[4]].integer);
    pickle.storages.push_back(std::move(storage));
    return madeObject(PickleKind::storage, pickle.storages.size() - 1, 0);
}

// The only state torch.save sets is an OrderedDict's instance dict (a state_dict's _metadata):
// its values were unpickled under the same rules, and are not the dict's items, so it is dropped.
std::string pickleBuild(const Pickle& pickle, std::size_t target, std::size_t state) {
    const PickleObject& s = pickle.objects[state];
    const PickleKind targetKind = pickle.objects[target].kind;
    if (s.kind == PickleKind::none) return {};
    if (targetKind == PickleKind::dict && s.kind == PickleKind::dict) return {};
    return std::string("BUILD sets a state on ") + pickleKindName(targetKind) +
           ": torch.save sets none for tensors or their containers";
}

} // namespace dumpscope::detail

#pragma once
// What torch.save names by global: the storage types (one per element type, the way torch.save
// still spells a tensor's storage) and the dtypes (named by _rebuild_tensor_v3, which torch >= 2.1
// writes for the dtypes that have no storage type of their own: uint16, float8, ...). One table,
// for the unpickler's allow-list and for the element types of the tensors listed.
#include "dumpscope/dtype.h"

#include <cstddef>
#include <optional>
#include <string_view>

namespace dumpscope::detail {

struct TorchType {
    std::string_view typeName;    // the dtype as torch prints it: "torch.float32"
    std::string_view storageName; // its storage type in module torch ("FloatStorage"), or empty
    std::optional<DType> dtype;   // null for a type dumpscope has no element type for
    std::size_t itemSize = 0;     // bytes per element
};

// The type of the storage type `torch.<name>`, or null when torch has none of that name.
// UntypedStorage is bytes: uint8.
const TorchType* findTorchStorageType(std::string_view name);

// The dtype `torch.<name>` ("float32", "bfloat16", "float8_e4m3fn", ...), or null.
const TorchType* findTorchDType(std::string_view name);

} // namespace dumpscope::detail

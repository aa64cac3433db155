#pragma once
// What torch.save names by global: the storage types (one per element type, the way torch.save
// still spells a tensor's storage) and the dtypes. One table, for the unpickler's allow-list and
// for the element types of the tensors listed.
#include "dumpscope/dtype.h"

#include <cstddef>
#include <optional>
#include <string_view>

namespace dumpscope::detail {

struct TorchStorageType {
    std::string_view name;      // the global's name in module `torch`: "FloatStorage"
    std::optional<DType> dtype; // null for a type dumpscope has no element type for
    std::string_view typeName;  // the tensor's dtype as torch prints it: "torch.float32"
    std::size_t itemSize = 0;   // bytes per element
};

// The storage type `torch.<name>`, or null when torch has none of that name.
const TorchStorageType* findTorchStorageType(std::string_view name);

// Whether `torch.<name>` is a dtype ("float32", "bfloat16", "complex64", ...).
bool isTorchDTypeName(std::string_view name);

} // namespace dumpscope::detail

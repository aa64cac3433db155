#pragma once
// A tensor whose element type has no arithmetic of dumpscope's is still compared, bit for bit,
// through a type that has: a complex element as its real and imaginary parts (complex64 as two
// f32, complex128 as two f64, complex32 as two f16), any other element as its bytes. Either way
// the elements are split into parts along a new last dimension, and the location follows.
#include "dumpscope/dtype.h"
#include "dumpscope/tensor_location.h"
#include "formats/tensor_entry.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace dumpscope::detail {

// The type of a complex type's parts as the formats spell it ("<c8", "C64", "torch.complex64"
// -> f32; "torch.complex32" -> f16), or null for any other type.
std::optional<DType> complexPartType(std::string_view typeName);

// The same bytes as `parts` times as many elements, each element's parts one after another (a
// view's strides scaled, with a last dimension of `parts` elements of stride 1).
TensorLocation splitElements(const TensorLocation& location, std::uint64_t parts);

// A complex tensor listed as its parts: dtype the part type, shape and location with a last
// dimension of 2. Other entries are left as they are.
void listComplexAsParts(TensorEntry& entry);

} // namespace dumpscope::detail

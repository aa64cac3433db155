#include "formats/element_parts.h"

#include <array>
#include <utility>

namespace dumpscope::detail {

namespace {

constexpr std::array<std::pair<std::string_view, DType>, 7> kComplex{{
    {"<c8", DType::f32},
    {"<c16", DType::f64},
    {"C64", DType::f32},
    {"C128", DType::f64},
    {"torch.complex64", DType::f32},
    {"torch.complex128", DType::f64},
    {"torch.complex32", DType::f16},
}};

} // namespace

std::optional<DType> complexPartType(std::string_view typeName) {
    for (const auto& [name, part] : kComplex)
        if (name == typeName) return part;
    return std::nullopt;
}

TensorLocation splitElements(const TensorLocation& location, std::uint64_t parts) {
    TensorLocation split = location;
    split.count = location.count * parts; // the bytes are unchanged: no overflow past them
    if (!location.contiguous()) {
        for (std::uint64_t& stride : split.strides)
            stride *= parts;
        split.sizes.push_back(parts);
        split.strides.push_back(1);
    }
    return split;
}

void listComplexAsParts(TensorEntry& entry) {
    const auto part = complexPartType(entry.typeName);
    if (entry.dtype || !part || entry.itemBytes != 2 * dtypeSize(*part)) return;
    entry.dtype = part;
    entry.itemBytes = dtypeSize(*part);
    entry.shape.push_back(2);
    entry.location = splitElements(entry.location, 2);
}

} // namespace dumpscope::detail

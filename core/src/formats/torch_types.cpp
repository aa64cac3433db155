#include "formats/torch_types.h"

#include <algorithm>
#include <array>

namespace dumpscope::detail {

namespace {

// torch's legacy storage classes, which torch.save writes for every tensor's storage (torch 2
// too: its TypedStorage pickles under these names). UntypedStorage is counted in bytes.
constexpr std::array<TorchStorageType, 18> kStorageTypes{{
    {"FloatStorage", DType::f32, "torch.float32", 4},
    {"DoubleStorage", DType::f64, "torch.float64", 8},
    {"HalfStorage", DType::f16, "torch.float16", 2},
    {"BFloat16Storage", DType::bf16, "torch.bfloat16", 2},
    {"CharStorage", DType::i8, "torch.int8", 1},
    {"ByteStorage", DType::u8, "torch.uint8", 1},
    {"ShortStorage", DType::i16, "torch.int16", 2},
    {"IntStorage", DType::i32, "torch.int32", 4},
    {"LongStorage", DType::i64, "torch.int64", 8},
    // A bool is one byte, 0 or 1: compared as u8, its bytes are its values.
    {"BoolStorage", DType::u8, "torch.bool", 1},
    {"UntypedStorage", DType::u8, "torch.uint8", 1},
    {"ComplexFloatStorage", std::nullopt, "torch.complex64", 8},
    {"ComplexDoubleStorage", std::nullopt, "torch.complex128", 16},
    {"QInt8Storage", std::nullopt, "torch.qint8", 1},
    {"QUInt8Storage", std::nullopt, "torch.quint8", 1},
    {"QInt32Storage", std::nullopt, "torch.qint32", 4},
    {"QUInt4x2Storage", std::nullopt, "torch.quint4x2", 1},
    {"QUInt2x4Storage", std::nullopt, "torch.quint2x4", 1},
}};

// The dtypes as `torch.<name>` globals: a dtype pickles as its canonical name.
constexpr std::array<std::string_view, 22> kDTypeNames{
    "float32", "float64",   "float16",       "bfloat16",   "int8",   "uint8",
    "int16",   "int32",     "int64",         "bool",       "uint16", "uint32",
    "uint64",  "complex32", "complex64",     "complex128", "qint8",  "quint8",
    "qint32",  "quint4x2",  "float8_e4m3fn", "float8_e5m2"};

} // namespace

const TorchStorageType* findTorchStorageType(std::string_view name) {
    const auto it = std::find_if(kStorageTypes.begin(), kStorageTypes.end(),
                                 [&](const TorchStorageType& t) { return t.name == name; });
    return it == kStorageTypes.end() ? nullptr : &*it;
}

bool isTorchDTypeName(std::string_view name) {
    return std::find(kDTypeNames.begin(), kDTypeNames.end(), name) != kDTypeNames.end();
}

} // namespace dumpscope::detail

#include "formats/torch_types.h"

#include <algorithm>
#include <array>

namespace dumpscope::detail {

namespace {

constexpr std::array<TorchType, 26> kTypes{{
    {"torch.float32", "FloatStorage", DType::f32, 4},
    {"torch.float64", "DoubleStorage", DType::f64, 8},
    {"torch.float16", "HalfStorage", DType::f16, 2},
    {"torch.bfloat16", "BFloat16Storage", DType::bf16, 2},
    {"torch.int8", "CharStorage", DType::i8, 1},
    {"torch.uint8", "ByteStorage", DType::u8, 1},
    {"torch.int16", "ShortStorage", DType::i16, 2},
    {"torch.int32", "IntStorage", DType::i32, 4},
    {"torch.int64", "LongStorage", DType::i64, 8},
    // A bool is one byte, 0 or 1: compared as u8, its bytes are its values.
    {"torch.bool", "BoolStorage", DType::u8, 1},
    {"torch.complex64", "ComplexFloatStorage", std::nullopt, 8},
    {"torch.complex128", "ComplexDoubleStorage", std::nullopt, 16},
    {"torch.qint8", "QInt8Storage", std::nullopt, 1},
    {"torch.quint8", "QUInt8Storage", std::nullopt, 1},
    {"torch.qint32", "QInt32Storage", std::nullopt, 4},
    {"torch.quint4x2", "QUInt4x2Storage", std::nullopt, 1},
    {"torch.quint2x4", "QUInt2x4Storage", std::nullopt, 1},
    // Saved in an UntypedStorage, their dtype named beside it.
    {"torch.uint16", "", DType::u16, 2},
    {"torch.uint32", "", DType::u32, 4},
    {"torch.uint64", "", DType::u64, 8},
    {"torch.complex32", "", std::nullopt, 4},
    {"torch.float8_e4m3fn", "", DType::f8_e4m3, 1},
    {"torch.float8_e5m2", "", DType::f8_e5m2, 1},
    // The "fnuz" variants encode NaN, zero and the bias differently: no element type of ours.
    {"torch.float8_e4m3fnuz", "", std::nullopt, 1},
    {"torch.float8_e5m2fnuz", "", std::nullopt, 1},
    // Last, so that the dtype uint8 is found as ByteStorage's.
    {"torch.uint8", "UntypedStorage", DType::u8, 1},
}};

constexpr std::string_view kModule = "torch.";

} // namespace

const TorchType* findTorchStorageType(std::string_view name) {
    if (name.empty()) return nullptr;
    const auto it = std::find_if(kTypes.begin(), kTypes.end(),
                                 [&](const TorchType& t) { return t.storageName == name; });
    return it == kTypes.end() ? nullptr : &*it;
}

const TorchType* findTorchDType(std::string_view name) {
    const auto it = std::find_if(kTypes.begin(), kTypes.end(), [&](const TorchType& t) {
        return t.typeName.substr(kModule.size()) == name;
    });
    return it == kTypes.end() ? nullptr : &*it;
}

} // namespace dumpscope::detail

#pragma once

#include <string_view>

namespace dumpscope {
std::string_view version(); // "0.1.0", from the CMake project version
} // namespace dumpscope

#pragma once

#include <cstddef>
#include <string_view>
#include <utility>

namespace dumpscope::detail {

// What a column counts where a parser names a place in its text: bytes (the schema's errors,
// as JSON parsers report them) or UTF-8 characters (the name map's, whose names are often not
// ASCII). A continuation byte is not a character of its own.
enum class ColumnUnit { byte, character };

// The 1-based line and column of byte `offset` in `text`.
inline std::pair<int, int> lineColumn(std::string_view text, std::size_t offset, ColumnUnit unit) {
    int line = 1, column = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else if (unit == ColumnUnit::byte ||
                   (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
            ++column;
        }
    }
    return {line, column};
}

} // namespace dumpscope::detail

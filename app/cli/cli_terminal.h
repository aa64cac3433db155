#pragma once

#include <chrono>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>

namespace dumpscope {

// A name, path or message that came from outside (file and directory names, schema labels, the
// OS's and the core's messages quoting them, option values), as every text line the CLI prints
// shows it: control characters and invalid UTF-8 as "\xNN" (report::displayText), so that no
// name can end a line, forge one, or send the terminal an escape sequence.
std::string shown(std::string_view text);
// A path's bytes, shown(). Only for a path itself: a string never turns into a path on the way.
std::string shown(const std::same_as<std::filesystem::path> auto& path) {
    return shown(std::string_view(path.native()));
}
// Text made of lines (CLI11's messages and help quote the arguments): each line shown(), the
// line feeds between them kept.
std::string shownLines(std::string_view text);

// --color auto|always|never.
enum class ColorMode { automatic, always, never };

// True when `fd` is a terminal.
bool isTerminal(int fd);
// Whether text written to `fd` gets ANSI colours: `automatic` means when `fd` is a terminal,
// NO_COLOR is unset or empty (no-color.org) and TERM is not "dumb".
bool colorEnabled(ColorMode mode, int fd);

enum class Paint { red, green, yellow, bold_red };
// `text` between the ANSI sequence for `paint` and a reset when `on`; else `text` unchanged.
std::string paint(std::string_view text, Paint paint, bool on);

// A pair at least this large (both runs' files together) gets a progress bar on a terminal:
// below it the comparison takes well under a second here (about 3 GB/s warm).
inline constexpr std::uint64_t kProgressMinBytes = 64ull << 20;

// One line redrawn in place with '\r' (no other control sequences, so TERM=dumb is fine):
// "[#######.............]  35%  11/31 buffers  180/512 MiB". Redrawn at most every 100 ms, and
// always for the first and the last buffer; finish() blanks the line so nothing is left over.
// A byte count as the progress shows it: "512 B", "4.0 KiB", "8.0 GiB".
std::string byteCount(std::uint64_t bytes);

// The line printed above the progress bar for a pair whose lengths differ. Only the common part
// is compared, but each file is read to its end for its hash, so a short file against a huge one
// takes as long as the huge one; the bar counts both files whole, and this says why.
std::string lengthMismatchNote(std::string_view fileName, std::uint64_t bytesA,
                               std::uint64_t bytesB);

class ProgressBar {
  public:
    ProgressBar(std::ostream& out, std::uint64_t totalBytes, std::size_t totalBuffers);
    void update(std::size_t doneBuffers, std::uint64_t doneBytes);
    void finish();

  private:
    std::ostream& m_out;
    std::uint64_t m_totalBytes;
    std::size_t m_totalBuffers;
    std::size_t m_width = 0; // characters of the last line drawn
    std::chrono::steady_clock::time_point m_lastDraw{};
    bool m_drawn = false;
};

} // namespace dumpscope

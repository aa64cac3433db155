#include "cli_terminal.h"

#include "dumpscope/display_text.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ostream>

namespace dumpscope {

std::string shown(std::string_view text) {
    return report::displayText(text);
}

std::string shownLines(std::string_view text) {
    std::string out;
    for (std::size_t begin = 0;;) {
        const std::size_t end = text.find('\n', begin);
        out += shown(text.substr(begin, end == std::string_view::npos ? text.npos : end - begin));
        if (end == std::string_view::npos) return out;
        out += '\n';
        begin = end + 1;
    }
}

bool isTerminal(int fd) {
    return ::isatty(fd) == 1;
}

bool colorEnabled(ColorMode mode, int fd) {
    if (mode != ColorMode::automatic) return mode == ColorMode::always;
    const char* noColor = std::getenv("NO_COLOR");
    const char* term = std::getenv("TERM");
    if (noColor && *noColor) return false;
    if (term && std::strcmp(term, "dumb") == 0) return false;
    return isTerminal(fd);
}

std::string paint(std::string_view text, Paint p, bool on) {
    if (!on) return std::string(text);
    const char* code = p == Paint::red      ? "31"
                       : p == Paint::green  ? "32"
                       : p == Paint::yellow ? "33"
                                            : "1;31";
    return "\033[" + std::string(code) + "m" + std::string(text) + "\033[0m";
}

std::string byteCount(std::uint64_t bytes) {
    if (bytes < 1024) return std::to_string(bytes) + " B";
    static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = static_cast<double>(bytes) / 1024;
    std::size_t unit = 0;
    while (value >= 1024 && unit + 1 < std::size(kUnits)) {
        value /= 1024;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %s", value, kUnits[unit]);
    return text;
}

std::string lengthMismatchNote(std::string_view fileName, std::uint64_t bytesA,
                               std::uint64_t bytesB) {
    const bool aLonger = bytesA > bytesB;
    return shown(fileName) + ": lengths differ (A " + byteCount(bytesA) + ", B " +
           byteCount(bytesB) + "): the common " + byteCount(std::min(bytesA, bytesB)) +
           " are compared, and all of " + (aLonger ? "A" : "B") + "'s " +
           byteCount(std::max(bytesA, bytesB)) + " are read for its hash";
}

ProgressBar::ProgressBar(std::ostream& out, std::uint64_t totalBytes, std::size_t totalBuffers)
    : m_out(out), m_totalBytes(totalBytes), m_totalBuffers(totalBuffers) {}

void ProgressBar::update(std::size_t doneBuffers, std::uint64_t doneBytes) {
    const auto now = std::chrono::steady_clock::now();
    const bool last = doneBuffers >= m_totalBuffers;
    if (m_drawn && !last && now - m_lastDraw < std::chrono::milliseconds(100)) return;
    m_lastDraw = now;
    m_drawn = true;
    constexpr int kBar = 24;
    const double fraction =
        m_totalBytes
            ? std::min(1.0, static_cast<double>(doneBytes) / static_cast<double>(m_totalBytes))
            : 1.0;
    const int filled = static_cast<int>(fraction * kBar);
    char line[160];
    const int n = std::snprintf(line, sizeof line, "[%s%s] %3d%%  %zu/%zu buffers  %.0f/%.0f MiB",
                                std::string(static_cast<std::size_t>(filled), '#').c_str(),
                                std::string(static_cast<std::size_t>(kBar - filled), '.').c_str(),
                                static_cast<int>(fraction * 100), doneBuffers, m_totalBuffers,
                                static_cast<double>(doneBytes) / (1 << 20),
                                static_cast<double>(m_totalBytes) / (1 << 20));
    const std::size_t width = static_cast<std::size_t>(std::max(n, 0));
    m_out << '\r' << line << std::string(m_width > width ? m_width - width : 0, ' ') << std::flush;
    m_width = width;
}

void ProgressBar::finish() {
    if (!m_drawn) return;
    m_out << '\r' << std::string(m_width, ' ') << '\r' << std::flush;
    m_drawn = false;
}

} // namespace dumpscope

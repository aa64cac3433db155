#pragma once
// dumpscope::Capture: a trainer's buffers written as dumpscope reads them, from C++ without
// Python. Header-only; the standard library and POSIX (open, write, fsync, rename) only.
//
//     dumpscope::Capture cap("runs/a");                    // full tensors and the log
//     for (std::uint64_t step = 0; step < n; ++step) {
//         ...
//         auto h = cap.add("layer1.out", ptr, "f32", {4, 16, 32});
//         cap.add("layer2.out", ptr2, "f32", {4, 16, 32}, {{h}}); // fed by layer1.out
//         cap.step(step);                                   // writes this step
//     }
//
// It writes what the Python capture writes (docs/reference/fingerprint.md): the fingerprint log
// RUN/[rank<R>/]dumpscope-fingerprints.jsonl and, in full mode, RUN/[rank<R>/]step_<N>.safetensors
// with the step's tensors in the order they were added. Each buffer's fingerprint is computed when
// it is added, from the host memory given (there is no device fingerprint here: copy a GPU tensor
// to the host first). Errors throw std::runtime_error naming the file.
#include "dumpscope/fingerprint.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dumpscope {

enum class CaptureMode {
    full, // every step's tensors and their fingerprints
    hash, // fingerprints only: a few bytes per buffer
};

struct CaptureOptions {
    CaptureMode mode = CaptureMode::full;
    // Set: the run's rank<R>/ folder, and the log's "rank"; none: the run's own folder, "rank":
    // null.
    std::optional<std::uint64_t> rank;
    std::string writer = "dumpscope capture.h 1"; // the log's "writer"
};

namespace capture_detail {

struct TypeInfo {
    std::string_view name, safetensors;
    std::size_t size;
};

// dumpscope's element types and safetensors' names for them.
inline const TypeInfo* typeInfo(std::string_view name) {
    static constexpr TypeInfo types[] = {
        {"f16", "F16", 2},         {"bf16", "BF16", 2},       {"f32", "F32", 4}, {"f64", "F64", 8},
        {"i8", "I8", 1},           {"u8", "U8", 1},           {"i16", "I16", 2}, {"u16", "U16", 2},
        {"i32", "I32", 4},         {"u32", "U32", 4},         {"i64", "I64", 8}, {"u64", "U64", 8},
        {"f8_e4m3", "F8_E4M3", 1}, {"f8_e5m2", "F8_E5M2", 1},
    };
    for (const TypeInfo& t : types)
        if (t.name == name) return &t;
    return nullptr;
}

template <typename T> constexpr const char* typeNameOf() {
    if constexpr (std::is_same_v<T, float>)
        return "f32";
    else if constexpr (std::is_same_v<T, double>)
        return "f64";
    else if constexpr (std::is_same_v<T, std::int8_t>)
        return "i8";
    else if constexpr (std::is_same_v<T, std::uint8_t>)
        return "u8";
    else if constexpr (std::is_same_v<T, std::int16_t>)
        return "i16";
    else if constexpr (std::is_same_v<T, std::uint16_t>)
        return "u16";
    else if constexpr (std::is_same_v<T, std::int32_t>)
        return "i32";
    else if constexpr (std::is_same_v<T, std::uint32_t>)
        return "u32";
    else if constexpr (std::is_same_v<T, std::int64_t>)
        return "i64";
    else if constexpr (std::is_same_v<T, std::uint64_t>)
        return "u64";
    else
        static_assert(sizeof(T) == 0, "no dumpscope type for this element type: name it");
}

// Well-formed UTF-8, as JSON needs: a name that is not is refused rather than written broken.
inline bool validUtf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t n = c < 0x80         ? 1
                        : (c >> 5) == 6  ? 2
                        : (c >> 4) == 14 ? 3
                        : (c >> 3) == 30 ? 4
                                         : 0;
        if (n == 0 || i + n > s.size() || (n == 2 && c < 0xc2) || (n == 4 && c > 0xf4))
            return false;
        std::uint32_t cp = n == 1 ? c : c & (0x7f >> n);
        for (std::size_t k = 1; k < n; ++k) {
            const auto d = static_cast<unsigned char>(s[i + k]);
            if ((d >> 6) != 2) return false;
            cp = (cp << 6) | (d & 0x3f);
        }
        if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
            (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
            return false;
        i += n;
    }
    return true;
}

// A JSON string: quotes, backslashes and control characters escaped, UTF-8 kept as it is.
inline std::string jsonString(std::string_view s) {
    std::string out = "\"";
    for (char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (ch == '"' || ch == '\\') {
            out += '\\';
            out += ch;
        } else if (c < 0x20) {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\u%04x", c);
            out += esc;
        } else {
            out += ch;
        }
    }
    return out + "\"";
}

inline std::string jsonList(const std::vector<std::uint64_t>& values) {
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
        out += (i ? "," : "") + std::to_string(values[i]);
    return out + "]";
}

[[noreturn]] inline void fail(const std::filesystem::path& path, const std::string& what) {
    throw std::runtime_error(path.string() + ": " + what + ": " + std::strerror(errno));
}

// The whole of `n` bytes, EINTR and short writes continued.
inline void writeAll(int fd, const void* data, std::size_t n, const std::filesystem::path& path) {
    const auto* p = static_cast<const char*>(data);
    while (n > 0) {
        const ssize_t w = ::write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) fail(path, "cannot write");
        p += w;
        n -= static_cast<std::size_t>(w);
    }
}

// Writes `parts` to `path` through a temporary file beside it, fsync and rename, so that a
// reader sees the old file or the whole new one, never a part.
inline void writeAtomically(const std::filesystem::path& path,
                            const std::vector<std::string_view>& parts) {
    const std::filesystem::path temp =
        path.parent_path() / ("." + path.filename().string() + ".tmp");
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) fail(temp, "cannot create");
    try {
        for (std::string_view part : parts)
            writeAll(fd, part.data(), part.size(), temp);
        if (::fsync(fd) != 0) fail(temp, "cannot sync");
    } catch (...) {
        ::close(fd);
        ::unlink(temp.c_str());
        throw;
    }
    ::close(fd);
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(temp.c_str());
        errno = err;
        fail(path, "cannot rename the temporary file to it");
    }
}

} // namespace capture_detail

class Capture {
  public:
    // Starts capturing into `run` (created if missing). Its fingerprint log is started afresh:
    // a capture into the folder of an earlier one replaces that one's log.
    explicit Capture(std::filesystem::path run, CaptureOptions options = {})
        : m_options(std::move(options)) {
        m_dir = m_options.rank ? run / ("rank" + std::to_string(*m_options.rank)) : run;
        std::error_code ec;
        std::filesystem::create_directories(m_dir, ec);
        if (ec) throw std::runtime_error(m_dir.string() + ": cannot create: " + ec.message());
        m_log = m_dir / "dumpscope-fingerprints.jsonl";
        const std::string header =
            std::string("{\"format\":\"dumpscope-fingerprints\",\"version\":1,") +
            "\"fingerprint\":\"dsfp1\",\"mode\":" +
            (m_options.mode == CaptureMode::full ? "\"full\"" : "\"hash\"") +
            ",\"rank\":" + (m_options.rank ? std::to_string(*m_options.rank) : "null") +
            ",\"writer\":" + capture_detail::jsonString(m_options.writer) + "}\n";
        capture_detail::writeAtomically(m_log, {header});
    }
    Capture(const Capture&) = delete;
    Capture& operator=(const Capture&) = delete;

    // Adds a buffer to the step being captured, in production order: `data` holds its elements
    // contiguous in C order of `shape` (outermost first; {} for a scalar), as the host stores
    // them (little-endian). `dtype` is dumpscope's type name: f16, bf16, f32, f64, i8, u8, i16,
    // u16, i32, u32, i64, u64, f8_e4m3, f8_e5m2. `inputs`: what add() returned for the buffers
    // of this step that fed it, or none when something that fed it was not captured.
    // In full mode the bytes are copied; `data` may be reused as soon as add() returns.
    std::size_t add(std::string name, const void* data, std::string_view dtype,
                    std::vector<std::uint64_t> shape,
                    std::optional<std::vector<std::size_t>> inputs = std::nullopt) {
        const capture_detail::TypeInfo* type = capture_detail::typeInfo(dtype);
        if (!type)
            throw std::invalid_argument("dumpscope::Capture: unknown dtype \"" +
                                        std::string(dtype) + "\" for \"" + name + "\"");
        if (name.empty() || name == "__metadata__" || !capture_detail::validUtf8(name))
            throw std::invalid_argument("dumpscope::Capture: \"" + name +
                                        "\" is not a buffer name (empty, __metadata__ or not "
                                        "UTF-8)");
        if (!m_names.insert(name).second)
            throw std::invalid_argument("dumpscope::Capture: \"" + name +
                                        "\" added twice to one step");
        if (inputs)
            for (std::size_t i : *inputs)
                if (i >= m_buffers.size())
                    throw std::invalid_argument("dumpscope::Capture: input " + std::to_string(i) +
                                                " of \"" + name + "\" is not an earlier buffer");
        std::uint64_t count = 1;
        for (std::uint64_t d : shape) {
            if (d != 0 && count > UINT64_MAX / type->size / d)
                throw std::invalid_argument("dumpscope::Capture: the shape of \"" + name +
                                            "\" holds more bytes than 64 bits count");
            count *= d;
        }
        const auto bytes = static_cast<std::size_t>(count * type->size);
        Buffer b{std::move(name),   type,          std::move(shape),     fingerprintOf(data, bytes),
                 std::move(inputs), m_data.size(), m_data.size() + bytes};
        if (m_options.mode == CaptureMode::full)
            m_data.append(static_cast<const char*>(data), bytes);
        m_buffers.push_back(std::move(b));
        return m_buffers.size() - 1;
    }

    // The same, the type named by the element type (float, double, the <cstdint> integers).
    template <typename T>
    std::size_t add(std::string name, const T* data, std::vector<std::uint64_t> shape,
                    std::optional<std::vector<std::size_t>> inputs = std::nullopt) {
        return add(std::move(name), static_cast<const void*>(data), capture_detail::typeNameOf<T>(),
                   std::move(shape), std::move(inputs));
    }

    // Writes the buffers added since the last step as step `n` (each step at most once): in full
    // mode step_<n>.safetensors (atomically), then one line of the log, in one write, synced.
    void step(std::uint64_t n) {
        if (!m_steps.insert(n).second)
            throw std::invalid_argument("dumpscope::Capture: step " + std::to_string(n) +
                                        " written twice");
        std::string file = "null";
        if (m_options.mode == CaptureMode::full && !m_buffers.empty()) {
            const std::string name = "step_" + std::to_string(n) + ".safetensors";
            writeSafetensors(m_dir / name);
            file = capture_detail::jsonString(name);
        }
        std::string line =
            "{\"step\":" + std::to_string(n) + ",\"file\":" + file + ",\"buffers\":[";
        for (std::size_t i = 0; i < m_buffers.size(); ++i) {
            const Buffer& b = m_buffers[i];
            line += (i ? "," : "") + std::string("[") + capture_detail::jsonString(b.name) + ",\"" +
                    std::string(b.type->name) + "\"," + capture_detail::jsonList(b.shape) + ",\"" +
                    fingerprintHex(b.fingerprint) + "\",";
            if (b.inputs)
                line += capture_detail::jsonList({b.inputs->begin(), b.inputs->end()});
            else
                line += "null";
            line += "]";
        }
        line += "]}\n";
        appendLine(line);
        m_buffers.clear();
        m_names.clear();
        m_data.clear();
    }

    const std::filesystem::path& folder() const { return m_dir; }
    const std::filesystem::path& logPath() const { return m_log; }

  private:
    struct Buffer {
        std::string name;
        const capture_detail::TypeInfo* type;
        std::vector<std::uint64_t> shape;
        std::uint64_t fingerprint;
        std::optional<std::vector<std::size_t>> inputs;
        std::size_t begin, end; // in m_data
    };

    // safetensors: the header's length (8 bytes, little-endian), the JSON header padded with
    // spaces to a multiple of 8, then the tensors' bytes in the order they were added.
    void writeSafetensors(const std::filesystem::path& path) const {
        std::string header = "{";
        for (std::size_t i = 0; i < m_buffers.size(); ++i) {
            const Buffer& b = m_buffers[i];
            header += (i ? "," : "") + capture_detail::jsonString(b.name) + ":{\"dtype\":\"" +
                      std::string(b.type->safetensors) +
                      "\",\"shape\":" + capture_detail::jsonList(b.shape) + ",\"data_offsets\":[" +
                      std::to_string(b.begin) + "," + std::to_string(b.end) + "]}";
        }
        header += "}";
        header.append((8 - header.size() % 8) % 8, ' ');
        char length[8];
        for (int i = 0; i < 8; ++i)
            length[i] = static_cast<char>(static_cast<std::uint64_t>(header.size()) >> (8 * i));
        capture_detail::writeAtomically(path, {std::string_view(length, 8), header, m_data});
    }

    // One write of the whole line, so that a reader sees it whole or (a job killed inside the
    // write) cut short, which it refuses by line.
    void appendLine(const std::string& line) const {
        const int fd = ::open(m_log.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
        if (fd < 0) capture_detail::fail(m_log, "cannot open");
        ssize_t w;
        do
            w = ::write(fd, line.data(), line.size());
        while (w < 0 && errno == EINTR);
        const bool whole = w == static_cast<ssize_t>(line.size());
        const int err = w >= 0 && !whole ? EIO : errno;
        const bool synced = whole && ::fdatasync(fd) == 0;
        ::close(fd);
        errno = err;
        if (!whole) capture_detail::fail(m_log, "cannot append a whole line");
        if (!synced) capture_detail::fail(m_log, "cannot sync");
    }

    CaptureOptions m_options;
    std::filesystem::path m_dir, m_log;
    std::vector<Buffer> m_buffers;
    std::set<std::string> m_names;
    std::set<std::uint64_t> m_steps;
    std::string m_data; // full mode: the step's tensors, in add order
};

} // namespace dumpscope

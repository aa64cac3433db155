#include "io/fingerprint_log.h"

#include "dumpscope/fingerprint.h"
#include "io/regular_file.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <map>
#include <set>

#include <sys/stat.h>
#include <unistd.h>

namespace dumpscope::detail {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Thrown with the reason, caught where the line number is known.
struct Refusal {
    std::string why;
};

std::uint64_t unsignedOf(const json& v, const char* what) {
    if (!v.is_number_unsigned())
        throw Refusal{std::string(what) + " is not a non-negative integer"};
    return v.get<std::uint64_t>();
}

const json& field(const json& object, const char* key) {
    const auto it = object.find(key);
    if (it == object.end()) throw Refusal{std::string("no \"") + key + "\""};
    return *it;
}

std::string jsonQuoted(const std::string& s) {
    return json(s).dump(-1, ' ', true, json::error_handler_t::replace);
}

void readHeader(const json& line, FingerprintLog& log) {
    const json& format = field(line, "format");
    if (format != "dumpscope-fingerprints")
        throw Refusal{"not a dumpscope fingerprint log (format " + format.dump() + ")"};
    const json& version = field(line, "version");
    if (version != 1)
        throw Refusal{"version " + version.dump() +
                      " of the fingerprint log; this dumpscope reads 1"};
    const json& fp = field(line, "fingerprint");
    if (fp != "dsfp1")
        throw Refusal{"fingerprint " + fp.dump() + "; this dumpscope computes dsfp1"};
    const json& mode = field(line, "mode");
    if (mode != "full" && mode != "hash" && mode != "auto")
        throw Refusal{"mode " + mode.dump() + " is not \"full\", \"hash\" or \"auto\""};
    log.mode = mode.get<std::string>();
    const json& rank = field(line, "rank");
    if (!rank.is_null()) log.rank = unsignedOf(rank, "rank");
}

LoggedBuffer readBuffer(const json& entry, std::size_t index, std::set<std::string>& names) {
    const std::string at = "buffer " + std::to_string(index);
    if (!entry.is_array() || entry.size() != 5)
        throw Refusal{at + " is not [name, dtype, shape, fingerprint, inputs]"};
    LoggedBuffer b;
    if (!entry[0].is_string() || entry[0].get<std::string>().empty())
        throw Refusal{at + ": the name is not a non-empty string"};
    b.name = entry[0].get<std::string>();
    if (!names.insert(b.name).second)
        throw Refusal{"buffer " + jsonQuoted(b.name) + " is written twice in the step"};
    const std::string named = "buffer " + jsonQuoted(b.name);
    if (!entry[1].is_string() || entry[1].get<std::string>().empty())
        throw Refusal{named + ": the dtype is not a non-empty string"};
    b.typeName = entry[1].get<std::string>();
    // A bool is one byte, 0 or 1, compared as u8: as safetensors' BOOL and numpy's |b1 are
    // listed, so that a log and its step's file agree on the type.
    b.dtype = b.typeName == "bool" ? std::optional<DType>(DType::u8) : parseDType(b.typeName);
    if (!entry[2].is_array()) throw Refusal{named + ": the shape is not a list"};
    for (const json& d : entry[2]) {
        const std::uint64_t dim = unsignedOf(d, (named + ": a dimension").c_str());
        if (dim != 0 && b.count > UINT64_MAX / dim)
            throw Refusal{named + ": the shape's element count overflows 64 bits"};
        b.count *= dim;
        b.shape.push_back(dim);
    }
    const auto fp =
        entry[3].is_string() ? parseFingerprintHex(entry[3].get<std::string>()) : std::nullopt;
    if (!fp)
        throw Refusal{named + ": the fingerprint " + entry[3].dump() +
                      " is not 16 lowercase hexadecimal digits"};
    b.fingerprint = *fp;
    if (!entry[4].is_null()) {
        if (!entry[4].is_array()) throw Refusal{named + ": the inputs are neither a list nor null"};
        b.inputs.emplace();
        for (const json& i : entry[4]) {
            if (!i.is_number_unsigned() || i.get<std::uint64_t>() >= index)
                throw Refusal{named + ": input " + i.dump() +
                              " is not the index of an earlier buffer of the step"};
            b.inputs->push_back(static_cast<std::size_t>(i.get<std::uint64_t>()));
        }
    }
    return b;
}

LoggedStep readStep(const json& line, std::size_t lineNo) {
    LoggedStep s;
    s.line = lineNo;
    s.step = unsignedOf(field(line, "step"), "\"step\"");
    const json& file = field(line, "file");
    if (!file.is_null()) {
        if (!file.is_string() || file.get<std::string>().empty())
            throw Refusal{"\"file\" is neither a file name nor null"};
        s.file = file.get<std::string>();
        const fs::path p(s.file);
        // The file lies beside the log: a path out of the run is never opened on a log's word.
        if (p.is_absolute() || s.file.find('\\') != std::string::npos)
            throw Refusal{"\"file\" " + jsonQuoted(s.file) + " is not a path relative to the log"};
        for (const auto& part : p)
            if (part == "..")
                throw Refusal{"\"file\" " + jsonQuoted(s.file) + " leads out of the log's folder"};
    }
    const json& buffers = field(line, "buffers");
    if (!buffers.is_array()) throw Refusal{"\"buffers\" is not a list"};
    std::set<std::string> names;
    for (std::size_t i = 0; i < buffers.size(); ++i)
        s.buffers.push_back(readBuffer(buffers[i], i, names));
    return s;
}

} // namespace

FingerprintLog parseFingerprintLog(std::string_view text, const std::string& name,
                                   std::string& error) {
    FingerprintLog log;
    std::map<std::uint64_t, std::size_t> stepLines;
    std::size_t lineNo = 0;
    auto refuse = [&](const std::string& why) {
        error = name + ": line " + std::to_string(lineNo) + ": " + why;
        return FingerprintLog{};
    };
    if (text.empty()) {
        lineNo = 1;
        return refuse("empty: a fingerprint log starts with its header line");
    }
    std::size_t at = 0;
    while (at < text.size()) {
        ++lineNo;
        const std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos)
            return refuse("cut short: the last line has no newline (a write was interrupted)");
        const std::string_view line = text.substr(at, end - at);
        at = end + 1;
        const json value = json::parse(line.begin(), line.end(), nullptr, false);
        if (value.is_discarded() || !value.is_object()) return refuse("not a JSON object");
        try {
            if (lineNo == 1) {
                readHeader(value, log);
                continue;
            }
            LoggedStep step = readStep(value, lineNo);
            if (const auto [it, added] = stepLines.emplace(step.step, lineNo); !added)
                return refuse("step " + std::to_string(step.step) +
                              " is written twice (first on line " + std::to_string(it->second) +
                              ")");
            log.steps.push_back(std::move(step));
        } catch (const Refusal& r) {
            return refuse(r.why);
        } catch (const json::exception& e) {
            return refuse(std::string("unexpected value: ") + e.what());
        }
    }
    return log;
}

FingerprintLog readFingerprintLog(const fs::path& path, std::string& error) {
    RegularFile file = openRegularFile(path);
    if (!file.isOpen()) {
        error = path.string() + ": " + file.error();
        return {};
    }
    std::string text;
    text.resize(static_cast<std::size_t>(file.status().st_size));
    std::size_t got = 0;
    while (got < text.size()) {
        const ssize_t n =
            ::pread(file.fd(), text.data() + got, text.size() - got, static_cast<off_t>(got));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            error = path.string() + ": read error at byte " + std::to_string(got) + ": " +
                    std::strerror(errno);
            return {};
        }
        if (n == 0) break; // shrank since the stat: what is there is read, and judged
        got += static_cast<std::size_t>(n);
    }
    text.resize(got);
    return parseFingerprintLog(text, path.string(), error);
}

} // namespace dumpscope::detail

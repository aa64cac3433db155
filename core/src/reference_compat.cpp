// Reference-compatible mode: compare-backward-state.py reproduced byte for byte, including the
// weaknesses the default mode fixes (value equality, steps 0-3 only, one-sided buffers skipped,
// max|Δ| over the first five differences). Users drop `--reference-compat` into scripts that
// parse the script's output, so every character, and the exit code, must stay the same.
#include "dumpscope/reference_compat.h"

#include "dumpscope/reference_text.h"
#include "dumpscope/schema.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <ostream>
#include <set>
#include <stdexcept>
#include <system_error>
#include <vector>

#include <sys/stat.h>

namespace dumpscope {

namespace {

// --- Python's text forms ------------------------------------------------------------------

// repr() of a str as the reference prints names inside a list: single quotes unless the text
// holds a single quote and no double quote, escapes for quotes, backslash and control bytes.
std::string pythonStrRepr(const std::string& s) {
    const bool hasSingle = s.find('\'') != std::string::npos;
    const bool hasDouble = s.find('"') != std::string::npos;
    const char quote = (hasSingle && !hasDouble) ? '"' : '\'';
    std::string r(1, quote);
    for (unsigned char c : s) {
        if (c == static_cast<unsigned char>(quote) || c == '\\') {
            r += '\\';
            r += static_cast<char>(c);
        } else if (c == '\n') {
            r += "\\n";
        } else if (c == '\r') {
            r += "\\r";
        } else if (c == '\t') {
            r += "\\t";
        } else if (c < 0x20 || c == 0x7f) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            r += hex;
        } else {
            r += static_cast<char>(c); // UTF-8 bytes of printable characters pass through
        }
    }
    r += quote;
    return r;
}

// repr() of a list of str: "['a', 'b']".
std::string pythonListRepr(const std::vector<std::string>& items) {
    std::string r = "[";
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i) r += ", ";
        r += pythonStrRepr(items[i]);
    }
    return r + "]";
}

// str(Path(dir) / name): pathlib drops the separator after "." and after a bare root.
std::string joinPythonPath(const std::string& dirStr, const std::string& name) {
    if (dirStr == ".") return name;
    if (!dirStr.empty() && dirStr.back() == '/') return dirStr + name; // "/" or "//"
    return dirStr + "/" + name;
}

// --- pathlib's is_dir() / is_file() ------------------------------------------------------

// Both follow symlinks (stat, not lstat); a missing or unreachable path is simply false.
bool statMode(const std::string& path, mode_t& mode) {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) return false;
    mode = st.st_mode;
    return true;
}
bool pythonIsDir(const std::string& path) {
    mode_t m = 0;
    return statMode(path, m) && S_ISDIR(m);
}
bool pythonIsFile(const std::string& path) {
    mode_t m = 0;
    return statMode(path, m) && S_ISREG(m);
}

// --- Reading and comparing one buffer pair, streamed ---------------------------------------

constexpr std::size_t kElemSize = 4; // the reference's 'f' and 'i' are both four bytes
constexpr std::size_t kChunkElems = 16384;
constexpr std::size_t kMaxDiffs = 5;  // the reference stops counting here
constexpr std::size_t kShownDiffs = 3;

struct Element {
    float f = 0;
    std::int32_t i = 0;
};

Element decode(DType t, const unsigned char* p) {
    // Dumps are little-endian by definition; assemble explicitly so the host order is moot.
    const std::uint32_t bits = static_cast<std::uint32_t>(p[0]) |
                               (static_cast<std::uint32_t>(p[1]) << 8) |
                               (static_cast<std::uint32_t>(p[2]) << 16) |
                               (static_cast<std::uint32_t>(p[3]) << 24);
    Element e;
    if (t == DType::f32)
        std::memcpy(&e.f, &bits, sizeof e.f);
    else
        std::memcpy(&e.i, &bits, sizeof e.i);
    return e;
}

// The reference only knows struct formats 'f' and 'i'.
void requireReferenceDType(const BufferSpec& spec) {
    if (spec.dtype != DType::f32 && spec.dtype != DType::i32)
        throw std::logic_error("reference-compat: buffer " + spec.name +
                               " is neither f32 nor i32, which the reference cannot read");
}

// read_typed()'s size check, with its message. Python reads the whole file and measures
// len(data); for a regular file that is its size, so the size is all we need up front.
std::optional<std::string> raggedError(const std::string& pathStr, std::uint64_t& size) {
    struct stat st{};
    if (::stat(pathStr.c_str(), &st) != 0)
        throw std::runtime_error(pathStr + ": cannot stat: " + std::strerror(errno));
    size = static_cast<std::uint64_t>(st.st_size);
    if (size % kElemSize == 0) return std::nullopt;
    return pathStr + ": size " + std::to_string(size) + " not a multiple of " +
           std::to_string(kElemSize);
}

std::string elementRepr(DType t, const Element& e) {
    return t == DType::f32 ? pythonFloatRepr(static_cast<double>(e.f)) : std::to_string(e.i);
}

// compare_lists() for two files of the same element count, reading both in lockstep chunks
// and stopping at the fifth difference as the reference does.
std::string compareStreams(const BufferSpec& spec, const std::string& pathA,
                           const std::string& pathB, std::uint64_t n, bool& equal) {
    std::ifstream fa(pathA, std::ios::binary), fb(pathB, std::ios::binary);
    if (!fa || !fb) throw std::runtime_error("cannot open " + (fa ? pathB : pathA));
    std::vector<unsigned char> bufA(kChunkElems * kElemSize), bufB(kChunkElems * kElemSize);
    struct Diff {
        std::uint64_t index;
        Element a, b;
    };
    std::vector<Diff> diffs;
    double maxAbsDelta = 0.0;
    for (std::uint64_t base = 0; base < n && diffs.size() < kMaxDiffs; base += kChunkElems) {
        const auto count = static_cast<std::size_t>(std::min<std::uint64_t>(kChunkElems, n - base));
        const auto bytes = static_cast<std::streamsize>(count * kElemSize);
        if (!fa.read(reinterpret_cast<char*>(bufA.data()), bytes) ||
            !fb.read(reinterpret_cast<char*>(bufB.data()), bytes))
            throw std::runtime_error("short read in " + (fa ? pathB : pathA));
        for (std::size_t k = 0; k < count && diffs.size() < kMaxDiffs; ++k) {
            const Element a = decode(spec.dtype, bufA.data() + k * kElemSize);
            const Element b = decode(spec.dtype, bufB.data() + k * kElemSize);
            // Python compares the values as doubles / ints: NaN != NaN, -0.0 == 0.0.
            const double x = spec.dtype == DType::f32 ? static_cast<double>(a.f) : a.i;
            const double y = spec.dtype == DType::f32 ? static_cast<double>(b.f) : b.i;
            if (!(x != y)) continue;
            diffs.push_back({base + k, a, b});
            const double ad = std::fabs(x - y); // NaN never exceeds the running max
            if (ad > maxAbsDelta) maxAbsDelta = ad;
        }
    }
    equal = diffs.empty();
    if (equal) return spec.name + ": EQUAL (" + std::to_string(n) + " elements)";
    std::string sample;
    for (std::size_t k = 0; k < diffs.size() && k < kShownDiffs; ++k) {
        if (k) sample += ", ";
        sample += "[" + std::to_string(diffs[k].index) + "]: A=" +
                  elementRepr(spec.dtype, diffs[k].a) + " B=" + elementRepr(spec.dtype, diffs[k].b);
    }
    return spec.name + ": DIVERGE at idx " + std::to_string(diffs.front().index) +
           " max|Δ|=" + pythonFormatG6(maxAbsDelta) + " (showing up to 3): " + sample;
}

// --- The verdict, as main() prints it after the per-step loop ----------------------------

struct GroupOutcome {
    std::vector<std::string> divergent; // names, schema order
    bool present = false;
};

bool has(const std::set<std::string>& ids, const char* id) { return ids.count(id) != 0; }

int printVerdict(const Schema& schema, std::uint64_t step, const std::set<std::string>& ids,
                 const std::vector<GroupOutcome>& atStep, std::ostream& out) {
    std::vector<std::string> labels;
    for (const auto& g : schema.groups)
        if (ids.count(g.id)) labels.push_back(g.label);
    std::sort(labels.begin(), labels.end()); // sorted(set) of str: code point order = UTF-8 bytes
    out << "VERDICT (first divergent step = " << step << "):\n";
    out << "  diverged group(s): " << pythonListRepr(labels) << "\n\n";
    out << "Per-group culprit table:\n";
    for (std::size_t g = 0; g < schema.groups.size(); ++g) {
        out << "  Group " << schema.groups[g].label << ": ";
        if (!atStep[g].divergent.empty())
            out << "DIVERGE in " << pythonListRepr(atStep[g].divergent) << "\n";
        else
            out << (atStep[g].present ? "EQUAL" : "(no dump)") << "\n";
    }
    out << "\nNext-step interpretation (per Phase 2.6 decision tree):\n";
    if (ids.size() == 1 && has(ids, "G")) {
        out << reference_text::gOnly() << "\n";
        return 1;
    }
    if (has(ids, "H") && !has(ids, "G")) {
        out << reference_text::hWithoutG() << "\n";
        return 1;
    }
    if (has(ids, "I"))
        out << reference_text::iDiverges() << "\n";
    else if (has(ids, "J"))
        out << reference_text::jWithoutI() << "\n";
    if (!has(ids, "I") && !has(ids, "J") && !ids.empty()) {
        out << reference_text::unexpected() << "\n";
        return 1;
    }
    out << reference_text::crossCheck() << "\n";
    return 1;
}

} // namespace

int runReferenceCompat(const std::string& runA, const std::string& runB, std::ostream& out,
                       std::ostream& err) {
    const std::string dirA = pythonPathStr(runA), dirB = pythonPathStr(runB);
    if (!pythonIsDir(dirA) || !pythonIsDir(dirB)) {
        err << "ERROR: run dirs missing: " << dirA << " or " << dirB << "\n";
        return 2;
    }
    const Schema& schema = defaultSchema();
    for (const auto& g : schema.groups)
        for (const auto& b : g.buffers) requireReferenceDType(b);

    bool anyDiverge = false;
    std::optional<std::uint64_t> firstStep;
    std::set<std::string> firstIds;
    std::vector<GroupOutcome> firstOutcomes;
    for (std::uint64_t step = 0; step <= 3; ++step) {
        out << "=== step " << step << " ===\n";
        bool anyPresent = false;
        std::set<std::string> stepIds;
        std::vector<GroupOutcome> outcomes(schema.groups.size());
        for (std::size_t g = 0; g < schema.groups.size(); ++g) {
            const GroupSpec& group = schema.groups[g];
            out << "  -- group " << group.label << " --\n";
            for (const BufferSpec& spec : group.buffers) {
                const std::string file = "step_" + std::to_string(step) + "_" + spec.file + ".bin";
                const std::string pa = joinPythonPath(dirA, file), pb = joinPythonPath(dirB, file);
                if (!(pythonIsFile(pa) && pythonIsFile(pb))) continue;
                outcomes[g].present = true;
                anyPresent = true;
                std::uint64_t sizeA = 0, sizeB = 0;
                // Python reads A completely before B, so A's error wins when both are ragged.
                auto bad = raggedError(pa, sizeA);
                if (!bad) bad = raggedError(pb, sizeB);
                if (bad) {
                    out << "    ERROR reading " << spec.name << ": " << *bad << "\n";
                    return 2;
                }
                const std::uint64_t nA = sizeA / kElemSize, nB = sizeB / kElemSize;
                bool equal = false;
                std::string summary;
                if (nA != nB)
                    summary = spec.name + ": length mismatch A=" + std::to_string(nA) +
                              " B=" + std::to_string(nB);
                else
                    summary = compareStreams(spec, pa, pb, nA, equal);
                out << "    " << summary << "\n";
                if (!equal) {
                    anyDiverge = true;
                    stepIds.insert(group.id);
                    outcomes[g].divergent.push_back(spec.name);
                }
            }
            if (!outcomes[g].present) out << "    SKIP — no buffers dumped for this group/step\n";
        }
        if (!anyPresent) {
            out << "  SKIP — no buffers dumped for this step\n";
            continue;
        }
        if (!stepIds.empty() && !firstStep) {
            firstStep = step;
            firstIds = stepIds;
            firstOutcomes = outcomes;
        }
    }

    out << "\n";
    if (!anyDiverge) {
        out << reference_text::allEqual() << "\n";
        return 0;
    }
    return printVerdict(schema, *firstStep, firstIds, firstOutcomes, out);
}

std::string pythonFloatRepr(double value) {
    if (std::isnan(value)) return "nan"; // Python drops NaN's sign
    if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
    // Shortest round-trip digits and exponent ("d.ddde±XX"), then Python's layout rules.
    std::array<char, 64> buf{};
    auto res = std::to_chars(buf.data(), buf.data() + buf.size(), value,
                             std::chars_format::scientific);
    std::string sci(buf.data(), res.ptr);
    std::string sign;
    if (sci.front() == '-') {
        sign = "-";
        sci.erase(0, 1);
    }
    const auto ePos = sci.find('e');
    std::string digits = sci.substr(0, ePos);
    digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
    const int exp10 = std::stoi(sci.substr(ePos + 1)); // value = d.ddd × 10^exp10
    // float_repr_style 'short': exponent form when exp10 < -4 or exp10 >= 16.
    if (exp10 < -4 || exp10 >= 16) {
        std::string mant = digits.substr(0, 1);
        if (digits.size() > 1) mant += "." + digits.substr(1);
        char e[16];
        std::snprintf(e, sizeof e, "e%c%02d", exp10 < 0 ? '-' : '+', std::abs(exp10));
        return sign + mant + e;
    }
    const int pointPos = exp10 + 1; // digits before the decimal point
    if (pointPos <= 0) return sign + "0." + std::string(static_cast<std::size_t>(-pointPos), '0') + digits;
    const auto p = static_cast<std::size_t>(pointPos);
    if (p >= digits.size()) return sign + digits + std::string(p - digits.size(), '0') + ".0";
    return sign + digits.substr(0, p) + "." + digits.substr(p);
}

std::string pythonFormatG6(double value) {
    if (std::isnan(value)) return "nan"; // glibc would print "-nan" for a negative NaN
    // C's %g and Python's 'g' share the rules (exponent below -4 or at/above the precision,
    // trailing zeros stripped, two-digit exponent), and both round correctly.
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", value);
    return buf;
}

std::string pythonPathStr(const std::string& arg) {
    // PurePosixPath: exactly two leading slashes are kept (POSIX leaves "//" implementation
    // defined), one or three-plus collapse to "/"; empty and "." components vanish; ".." stays.
    std::string root;
    std::size_t leading = 0;
    while (leading < arg.size() && arg[leading] == '/') ++leading;
    if (leading == 2)
        root = "//";
    else if (leading > 0)
        root = "/";
    std::string rel;
    std::size_t pos = leading;
    while (pos <= arg.size()) {
        std::size_t next = arg.find('/', pos);
        if (next == std::string::npos) next = arg.size();
        const std::string part = arg.substr(pos, next - pos);
        if (!part.empty() && part != ".") {
            if (!rel.empty()) rel += '/';
            rel += part;
        }
        pos = next + 1;
    }
    if (root.empty() && rel.empty()) return ".";
    return root + rel;
}

} // namespace dumpscope

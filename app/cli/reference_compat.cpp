// Reference-compatible mode: compare-backward-state.py reproduced byte for byte, including the
// weaknesses the default mode fixes (value equality, steps 0-3 only, one-sided buffers skipped,
// max|Δ| over the first five differences). Users drop `--reference-compat` into scripts that
// parse the script's output, so every character, and the exit code, must stay the same.
#include "reference_compat.h"

#include "dumpscope/reference_text.h"
#include "dumpscope/schema.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <ostream>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dumpscope {

namespace {

// --- Python's text forms (the rest are in reference_compat_python.cpp) ---------------------

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

// --- Where the reference dies with a traceback ---------------------------------------------

// An OSError the script does not catch: Python prints a traceback and exits with 1. We print
// its last line (the one a wrapper script might grep), not the traceback's frames, which name
// the interpreter's own files and lines.
struct PythonOSError {
    int err;
    std::string path;
};

std::string pythonOSErrorLine(const PythonOSError& e) {
    const char* type = "OSError"; // the subclasses CPython picks for these errno values
    switch (e.err) {
    case EACCES:
    case EPERM:
        type = "PermissionError";
        break;
    case ENOENT:
        type = "FileNotFoundError";
        break;
    case EISDIR:
        type = "IsADirectoryError";
        break;
    case ENOTDIR:
        type = "NotADirectoryError";
        break;
    case EINTR:
        type = "InterruptedError";
        break;
    case EAGAIN:
        type = "BlockingIOError";
        break;
    case ETIMEDOUT:
        type = "TimeoutError";
        break;
    default:
        break;
    }
    return std::string(type) + ": [Errno " + std::to_string(e.err) + "] " + std::strerror(e.err) +
           ": " + pythonStrRepr(e.path);
}

// --- pathlib's is_dir() / is_file() (Python 3.8-3.12) ------------------------------------

// stat() follows symlinks. ENOENT, ENOTDIR, EBADF and ELOOP mean "no"; any other failure
// (EACCES on a parent, ENAMETOOLONG) propagates out of the script.
bool pythonStatIs(const std::string& path, bool wantDir) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR || errno == EBADF || errno == ELOOP) return false;
        throw PythonOSError{errno, path};
    }
    return wantDir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode);
}

// --- Reading and comparing one buffer pair, streamed ---------------------------------------

constexpr std::size_t kElemSize = 4; // the reference's 'f' and 'i' are both four bytes
constexpr std::size_t kChunkElems = 16384;
constexpr std::size_t kMaxDiffs = 5; // the reference stops counting here
constexpr std::size_t kShownDiffs = 3;

// The reference only knows struct formats 'f' and 'i'.
void requireReferenceDType(const BufferSpec& spec) {
    if (spec.dtype != DType::f32 && spec.dtype != DType::i32)
        throw std::logic_error("reference-compat: buffer " + spec.name +
                               " is neither f32 nor i32, which the reference cannot read");
}

// One dump opened as Path.read_bytes() opens it; its size is what len(data) would be.
class DumpFile {
  public:
    explicit DumpFile(std::string path) : m_path(std::move(path)) {
        m_fd = ::open(m_path.c_str(), O_RDONLY | O_CLOEXEC);
        if (m_fd < 0) throw PythonOSError{errno, m_path};
        struct stat st {};
        if (::fstat(m_fd, &st) != 0) throw PythonOSError{errno, m_path};
        m_size = static_cast<std::uint64_t>(st.st_size);
    }
    ~DumpFile() { ::close(m_fd); }
    DumpFile(const DumpFile&) = delete;
    DumpFile& operator=(const DumpFile&) = delete;

    std::uint64_t size() const { return m_size; }
    const std::string& path() const { return m_path; }
    // read_typed()'s ValueError text when the size is ragged.
    std::optional<std::string> raggedError() const {
        if (m_size % kElemSize == 0) return std::nullopt;
        return m_path + ": size " + std::to_string(m_size) + " not a multiple of " +
               std::to_string(kElemSize);
    }
    // Exactly `bytes` bytes, or the error Python's read would have met.
    void readExact(unsigned char* dst, std::size_t bytes) {
        while (bytes > 0) {
            const ssize_t n = ::read(m_fd, dst, bytes);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) throw PythonOSError{n < 0 ? errno : EIO, m_path}; // EOF: truncated under us
            dst += n;
            bytes -= static_cast<std::size_t>(n);
        }
    }

  private:
    std::string m_path;
    int m_fd = -1;
    std::uint64_t m_size = 0;
};

std::uint32_t loadLE32(const unsigned char* p) {
    // Dumps are little-endian by definition; assemble explicitly so the host order is moot.
    return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
           (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}

// The element as Python holds it: float32 widened to a double, or an int (exact in a double).
double valueOf(DType t, std::uint32_t bits) {
    if (t == DType::i32) return static_cast<std::int32_t>(bits);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return static_cast<double>(f);
}

std::string reprOf(DType t, std::uint32_t bits) {
    return t == DType::i32 ? std::to_string(static_cast<std::int32_t>(bits))
                           : pythonFloatRepr(valueOf(t, bits));
}

// Equal bytes are equal values, except a NaN, which Python finds unequal to itself.
bool chunkTriviallyEqual(DType t, const unsigned char* a, const unsigned char* b, std::size_t n) {
    if (std::memcmp(a, b, n * kElemSize) != 0) return false;
    if (t == DType::i32) return true;
    bool nan = false;
    for (std::size_t k = 0; k < n; ++k)
        nan |= (loadLE32(a + k * kElemSize) & 0x7fffffffu) > 0x7f800000u;
    return !nan;
}

// compare_lists() for two files of the same element count, reading both in lockstep chunks
// and stopping at the fifth difference as the reference does.
std::string compareStreams(const BufferSpec& spec, DumpFile& fa, DumpFile& fb, std::uint64_t n,
                           bool& equal) {
    std::vector<unsigned char> bufA(kChunkElems * kElemSize), bufB(kChunkElems * kElemSize);
    struct Diff {
        std::uint64_t index;
        std::uint32_t a, b;
    };
    std::vector<Diff> diffs;
    double maxAbsDelta = 0.0;
    for (std::uint64_t base = 0; base < n && diffs.size() < kMaxDiffs; base += kChunkElems) {
        const auto count = static_cast<std::size_t>(std::min<std::uint64_t>(kChunkElems, n - base));
        fa.readExact(bufA.data(), count * kElemSize);
        fb.readExact(bufB.data(), count * kElemSize);
        if (chunkTriviallyEqual(spec.dtype, bufA.data(), bufB.data(), count)) continue;
        for (std::size_t k = 0; k < count && diffs.size() < kMaxDiffs; ++k) {
            const std::uint32_t a = loadLE32(bufA.data() + k * kElemSize);
            const std::uint32_t b = loadLE32(bufB.data() + k * kElemSize);
            const double x = valueOf(spec.dtype, a), y = valueOf(spec.dtype, b);
            if (!(x != y)) continue; // value equality: NaN != NaN, -0.0 == 0.0
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
        sample += "[" + std::to_string(diffs[k].index) + "]: A=" + reprOf(spec.dtype, diffs[k].a) +
                  " B=" + reprOf(spec.dtype, diffs[k].b);
    }
    return spec.name + ": DIVERGE at idx " + std::to_string(diffs.front().index) +
           " max|Δ|=" + pythonFormatG6(maxAbsDelta) + " (showing up to 3): " + sample;
}

// --- The verdict, as main() prints it after the per-step loop ----------------------------

struct GroupOutcome {
    std::vector<std::string> divergent; // names, schema order
    bool present = false;
};

bool has(const std::set<std::string>& ids, const char* id) {
    return ids.count(id) != 0;
}

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

// main() of the script; an uncaught OSError escapes as PythonOSError.
int compareRuns(const std::string& dirA, const std::string& dirB, std::ostream& out,
                std::ostream& err) {
    // `not a.is_dir() or not b.is_dir()`: B is not even looked at when A is missing.
    if (!pythonStatIs(dirA, true) || !pythonStatIs(dirB, true)) {
        err << "ERROR: run dirs missing: " << pythonStderrText(dirA) << " or "
            << pythonStderrText(dirB) << "\n";
        return 2;
    }
    const Schema& schema = defaultSchema();
    for (const auto& g : schema.groups)
        for (const auto& b : g.buffers)
            requireReferenceDType(b);

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
                if (!(pythonStatIs(pa, false) && pythonStatIs(pb, false))) continue;
                outcomes[g].present = true;
                anyPresent = true;
                // read_typed(pa) runs to completion before read_typed(pb) opens B.
                DumpFile fa(pa);
                auto bad = fa.raggedError();
                std::optional<DumpFile> fb;
                if (!bad) {
                    fb.emplace(pb);
                    bad = fb->raggedError();
                }
                if (bad) {
                    out << "    ERROR reading " << spec.name << ": " << *bad << "\n";
                    return 2;
                }
                const std::uint64_t nA = fa.size() / kElemSize, nB = fb->size() / kElemSize;
                bool equal = false;
                std::string summary;
                if (nA != nB)
                    summary = spec.name + ": length mismatch A=" + std::to_string(nA) +
                              " B=" + std::to_string(nB);
                else
                    summary = compareStreams(spec, fa, *fb, nA, equal);
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

} // namespace

std::string referenceCompatRefusal(const std::vector<std::string>& givenOptions) {
    if (givenOptions.empty()) return {};
    std::string names;
    for (std::size_t i = 0; i < givenOptions.size(); ++i)
        names += (i == 0 ? "" : i + 1 == givenOptions.size() ? " or " : ", ") + givenOptions[i];
    return "--reference-compat prints what compare-backward-state.py prints for two runs, and "
           "the script has no " +
           names + ": leave " + (givenOptions.size() > 1 ? "them" : "it") + " out";
}

int runReferenceCompat(const std::string& runA, const std::string& runB, std::ostream& out,
                       std::ostream& err) {
    try {
        return compareRuns(pythonPathStr(runA), pythonPathStr(runB), out, err);
    } catch (const PythonOSError& e) {
        out.flush(); // what the script printed before dying stays printed
        err << pythonOSErrorLine(e) << "\n";
        return 1;
    }
}

} // namespace dumpscope

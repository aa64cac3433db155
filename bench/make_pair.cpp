// dumpscope-make-pair: writes a big synthetic pair of runs (OUT_DIR/a, OUT_DIR/b) in the
// default schema's layout, so the speed and memory targets can be measured on
// sizes no test fixture carries. Deterministic: the same arguments give the same bytes.
#include "dumpscope/schema.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

namespace fs = std::filesystem;
using dumpscope::DType;

namespace {

constexpr std::uint64_t kMiB = 1ull << 20;
constexpr std::uint64_t kBatch = 256;          // sampled_actions' length: the schema's "batch"
constexpr std::uint64_t kSmallWidth = 64;      // columns of a small [batch, *] buffer
constexpr std::uint64_t kChunkElems = 1 << 20; // elements generated and written per step

// The buffers a production trainer makes huge (per-row weight-grad scratches); every other
// buffer stays a few KiB, as in the real samples.
const std::set<std::string> kLargeBuffers = {"cfc_grad_w_in_scratch", "cfc_grad_w_rec_scratch",
                                             "vsn_grad_w_scratch", "attn_grad_q_scratch"};
// The buffer that becomes the sparse multi-GiB file in --sparse-gib mode.
const std::string kSparseBuffer = "cfc_grad_w_in_scratch";

enum class Pattern { equal, equalHeavy, allDivergent };

struct Options {
    fs::path out;
    std::uint64_t sizeMiB = 256;
    Pattern pattern = Pattern::equalHeavy;
    std::uint64_t steps = 4;
    std::uint64_t seed = 1;
    std::uint64_t sparseBytes = 0; // 0: no sparse buffer
};

// SplitMix64: fast, seedable per buffer, so any buffer's bytes do not depend on the others.
struct Rng {
    std::uint64_t s;
    std::uint64_t next() {
        std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
};

// A plausible gradient: sign, exponent in [2^-20, 2^0), random mantissa. Never 0, NaN or Inf,
// so "a few ULP" stays a few ULP and never crosses into another class of value.
std::uint32_t randomFloatBits(std::uint64_t r) {
    const std::uint32_t sign = static_cast<std::uint32_t>(r >> 63) << 31;
    const std::uint32_t exponent = 107 + static_cast<std::uint32_t>((r >> 32) % 20);
    return sign | (exponent << 23) | static_cast<std::uint32_t>(r & 0x7FFFFF);
}

// Moves a float 1..4 ULP away from itself, or an int by 1..4.
std::uint32_t nudge(std::uint32_t bits, std::uint64_t r, DType dtype) {
    const std::uint32_t d = 1 + static_cast<std::uint32_t>(r & 3);
    if (dtype == DType::f32 && (bits & 0x7FFFFF) < 8) return bits + d; // stay in the binade
    return (r & 4) ? bits + d : bits - d;
}

// Writes all of `data` at `offset`, or dies: a short bench pair would measure nothing.
void writeAt(int fd, const fs::path& path, const void* data, std::size_t n, std::uint64_t offset) {
    const auto* p = static_cast<const unsigned char*>(data);
    while (n > 0) {
        const ssize_t w = ::pwrite(fd, p, n, static_cast<off_t>(offset));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            std::fprintf(stderr, "error: writing %s: %s\n", path.c_str(), std::strerror(errno));
            std::exit(2);
        }
        p += w, n -= static_cast<std::size_t>(w), offset += static_cast<std::uint64_t>(w);
    }
}

int create(const fs::path& path) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        std::fprintf(stderr, "error: cannot create %s: %s\n", path.c_str(), std::strerror(errno));
        std::exit(2);
    }
    return fd;
}

// Fills [from, from + n) of a buffer pair: A random, B a copy with the pattern's differences
// (equal-heavy: 1% of the elements of the large buffers; all-divergent: every element).
void fillRange(std::vector<std::uint32_t>& a, std::vector<std::uint32_t>& b, Rng& rng, DType dtype,
               std::uint64_t diffPerMille) {
    for (std::size_t i = 0; i < a.size(); ++i) {
        const std::uint64_t r = rng.next();
        a[i] = dtype == DType::f32 ? randomFloatBits(r) : static_cast<std::uint32_t>(r % 18);
        b[i] = a[i];
        if (diffPerMille && (r >> 40) % 1000 < diffPerMille) b[i] = nudge(a[i], r >> 20, dtype);
    }
}

std::uint64_t diffPerMilleOf(Pattern p, bool large) {
    switch (p) {
    case Pattern::equal:
        return 0;
    case Pattern::equalHeavy:
        return large ? 10 : 0;
    case Pattern::allDivergent:
        return 1000;
    }
    return 0;
}

// A dense pair of files of n elements, generated and written chunk by chunk.
void writeDense(const fs::path& pa, const fs::path& pb, std::uint64_t n, DType dtype,
                std::uint64_t diffPerMille, Rng rng) {
    const int fa = create(pa), fb = create(pb);
    std::vector<std::uint32_t> a, b;
    for (std::uint64_t i = 0; i < n; i += kChunkElems) {
        const std::size_t len = static_cast<std::size_t>(std::min(kChunkElems, n - i));
        a.resize(len), b.resize(len);
        fillRange(a, b, rng, dtype, diffPerMille);
        writeAt(fa, pa, a.data(), len * 4, i * 4);
        writeAt(fb, pb, b.data(), len * 4, i * 4);
    }
    ::close(fa), ::close(fb);
}

// A sparse pair of `bytes` each: a hole but for five 256 KiB regions at the same fractions of
// the file (start, 1/4, 1/2, 3/4, the very end), each seeded by its number. So pairs of any
// size hold the same values and the same differences, only at other indices.
void writeSparse(const fs::path& pa, const fs::path& pb, std::uint64_t bytes,
                 std::uint64_t diffPerMille, std::uint64_t seed) {
    constexpr std::uint64_t kRegion = 256 * 1024;
    const int fa = create(pa), fb = create(pb);
    for (auto [fd, path] : {std::pair{fa, pa}, std::pair{fb, pb}})
        if (::ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
            std::fprintf(stderr, "error: ftruncate %s: %s\n", path.c_str(), std::strerror(errno));
            std::exit(2);
        }
    std::vector<std::uint32_t> a(kRegion / 4), b(kRegion / 4);
    for (std::uint64_t r = 0; r < 5; ++r) {
        const std::uint64_t offset = r < 4 ? (bytes / 4 * r) & ~(kRegion - 1) : bytes - kRegion;
        Rng rng{seed * 1000003 + r};
        fillRange(a, b, rng, DType::f32, diffPerMille);
        writeAt(fa, pa, a.data(), kRegion, offset);
        writeAt(fb, pb, b.data(), kRegion, offset);
    }
    ::close(fa), ::close(fb);
}

std::uint64_t parseNumber(std::string_view flag, const char* text) {
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(text, &end, 10);
    if (errno || end == text || *end) {
        std::fprintf(stderr, "error: %.*s expects a number, got '%s'\n",
                     static_cast<int>(flag.size()), flag.data(), text);
        std::exit(2);
    }
    return v;
}

int usage(int code) {
    std::fprintf(
        code ? stderr : stdout,
        "usage: dumpscope-make-pair OUT_DIR [--size-mib N] [--pattern P] [--steps N] [--seed N]\n"
        "                           [--sparse-gib N | --sparse-mib N]\n"
        "Writes OUT_DIR/a and OUT_DIR/b: steps 0..N-1 of every buffer of the default schema,\n"
        "about --size-mib MiB per run (default 256), most of it in four large group-I scratches.\n"
        "  --pattern equal          B is a copy of A\n"
        "            equal-heavy    (default) 1%% of the elements of the large buffers differ by\n"
        "                           1-4 ULP; every other buffer is identical\n"
        "            all-divergent  every element of every buffer differs by 1-4 ULP (or 1-4)\n"
        "  --sparse-gib N           step 0's %s becomes a sparse file of N GiB per run\n"
        "                           (ftruncate + five written 256 KiB regions)\n"
        "  --sparse-mib N           the same, N MiB: a small pair with the same differences\n",
        kSparseBuffer.c_str());
    return code;
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help") return usage(0);
        if (arg.starts_with("--")) {
            if (i + 1 >= argc) return usage(2);
            const char* value = argv[++i];
            if (arg == "--size-mib")
                o.sizeMiB = parseNumber(arg, value);
            else if (arg == "--steps")
                o.steps = std::max<std::uint64_t>(1, parseNumber(arg, value));
            else if (arg == "--seed")
                o.seed = parseNumber(arg, value);
            else if (arg == "--sparse-gib")
                o.sparseBytes = parseNumber(arg, value) << 30;
            else if (arg == "--sparse-mib")
                o.sparseBytes = parseNumber(arg, value) << 20;
            else if (arg == "--pattern") {
                const std::string_view p = value;
                if (p == "equal")
                    o.pattern = Pattern::equal;
                else if (p == "equal-heavy")
                    o.pattern = Pattern::equalHeavy;
                else if (p == "all-divergent")
                    o.pattern = Pattern::allDivergent;
                else
                    return usage(2);
            } else
                return usage(2);
        } else if (o.out.empty()) {
            o.out = arg;
        } else {
            return usage(2);
        }
    }
    if (o.out.empty()) return usage(2);
    if (o.sparseBytes % (kBatch * 4) || (o.sparseBytes && o.sparseBytes < 8 * kMiB)) {
        std::fprintf(stderr, "error: the sparse file must be at least 8 MiB\n");
        return 2;
    }

    const auto& schema = dumpscope::defaultSchema();
    std::uint64_t smallBytes = 0, nLarge = 0;
    auto elementsOf = [](const dumpscope::BufferSpec& b) {
        return b.name == "sampled_actions" || b.shape.size() == 1 ? kBatch
               : b.shape.empty()                                  ? kSmallWidth
                                                                  : kBatch * kSmallWidth;
    };
    for (const auto& g : schema.groups)
        for (const auto& b : g.buffers) {
            if (kLargeBuffers.count(b.name))
                ++nLarge;
            else
                smallBytes += elementsOf(b) * 4;
        }
    // Whatever the small buffers leave of each step's share goes to the large ones, in whole
    // rows of `batch` so that their [batch, *] shapes resolve.
    const std::uint64_t perStep = o.sizeMiB * kMiB / o.steps;
    const std::uint64_t largeElems = nLarge && perStep > smallBytes
                                         ? (perStep - smallBytes) / nLarge / 4 / kBatch * kBatch
                                         : kBatch;

    std::error_code ec;
    for (const char* side : {"a", "b"})
        fs::create_directories(o.out / side, ec);
    std::uint64_t written = 0, seq = 0;
    for (std::uint64_t step = 0; step < o.steps; ++step)
        for (const auto& g : schema.groups)
            for (const auto& b : g.buffers) {
                if (b.dtype != DType::f32 && b.dtype != DType::i32)
                    continue; // not in the default schema
                const std::string file = "step_" + std::to_string(step) + "_" + b.file + ".bin";
                const bool large = kLargeBuffers.count(b.name) > 0;
                const std::uint64_t perMille = diffPerMilleOf(o.pattern, large);
                const Rng rng{o.seed * 1000003 + ++seq};
                if (o.sparseBytes && step == 0 && b.name == kSparseBuffer) {
                    writeSparse(o.out / "a" / file, o.out / "b" / file, o.sparseBytes, perMille,
                                o.seed);
                    written += o.sparseBytes;
                    continue;
                }
                const std::uint64_t n = large ? largeElems : elementsOf(b);
                writeDense(o.out / "a" / file, o.out / "b" / file, n, b.dtype, perMille, rng);
                written += n * 4;
            }
    std::printf("wrote %s/a and %s/b: %llu steps, %.1f MiB per run\n", o.out.c_str(), o.out.c_str(),
                static_cast<unsigned long long>(o.steps), static_cast<double>(written) / kMiB);
    return 0;
}

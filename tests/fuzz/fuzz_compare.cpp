// Fuzzes the compare routine on arbitrary byte pairs of every element type, and cross-checks it
// against a naive element-by-element comparison of the bits.
//
// Input: [dtype][flags][split lo][split hi][atol][rtol][ulp][rows][chunk] then the payload,
// split at `split` (mod its size + 1) into run A's bytes and run B's bytes, each cut to whole
// elements. Missing header bytes read as 0. flags: 1 atol, 2 rtol, 4 ulp, 8 shape.
//
// Checked: element counts; n_diff, first and last difference equal the naive count over the
// common prefix; the kept differences are the right elements; histograms add up to n_diff;
// NaN / Inf counts per side; feeding the accumulator in chunks (with a shape) gives the same
// statistics as one call; per-row / per-column counts are the naive ones; a buffer compared
// with itself is bit_identical; the kind is one of the valid names.
#include "dumpscope/dtype.h"
#include "dumpscope/kind.h"
#include "dumpscope/shape.h"
#include "dumpscope/stats.h"
#include "schema/dtype_special.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string_view>
#include <vector>

using namespace dumpscope;

namespace {

void check(bool ok) {
    if (!ok) std::abort(); // an invariant broke: libFuzzer reports it as a crash
}

constexpr DType kTypes[] = {DType::f16, DType::bf16, DType::f32,     DType::f64,    DType::i8,
                            DType::u8,  DType::i16,  DType::u16,     DType::i32,    DType::u32,
                            DType::i64, DType::u64,  DType::f8_e4m3, DType::f8_e5m2};
constexpr std::size_t kHeader = 9;

// Same value, NaN included (NaN == NaN here: both sides computed the same way).
bool same(double x, double y) {
    return x == y || (std::isnan(x) && std::isnan(y));
}

std::uint64_t sum(const auto& counts) {
    return std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
}

// Everything but the per-row / per-column counts, which only a shaped comparison keeps.
void checkSameStats(const BufferStats& x, const BufferStats& y) {
    check(x.nA == y.nA && x.nB == y.nB && x.nDiff == y.nDiff);
    check(x.firstDiff == y.firstDiff && x.lastDiff == y.lastDiff);
    check(same(x.maxAbsDelta, y.maxAbsDelta) && x.maxAbsDeltaIndex == y.maxAbsDeltaIndex);
    check(same(x.maxRelDelta, y.maxRelDelta) && x.maxUlp == y.maxUlp);
    check(same(x.rtolToPass, y.rtolToPass));
    check(x.nanA == y.nanA && x.nanB == y.nanB && x.infA == y.infA && x.infB == y.infB);
    check(x.signedZeroDiffs == y.signedZeroDiffs && x.hashA == y.hashA && x.hashB == y.hashB);
    check(x.firstDiffs.size() == y.firstDiffs.size() &&
          x.largestDiffs.size() == y.largestDiffs.size());
    for (std::size_t i = 0; i < x.largestDiffs.size(); ++i)
        check(x.largestDiffs[i].index == y.largestDiffs[i].index);
    check(x.deltaHistogram.counts == y.deltaHistogram.counts &&
          x.ulpHistogram.counts == y.ulpHistogram.counts);
    check(same(x.maxAbsA, y.maxAbsA) && same(x.maxAbsB, y.maxAbsB));
    check(x.nanPayloadDiffs == y.nanPayloadDiffs && x.nonFiniteMismatches == y.nonFiniteMismatches);
    check(x.outsideTolerance == y.outsideTolerance);
    check(x.multisetA == y.multisetA && x.multisetB == y.multisetB);
}

void checkKind(DType t, const BufferStats& s) {
    const bool lengthMismatch = s.nA != s.nB;
    const Kind k = classifyKind(t, s, lengthMismatch);
    static constexpr std::string_view kNames[] = {
        "length_mismatch", "nan_inf_mismatch", "discrete",         "permuted",     "numeric",
        "rounding",        "nan_payload",      "signed_zero_only", "bit_identical"};
    check(std::find(std::begin(kNames), std::end(kNames), kindName(k)) != std::end(kNames));
    if (lengthMismatch)
        check(k == Kind::length_mismatch);
    else
        check((k == Kind::bit_identical) == (s.nDiff == 0));
    check(!kindSuggestion(k, "buf").empty());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto header = [&](std::size_t i) -> unsigned { return i < size ? data[i] : 0u; };
    const DType t = kTypes[header(0) % std::size(kTypes)];
    const unsigned flags = header(1);
    const std::size_t es = dtypeSize(t);
    const unsigned char* payload = data + std::min(size, kHeader);
    const std::size_t payloadSize = size - std::min(size, kHeader);
    const std::size_t split = (header(2) | header(3) << 8) % (payloadSize + 1);
    const unsigned char* a = payload;
    const unsigned char* b = payload + split;
    const std::size_t nA = split / es, nB = (payloadSize - split) / es, common = std::min(nA, nB);

    Tolerance tol;
    if (flags & 1) tol.atol = std::ldexp(1.0, -static_cast<int>(header(4) % 64));
    if (flags & 2) tol.rtol = std::ldexp(1.0, -static_cast<int>(header(5) % 64));
    if (flags & 4) tol.ulp = header(6);

    const BufferStats s = compareMemory(t, a, nA * es, b, nB * es, tol);

    // Against the naive comparison of bits.
    check(s.nA == nA && s.nB == nB);
    std::uint64_t nDiff = 0, nanA = 0, nanB = 0, infA = 0, infB = 0;
    std::optional<std::uint64_t> first, last;
    for (std::size_t i = 0; i < nA; ++i)
        nanA += bitsIsNan(t, loadBits(t, a + i * es)),
            infA += bitsIsInf(t, loadBits(t, a + i * es));
    for (std::size_t i = 0; i < nB; ++i)
        nanB += bitsIsNan(t, loadBits(t, b + i * es)),
            infB += bitsIsInf(t, loadBits(t, b + i * es));
    for (std::size_t i = 0; i < common; ++i) {
        const auto x = loadBits(t, a + i * es), y = loadBits(t, b + i * es);
        if (x == y) continue;
        ++nDiff;
        if (!first) first = i;
        last = i;
        if (nDiff <= BufferStats::kKeep) {
            const ElementDiff& d = s.firstDiffs.at(nDiff - 1);
            check(d.index == i && d.bitsA == x && d.bitsB == y);
            check(same(d.absDelta, elementDelta(t, x, y).absDelta));
            check(!formatValue(t, x).empty() && formatBits(t, y).size() == 2 + 2 * es);
        }
    }
    check(s.nDiff == nDiff && s.firstDiff == first && s.lastDiff == last);
    check(s.nanA == nanA && s.nanB == nanB && s.infA == infA && s.infB == infB);
    check(s.firstDiffs.size() == std::min<std::uint64_t>(nDiff, BufferStats::kKeep));
    check(s.largestDiffs.size() <= s.firstDiffs.size());
    for (std::size_t i = 1; i < s.largestDiffs.size(); ++i)
        check(!(s.largestDiffs[i].absDelta > s.largestDiffs[i - 1].absDelta));
    check(sum(s.ulpHistogram.counts) + s.ulpHistogram.undefined == nDiff);
    const auto& h = s.deltaHistogram;
    check(sum(h.counts) + h.zero + h.nan + h.infinite == nDiff);
    check(s.signedZeroDiffs <= nDiff && s.outsideTolerance <= nDiff && s.nanPayloadDiffs <= nDiff);
    if (!tol.any()) check(s.outsideTolerance == 0);
    if (nA == nB && std::memcmp(a, b, nA * es) == 0) check(s.hashA == s.hashB && nDiff == 0);
    checkKind(t, s);

    // The same pair fed in chunks, shaped when it divides into the rows asked for.
    std::vector<std::uint64_t> dims;
    const std::uint64_t rows = header(7) % 16 + 1;
    if ((flags & 8) && nA == nB && common > 0 && common % rows == 0) dims = {rows, common / rows};
    StatsAccumulator acc(t, tol);
    if (!dims.empty()) acc.setShape(dims[0], dims[1]);
    const std::size_t chunk = header(8) % 64 + 1;
    for (std::size_t i = 0; i < common; i += chunk)
        acc.addPair(a + i * es, b + i * es, std::min(chunk, common - i), i);
    if (nA > common) acc.addTailA(a + common * es, nA - common);
    if (nB > common) acc.addTailB(b + common * es, nB - common);
    const BufferStats c = acc.finish();
    checkSameStats(s, c);
    if (!dims.empty() && nDiff > 0) {
        check(c.rowDiffs.size() == dims[0] && c.colDiffs.size() == dims[1]);
        check(sum(c.rowDiffs) == nDiff && sum(c.colDiffs) == nDiff);
        for (std::uint64_t r = 0; r < dims[0]; ++r) {
            std::uint64_t n = 0;
            for (std::uint64_t col = 0; col < dims[1]; ++col) {
                const std::size_t i = r * dims[1] + col;
                n += loadBits(t, a + i * es) != loadBits(t, b + i * es);
            }
            check(c.rowDiffs[r] == n);
        }
        (void)placementSummary(c, dims);
        (void)formatIndex(*c.lastDiff, dims);
    } else {
        check(c.rowDiffs.empty() && c.colDiffs.empty());
    }

    // A buffer against itself.
    const BufferStats self = compareMemory(t, a, nA * es, a, nA * es, tol);
    check(self.nDiff == 0 && self.hashA == self.hashB && self.nanA == self.nanB &&
          self.infA == self.infB);
    check(classifyKind(t, self, false) == Kind::bit_identical);
    return 0;
}

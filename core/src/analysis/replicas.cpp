#include "analysis/replicas.h"

#include "compare/compare_sides.h"
#include "dumpscope/buffer_source.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <utility>

namespace dumpscope::detail {

namespace {

// One rank's copy of a replicated tensor in one run.
struct Copy {
    std::size_t buffer = 0; // index into Analysis::buffers
    std::uint64_t rank = 0;
    BufferSource source;
    DType dtype = DType::u8;
};

// Two copies read front to back in chunks: their element counts, the first differing element
// and how many differ (or, with `untilFirst`, whether any does).
struct CopyDiff {
    std::string error;
    std::uint64_t countA = 0, countB = 0, nDiffer = 0;
    std::optional<std::uint64_t> first;
    bool same() const { return error.empty() && countA == countB && nDiffer == 0; }
};

CopyDiff diffCopies(const Copy& x, const Copy& y, bool untilFirst) {
    CopyDiff d;
    SourceReader a, b;
    if (auto e = openSide(a, x.source, x.dtype); !e.empty()) return d.error = e, d;
    if (auto e = openSide(b, y.source, y.dtype); !e.empty()) return d.error = e, d;
    const std::size_t es = dtypeSize(x.dtype);
    d.countA = a.size() / es;
    d.countB = b.size() / es;
    if (x.dtype != y.dtype || d.countA != d.countB) return d;
    std::vector<unsigned char> bufA(kChunkBytes), bufB(kChunkBytes);
    const std::uint64_t bytes = d.countA * es;
    bool ended = false;
    for (std::uint64_t at = 0; at < bytes; at += kChunkBytes) {
        const std::size_t n =
            static_cast<std::size_t>(std::min<std::uint64_t>(kChunkBytes, bytes - at));
        if (auto e = a.readExact(bufA.data(), n, at, ended); !e.empty()) return d.error = e, d;
        if (auto e = b.readExact(bufB.data(), n, at, ended); !e.empty()) return d.error = e, d;
        if (std::memcmp(bufA.data(), bufB.data(), n) == 0) continue;
        for (std::size_t i = 0; i < n; i += es)
            if (std::memcmp(bufA.data() + i, bufB.data() + i, es) != 0) {
                if (!d.first) d.first = (at + i) / es;
                ++d.nDiffer;
            }
        if (untilFirst) return d;
    }
    return d;
}

// Each run's copies of one buffer at one step, rank order: their classes of equal bytes, the
// largest (the lowest rank's on a tie) the majority, every rank outside it a divergence.
std::vector<CrossRankDivergence> disagreeing(const std::vector<Copy>& copies, bool inA,
                                             std::vector<std::size_t>& buffers,
                                             std::vector<std::string>& warnings) {
    std::vector<std::vector<std::size_t>> classes; // indices into `copies`; [0] the representative
    for (std::size_t c = 0; c < copies.size(); ++c) {
        bool placed = false;
        for (auto& members : classes) {
            const CopyDiff d = diffCopies(copies[members.front()], copies[c], true);
            if (!d.error.empty()) {
                warnings.push_back("replicated tensor not checked across ranks: " + d.error);
                return {};
            }
            if (d.same()) {
                members.push_back(c);
                placed = true;
                break;
            }
        }
        if (!placed) classes.push_back({c});
    }
    if (classes.size() < 2) return {};
    const auto majority =
        std::max_element(classes.begin(), classes.end(), [](const auto& x, const auto& y) {
            return x.size() < y.size();
        }); // the first on a tie
    const Copy& reference = copies[majority->front()];
    std::vector<CrossRankDivergence> found;
    for (const auto& members : classes) {
        if (&members == &*majority) continue;
        for (std::size_t c : members) {
            const CopyDiff d = diffCopies(reference, copies[c], false);
            CrossRankDivergence div;
            div.inA = inA;
            div.rank = copies[c].rank;
            div.reference = reference.rank;
            div.agreeing = majority->size();
            div.ranks = copies.size();
            div.count = d.countB;
            div.referenceCount = d.countA;
            div.nDiffer = d.nDiffer;
            if (d.countA == d.countB) div.firstIndex = d.first;
            found.push_back(div);
            buffers.push_back(copies[c].buffer);
        }
    }
    return found;
}

} // namespace

void checkReplicas(Analysis& an, const std::vector<ReplicatedRule>& rules) {
    if (rules.empty() || !an.ranked || an.cancelled) return;
    // By (step, name): the buffers a rule names, rank order (the buffers' own order).
    std::map<std::pair<std::uint64_t, std::string>, std::vector<std::size_t>> named;
    for (std::size_t i = 0; i < an.buffers.size(); ++i) {
        const BufferResult& b = an.buffers[i];
        if (!b.rank || b.pending || b.shards() || isError(b.status) || b.loggedA || b.loggedB)
            continue;
        if (std::any_of(rules.begin(), rules.end(), [&](const ReplicatedRule& r) {
                return std::regex_match(b.name, r.pattern);
            }))
            named[{b.step, b.name}].push_back(i);
    }
    std::map<std::size_t, std::vector<CrossRankDivergence>> byBuffer;
    for (const auto& [key, indices] : named) {
        if (indices.size() < 2) continue;
        for (const bool inA : {true, false}) {
            std::vector<Copy> copies;
            for (std::size_t i : indices) {
                const BufferResult& b = an.buffers[i];
                BufferSource source = inA ? sourceA(an, b) : sourceB(an, b);
                if (!source.present()) continue;
                const DType dtype = b.precision() ? b.precision()->typeOf(inA) : b.dtype;
                copies.push_back({i, *b.rank, std::move(source), dtype});
            }
            if (copies.size() < 2) continue;
            std::vector<std::size_t> buffers;
            const auto found = disagreeing(copies, inA, buffers, an.warnings);
            for (std::size_t k = 0; k < found.size(); ++k)
                byBuffer[buffers[k]].push_back(found[k]);
        }
    }
    for (auto& [i, found] : byBuffer) {
        BufferResult& b = an.buffers[i];
        PairReading reading = b.reading ? *b.reading : PairReading{};
        reading.crossRank = std::move(found);
        reading.pairStatus = b.status;
        b.reading = std::make_shared<const PairReading>(std::move(reading));
        b.status = Status::diverge;
        b.kind = Kind::cross_rank;
    }
}

} // namespace dumpscope::detail

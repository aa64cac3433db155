#include "compare/compare_sharded.h"

#include "compare/compare_sides.h"
#include "dumpscope/shape.h"

#include <algorithm>
#include <vector>

namespace dumpscope::detail {

namespace {

// One side's whole tensor read through its pieces: in C order the whole tensor is, for each
// index before the axis, each piece's block of (its size along the axis × the dimensions after
// it) elements in rank order, so any range of it is a few contiguous reads of pieces.
class JoinedReader {
  public:
    std::string open(const std::filesystem::path& run, const ShardedPair& shards,
                     const std::vector<ShardPiece>& pieces, DType dtype) {
        m_es = dtypeSize(dtype);
        const std::vector<std::uint64_t> shape = shards.wholeShape(pieces);
        std::uint64_t inner = 1;
        for (std::size_t d = shards.axis + 1; d < shape.size(); ++d)
            inner *= shape[d];
        m_readers.resize(pieces.size());
        for (std::size_t p = 0; p < pieces.size(); ++p) {
            const ShardPiece& piece = pieces[p];
            if (auto e = openSide(m_readers[p], {run / piece.fileName, piece.location}, dtype);
                !e.empty())
                return e;
            m_readers[p].checksumWholeMember();
            m_block.push_back(piece.shape[shards.axis] * inner);
            m_row += m_block.back();
        }
        m_count = 1;
        for (auto d : shape)
            m_count *= d;
        return {};
    }
    std::uint64_t count() const { return m_count; }

    std::string read(unsigned char* out, std::uint64_t first, std::size_t n, bool& shrank) const {
        while (n > 0) {
            const std::uint64_t row = first / m_row;
            std::uint64_t within = first % m_row;
            std::size_t p = 0;
            while (within >= m_block[p])
                within -= m_block[p++];
            const std::size_t len =
                static_cast<std::size_t>(std::min<std::uint64_t>(n, m_block[p] - within));
            const std::uint64_t at = row * m_block[p] + within;
            if (auto e = m_readers[p].readExact(out, len * m_es, at * m_es, shrank); !e.empty())
                return e;
            out += len * m_es;
            first += len;
            n -= len;
        }
        return {};
    }

    std::string finish() const {
        for (const auto& r : m_readers)
            if (auto e = r.verifyWholeMember(); !e.empty()) return e;
        for (const auto& r : m_readers)
            if (auto e = r.changedSinceOpen(); !e.empty()) return e;
        return {};
    }

  private:
    std::vector<SourceReader> m_readers;
    std::vector<std::uint64_t> m_block; // each piece's elements per row
    std::uint64_t m_row = 0;            // the whole tensor's elements per row
    std::uint64_t m_count = 0;
    std::size_t m_es = 1;
};

} // namespace

BufferResult compareSharded(const std::filesystem::path& runA, const std::filesystem::path& runB,
                            const ShardedPair& shards, DType dtype, const CompareOptions& options) {
    BufferResult r;
    r.dtype = dtype;
    auto fail = [&](Status s, std::string message) {
        r.status = s;
        r.error = std::move(message);
        return r;
    };
    JoinedReader a, b;
    if (!shards.a.empty())
        if (auto e = a.open(runA, shards, shards.a, dtype); !e.empty())
            return fail(Status::error, e);
    if (!shards.b.empty())
        if (auto e = b.open(runB, shards, shards.b, dtype); !e.empty())
            return fail(Status::error, e);
    auto result = std::make_shared<ShardedPair>(shards);
    PairReading reading;
    reading.shards = result;
    r.reading = std::make_shared<const PairReading>(std::move(reading));
    r.stats.nA = a.count();
    r.stats.nB = b.count();
    if (shards.a.empty() || shards.b.empty()) {
        r.status = shards.a.empty() ? Status::only_in_b : Status::only_in_a;
        return r;
    }

    const std::size_t es = dtypeSize(dtype), chunkElems = kChunkBytes / es;
    const std::uint64_t nA = a.count(), nB = b.count(), common = std::min(nA, nB);
    std::vector<unsigned char> bufA(kChunkBytes), bufB(kChunkBytes);
    StatsAccumulator acc(dtype, options.tolerance);
    if (options.shape.size() >= 2) acc.setShape(options.shape[0], shapeCols(options.shape));
    bool shrank = false;
    for (std::uint64_t i = 0; i < common; i += chunkElems) {
        const std::size_t n =
            static_cast<std::size_t>(std::min<std::uint64_t>(chunkElems, common - i));
        if (auto e = a.read(bufA.data(), i, n, shrank); !e.empty())
            return fail(shrank ? Status::changed_while_reading : Status::error, e);
        if (auto e = b.read(bufB.data(), i, n, shrank); !e.empty())
            return fail(shrank ? Status::changed_while_reading : Status::error, e);
        acc.addPair(bufA.data(), bufB.data(), n, i);
    }
    for (const JoinedReader* side : {&a, &b}) {
        const std::uint64_t n = side->count();
        for (std::uint64_t i = common; i < n; i += chunkElems) {
            const std::size_t len =
                static_cast<std::size_t>(std::min<std::uint64_t>(chunkElems, n - i));
            if (auto e = side->read(bufA.data(), i, len, shrank); !e.empty())
                return fail(shrank ? Status::changed_while_reading : Status::error, e);
            if (side == &a)
                acc.addTailA(bufA.data(), len);
            else
                acc.addTailB(bufA.data(), len);
        }
    }
    for (const JoinedReader* side : {&a, &b})
        if (auto e = side->finish(); !e.empty()) return fail(Status::error, e);

    r.stats = acc.finish();
    r.status = nA != nB ? Status::length_mismatch : r.stats.nDiff ? Status::diverge : Status::equal;
    r.kind = classifyKind(dtype, r.stats, nA != nB, options.roundingThreshold);
    if (r.status == Status::diverge && options.tolerance.any() && r.stats.outsideTolerance == 0)
        r.status = Status::within_tolerance;
    if (r.stats.firstDiff) {
        result->firstDiffRankA = shards.a[shards.pieceAt(shards.a, *r.stats.firstDiff)].rank;
        result->firstDiffRankB = shards.b[shards.pieceAt(shards.b, *r.stats.firstDiff)].rank;
    }
    return r;
}

} // namespace dumpscope::detail

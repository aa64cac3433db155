// The window's incremental summary against summarize(): buffers compared in random orders and
// batches, the matrix and the verdict after each batch exactly those of a full summary. And what
// keeps a snapshot cheap: chunks shared between copies, an equal pair's small statistics.
#include "dumpscope/analyze.h"
#include "dumpscope/chunked_vector.h"
#include "dumpscope/schema.h"
#include "dumpscope/stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>
#include <vector>

using namespace dumpscope;

namespace {

// Every schema buffer at most steps, some left out (missing cells), a few unclassified files,
// with statuses and |Δ| drawn at random: ties of equally ranked statuses included.
Analysis randomAnalysis(std::mt19937& rng, int steps) {
    Analysis an;
    an.schema = std::shared_ptr<const Schema>(std::shared_ptr<const Schema>{}, &defaultSchema());
    an.verdictTolerance = rng() % 2;
    const Status statuses[] = {Status::equal,           Status::equal,
                               Status::equal,           Status::diverge,
                               Status::length_mismatch, Status::within_tolerance,
                               Status::only_in_a,       Status::only_in_b,
                               Status::error,           Status::changed_while_reading};
    // Mostly equal, so that the verdict is often left as it was and sometimes not.
    auto status = [&] { return rng() % 3 ? Status::equal : statuses[rng() % std::size(statuses)]; };
    for (int s = 0; s < steps; ++s) {
        an.steps.push_back(static_cast<std::uint64_t>(3 * s));
        for (const auto& g : an.schema->groups)
            for (const auto& spec : g.buffers) {
                if (rng() % 5 == 0) continue;
                BufferResult b;
                b.step = static_cast<std::uint64_t>(3 * s);
                b.group = g.id;
                b.name = spec.name;
                b.status = status();
                b.kind = static_cast<Kind>(rng() % 4);
                b.pending = false;
                b.stats.maxAbsDelta =
                    rng() % 9 == 0 ? std::nan("") : static_cast<double>(rng() % 1000) / 7;
                an.buffers.push_back(b);
            }
        for (int k = 0; k < 2; ++k) {
            BufferResult b;
            b.step = static_cast<std::uint64_t>(3 * s);
            b.group = kOtherGroup;
            b.name = "extra" + std::to_string(k);
            b.fileName = "step_" + std::to_string(3 * s) + "_extra" + std::to_string(k) + ".bin";
            b.dtype = DType::u8;
            b.status = status();
            b.pending = false;
            an.buffers.push_back(b);
            an.unclassified.push_back(b.fileName);
        }
    }
    return an;
}

void expectSameMatrix(const Analysis& x, const Analysis& y) {
    ASSERT_EQ(x.matrix.size(), y.matrix.size());
    for (std::size_t r = 0; r < x.matrix.size(); ++r) {
        ASSERT_EQ(x.matrix[r].step, y.matrix[r].step);
        ASSERT_EQ(x.matrix[r].cells.size(), y.matrix[r].cells.size());
        for (std::size_t c = 0; c < x.matrix[r].cells.size(); ++c) {
            const GroupCell &a = x.matrix[r].cells[c], &b = y.matrix[r].cells[c];
            ASSERT_EQ(a.group, b.group);
            ASSERT_EQ(a.status, b.status) << "row " << r << " cell " << c;
            ASSERT_EQ(a.buffers, b.buffers);
            ASSERT_EQ(a.nDivergent, b.nDivergent);
            ASSERT_EQ(a.nPending, b.nPending);
            ASSERT_EQ(a.maxAbsDelta, b.maxAbsDelta);
        }
    }
}

void expectSameVerdict(const Verdict& x, const Verdict& y) {
    EXPECT_EQ(x.exitCode, y.exitCode);
    EXPECT_EQ(x.firstDivergentStep, y.firstDivergentStep);
    EXPECT_EQ(x.divergedGroups, y.divergedGroups);
    EXPECT_EQ(x.decisionCase, y.decisionCase);
    EXPECT_EQ(x.text, y.text);
    ASSERT_EQ(x.culprits.size(), y.culprits.size());
    for (std::size_t i = 0; i < x.culprits.size(); ++i) {
        EXPECT_EQ(x.culprits[i].group, y.culprits[i].group);
        EXPECT_EQ(x.culprits[i].present, y.culprits[i].present);
        EXPECT_EQ(x.culprits[i].divergentBuffers, y.culprits[i].divergentBuffers);
    }
    EXPECT_EQ(x.rootCause.step, y.rootCause.step);
    EXPECT_EQ(x.rootCause.groups, y.rootCause.groups);
    EXPECT_EQ(x.rootCause.buffers, y.rootCause.buffers);
    EXPECT_EQ(x.rootCause.kinds, y.rootCause.kinds);
    EXPECT_EQ(x.rootCause.suggestion, y.rootCause.suggestion);
}

// `done` before any of its buffers was compared, summarised: what the window's worker starts from.
Analysis pendingCopy(const Analysis& done) {
    Analysis live = done;
    for (std::size_t i = 0; i < live.buffers.size(); ++i)
        live.buffers[i].pending = true;
    summarize(live);
    return live;
}

// The buffers' indices in an order of completion drawn from `rng`.
std::vector<std::size_t> shuffledOrder(std::size_t n, std::mt19937& rng) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    return order;
}

} // namespace

TEST(SummarizeCompared, MatchesAFullSummaryInAnyOrderOfCompletion) {
    for (unsigned seed = 1; seed <= 40; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        std::mt19937 rng(seed);
        const Analysis done = randomAnalysis(rng, 1 + static_cast<int>(rng() % 6));
        Analysis live = pendingCopy(done);
        const std::vector<std::size_t> order = shuffledOrder(done.buffers.size(), rng);
        for (std::size_t next = 0; next < order.size();) {
            const std::size_t batch = std::min<std::size_t>(1 + rng() % 8, order.size() - next);
            std::vector<std::size_t> compared(order.begin() + static_cast<std::ptrdiff_t>(next),
                                              order.begin() +
                                                  static_cast<std::ptrdiff_t>(next + batch));
            next += batch;
            std::set<std::pair<std::size_t, std::size_t>> expectedCells;
            for (std::size_t i : compared) {
                live.buffers[i] = done.buffers[i];
                for (std::size_t r = 0; r < live.matrix.size(); ++r)
                    for (std::size_t c = 0; c < live.matrix[r].cells.size(); ++c) {
                        const auto& in = live.matrix[r].cells[c].buffers;
                        if (std::find(in.begin(), in.end(), i) != in.end())
                            expectedCells.insert({r, c});
                    }
            }
            const auto touched = summarizeCompared(live, compared);
            std::set<std::pair<std::size_t, std::size_t>> cells;
            for (const auto& p : touched)
                cells.insert({p.row, p.column});
            EXPECT_EQ(cells, expectedCells);
            EXPECT_EQ(cells.size(), touched.size()); // each once
            EXPECT_TRUE(
                std::is_sorted(touched.begin(), touched.end(), [](const auto& a, const auto& b) {
                    return a.row != b.row ? a.row < b.row : a.column < b.column;
                }));
            Analysis full = live;
            summarize(full);
            expectSameMatrix(live, full);
            expectSameVerdict(live.verdict, full.verdict);
            if (::testing::Test::HasFailure()) return;
        }
    }
}

TEST(ChunkedVector, CopiesShareChunksUntilWritten) {
    ChunkedVector<int> v;
    const std::size_t n = 5 * ChunkedVector<int>::kChunk + 3;
    for (std::size_t i = 0; i < n; ++i)
        v.push_back(static_cast<int>(i));
    const ChunkedVector<int> snapshot = v;
    v[2 * ChunkedVector<int>::kChunk + 1] = -1;
    for (std::size_t i = 0; i < n; ++i) {
        EXPECT_EQ(snapshot[i], static_cast<int>(i)); // the copy never sees the write
        EXPECT_EQ(v.sharesChunkWith(snapshot, i), i / ChunkedVector<int>::kChunk != 2) << i;
    }
    EXPECT_EQ(v[2 * ChunkedVector<int>::kChunk + 1], -1);
    EXPECT_EQ(std::accumulate(snapshot.begin(), snapshot.end(), std::size_t{0}), n * (n - 1) / 2);
    EXPECT_EQ(static_cast<std::size_t>(v.end() - v.begin()), n);
}

TEST(BufferStatsSize, AnEqualPairKeepsNoHistogramCounts) {
    const std::vector<float> a(1000, 1.5f);
    const BufferStats equal =
        compareMemory(DType::f32, a.data(), 4 * a.size(), a.data(), 4 * a.size());
    EXPECT_FALSE(equal.deltaHistogram.counts.allocated());
    EXPECT_FALSE(equal.ulpHistogram.counts.allocated());
    EXPECT_EQ(equal.deltaHistogram.at(0), 0u);
    // A pair's bookkeeping: the histograms' counts are on the heap, only for differing pairs.
    EXPECT_LE(sizeof(BufferResult), 768u);
    std::vector<float> b = a;
    b[10] = 2.5f;
    const BufferStats differ =
        compareMemory(DType::f32, a.data(), 4 * a.size(), b.data(), 4 * b.size());
    EXPECT_TRUE(differ.deltaHistogram.counts.allocated());
    // One difference, one decade and one power of two: only those counters are kept.
    EXPECT_EQ(differ.deltaHistogram.counts.stored(), 1u);
    EXPECT_EQ(differ.ulpHistogram.counts.stored(), 1u);
    EXPECT_EQ(differ.deltaHistogram.at(0), 1u);
    const auto& ulps = differ.ulpHistogram.counts;
    EXPECT_EQ(ulps[22], 1u);
    EXPECT_EQ(std::accumulate(ulps.begin(), ulps.end(), std::uint64_t{0}), 1u);
    EXPECT_EQ(std::find_if(ulps.begin(), ulps.end(), [](auto c) { return c; }) - ulps.begin(), 22);
    EXPECT_EQ(ulps.rend() - std::find_if(ulps.rbegin(), ulps.rend(), [](auto c) { return c; }), 23);
}

TEST(LazyCounts, ShrinkKeepsTheNonzeroRangeAndWritingExpandsIt) {
    LazyCounts<8> c;
    c.shrink();
    EXPECT_FALSE(c.allocated());
    c[2] = 5;
    c[5] = 7;
    EXPECT_EQ(c.stored(), 8u);
    LazyCounts<8> before = c;
    c.shrink();
    EXPECT_EQ(c.stored(), 4u);
    EXPECT_TRUE(c == before);
    const LazyCounts<8> copy = c;
    EXPECT_EQ(copy.stored(), 4u);
    EXPECT_EQ(copy[1], 0u);
    EXPECT_EQ(copy[2], 5u);
    EXPECT_EQ(copy[5], 7u);
    EXPECT_EQ(copy[6], 0u);
    c[7] += 1; // expands to all 8, the kept counters where they were
    EXPECT_EQ(c.stored(), 8u);
    EXPECT_EQ(std::vector<std::uint64_t>(c.begin(), c.end()),
              (std::vector<std::uint64_t>{0, 0, 5, 0, 0, 7, 0, 1}));
    c[2] = c[5] = c[7] = 0;
    c.shrink();
    EXPECT_FALSE(c.allocated());
    EXPECT_TRUE(c == LazyCounts<8>());
}

// The histogram bars of the reports and of the window: the same range whether the counters
// are shrunk or not, interior zeros kept.
TEST(LazyCounts, UsedRangeRunsFromTheFirstNonzeroCounterToTheLast) {
    using Range = std::pair<std::size_t, std::size_t>;
    LazyCounts<8> c;
    EXPECT_EQ(c.usedRange(), (Range{0, 0}));
    c[3] = 0; // allocated, still all zero
    EXPECT_EQ(c.usedRange(), (Range{0, 0}));
    c[2] = 5;
    c[5] = 7;
    EXPECT_EQ(c.usedRange(), (Range{2, 6}));
    c.shrink();
    EXPECT_EQ(c.usedRange(), (Range{2, 6}));
    c[0] = 1;
    c[7] = 1;
    EXPECT_EQ(c.usedRange(), (Range{0, 8}));
    c[0] = c[2] = 0;
    c.shrink();
    EXPECT_EQ(c.stored(), 3u);
    EXPECT_EQ(c.usedRange(), (Range{5, 8}));
}

// A LiveSummary kept over the batches of one analysis: in exact mode the matrix and verdict of
// summarizeCompared() after every batch; with the headline alone, the same matrix, first
// divergent step and exit code.
TEST(LiveSummary, MatchesAFullSummaryBatchAfterBatchInEitherMode) {
    for (const LiveVerdict mode : {LiveVerdict::exact, LiveVerdict::headline}) {
        for (unsigned seed = 1; seed <= 30; ++seed) {
            SCOPED_TRACE("seed " + std::to_string(seed) +
                         (mode == LiveVerdict::exact ? " exact" : " headline"));
            std::mt19937 rng(seed);
            const Analysis done = randomAnalysis(rng, 1 + static_cast<int>(rng() % 6));
            Analysis live = pendingCopy(done);
            LiveSummary summary(mode);
            const std::vector<std::size_t> order = shuffledOrder(done.buffers.size(), rng);
            for (std::size_t next = 0; next < order.size();) {
                const std::size_t batch = std::min<std::size_t>(1 + rng() % 8, order.size() - next);
                const std::vector<std::size_t> compared(
                    order.begin() + static_cast<std::ptrdiff_t>(next),
                    order.begin() + static_cast<std::ptrdiff_t>(next + batch));
                next += batch;
                for (std::size_t i : compared)
                    live.buffers[i] = done.buffers[i];
                summary.compared(live, compared);
                Analysis full = live;
                summarize(full);
                expectSameMatrix(live, full);
                if (mode == LiveVerdict::exact) {
                    expectSameVerdict(live.verdict, full.verdict);
                } else {
                    EXPECT_EQ(live.verdict.exitCode, full.verdict.exitCode);
                    EXPECT_EQ(live.verdict.firstDivergentStep, full.verdict.firstDivergentStep);
                }
                if (::testing::Test::HasFailure()) return;
            }
        }
    }
}

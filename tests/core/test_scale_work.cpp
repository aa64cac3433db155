// Thousands of groups and of independent root buffers: the matrix, the extended schema and the
// verdict look each name up a bounded number of times, so their work grows with the buffers and
// roots, never with their product. The work is counted by the name-lookup test hook, never timed.
#include "dumpscope/analyze.h"
#include "dumpscope/verdict.h"
#include "test_hooks.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <numeric>

using namespace dumpscope;
using namespace dumpscope::test;
namespace fs = std::filesystem;

namespace {

// A hash-mode capture's log per run: step 0 of `n` buffers "x<i>", each fed by nothing
// captured (inputs []), B's fingerprint other than A's for every one: `n` independent roots,
// each a group of its own (their names have no dots).
void writeRoots(const fs::path& dir, std::size_t n) {
    for (const char* side : {"a", "b"}) {
        nlohmann::json buffers = nlohmann::json::array();
        for (std::size_t i = 0; i < n; ++i) {
            char fp[17];
            std::snprintf(fp, sizeof fp, "%016llx",
                          static_cast<unsigned long long>(i * 2 + (side[0] == 'b')));
            buffers.push_back({"x" + std::to_string(i), "f32", {4}, fp, nlohmann::json::array()});
        }
        const nlohmann::json header = {{"format", "dumpscope-fingerprints"},
                                       {"version", 1},
                                       {"fingerprint", "dsfp1"},
                                       {"mode", "hash"},
                                       {"rank", nullptr},
                                       {"writer", "test"}};
        const nlohmann::json step = {{"step", 0}, {"file", nullptr}, {"buffers", buffers}};
        fs::create_directories(dir / side);
        writeText(dir / side / "dumpscope-fingerprints.jsonl",
                  header.dump() + "\n" + step.dump() + "\n");
    }
}

struct Counted {
    Analysis analysis;
    std::uint64_t lookups = 0;
};

Counted analyzeRoots(std::size_t n) {
    TempDir dir;
    writeRoots(dir.path(), n);
    const std::uint64_t before = detail::nameLookups();
    Counted c{analyze(dir / "a", dir / "b"), 0};
    c.lookups = detail::nameLookups() - before;
    return c;
}

} // namespace

TEST(ScaleWork, IndependentRootsAreNamedWithLookupsInProportionToThem) {
    for (const std::size_t n : {std::size_t{300}, std::size_t{3000}}) {
        SCOPED_TRACE(n);
        const Counted c = analyzeRoots(n);
        const RootCause& rc = c.analysis.verdict.rootCause;
        ASSERT_TRUE(c.analysis.verdict.firstDivergentStep);
        EXPECT_EQ(rc.sources.size(), n); // every buffer is a root: none fed by a divergent one
        EXPECT_EQ(rc.buffers.size(), n);
        EXPECT_EQ(rc.groups.size(), n);
        EXPECT_EQ(c.analysis.schema->groups.size(), n);
        EXPECT_NE(c.analysis.verdict.text.find("and " + std::to_string(n - 8) + " more"),
                  std::string::npos)
            << c.analysis.verdict.text;
        // Per buffer: its group in the extended schema, its cell, its root-kind check and its
        // name among the roots; a few more for each time the verdict is decided. A lookup per
        // pair of roots would be n^2 (9,000,000 at 3,000).
        EXPECT_GE(c.lookups, 3 * n);
        EXPECT_LE(c.lookups, 8 * n);
    }
}

namespace {

// n independent divergent roots compared, as analyze() gives them.
Analysis comparedRoots(const TempDir& dir, std::size_t n) {
    writeRoots(dir.path(), n);
    return analyze(dir / "a", dir / "b");
}

// `done` before any of its buffers was compared, summarised: what the window's worker starts from.
Analysis pendingCopy(const Analysis& done) {
    Analysis live = done;
    for (std::size_t i = 0; i < live.buffers.size(); ++i)
        live.buffers[i].pending = true;
    summarize(live);
    return live;
}

} // namespace

TEST(ScaleWork, ComparedBuffersFindTheirCellsWithOneLookupEach) {
    TempDir dir;
    const std::size_t n = 2000;
    const Analysis done = comparedRoots(dir, n);
    ASSERT_EQ(done.buffers.size(), n);
    Analysis live = pendingCopy(done);
    std::vector<std::size_t> all(n);
    std::iota(all.begin(), all.end(), 0);
    // In batches, as the window's worker publishes them: each batch costs its buffers.
    std::uint64_t lookups = 0;
    for (std::size_t at = 0; at < n; at += 100) {
        const std::vector<std::size_t> batch(all.begin() + static_cast<std::ptrdiff_t>(at),
                                             all.begin() + static_cast<std::ptrdiff_t>(at + 100));
        for (std::size_t i : batch)
            live.buffers[i] = done.buffers[i];
        const std::uint64_t before = detail::nameLookups();
        const auto touched = summarizeCompared(live, batch);
        lookups += detail::nameLookups() - before;
        ASSERT_EQ(touched.size(), batch.size()); // one cell per buffer: each its own group
        EXPECT_EQ(touched.front().column, at);
    }
    // A lookup per compared buffer, plus a verdict decided again per batch (the first divergent
    // step gets each result), itself a lookup per buffer and per root.
    const std::uint64_t before = detail::nameLookups();
    const Verdict again = decide(live);
    const std::uint64_t perVerdict = detail::nameLookups() - before;
    EXPECT_LE(perVerdict, 2 * n);
    EXPECT_LE(lookups, n + (n / 100) * perVerdict);
    for (std::size_t c = 0; c < n; ++c)
        EXPECT_EQ(live.matrix[0].cells[c].nDivergent, 1u);
    EXPECT_EQ(live.verdict.rootCause.sources.size(), n);
    EXPECT_EQ(again.rootCause.sources.size(), n);
}

// The window's live summary looks each compared buffer's cell up in an index kept across
// batches, and with the headline alone decides the verdict again only when the first divergent
// step or the exit code moves: here once, at the first divergence, however many batches follow.
TEST(ScaleWork, ALiveSummaryDecidesTheVerdictAgainOnlyWhenItsHeadlineMoves) {
    TempDir dir;
    const std::size_t n = 2000;
    const Analysis done = comparedRoots(dir, n);
    ASSERT_EQ(done.buffers.size(), n);
    Analysis live = pendingCopy(done);
    std::uint64_t before = detail::nameLookups();
    const Verdict full = decide(done);
    const std::uint64_t perVerdict = detail::nameLookups() - before;
    std::vector<std::size_t> all(n);
    std::iota(all.begin(), all.end(), 0);
    LiveSummary summary(LiveVerdict::headline);
    before = detail::nameLookups();
    for (std::size_t at = 0; at < n; at += 100) {
        const std::vector<std::size_t> batch(all.begin() + static_cast<std::ptrdiff_t>(at),
                                             all.begin() + static_cast<std::ptrdiff_t>(at + 100));
        for (std::size_t i : batch)
            live.buffers[i] = done.buffers[i];
        ASSERT_EQ(summary.compared(live, batch).size(), batch.size());
        EXPECT_EQ(live.verdict.firstDivergentStep, full.firstDivergentStep);
        EXPECT_EQ(live.verdict.exitCode, 1);
    }
    EXPECT_LE(detail::nameLookups() - before, n + perVerdict);
    for (std::size_t c = 0; c < n; ++c)
        EXPECT_EQ(live.matrix[0].cells[c].nDivergent, 1u);
}

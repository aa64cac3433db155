// analyzePlanned(): comparing from a plan already made scans the runs once, gives what analyze()
// gives, and leaves a copy of the plan that the caller kept (the window's skeleton) untouched.
#include "dumpscope/analyze.h"

#include "run_fixture.h"
#include "test_hooks.h"

#include <gtest/gtest.h>

#include <atomic>

using namespace dumpscope;
using dumpscope::test::TempDir;

TEST(AnalyzePlanned, ComparesFromThePlanScanningTheRunsOnce) {
    TempDir dir;
    test::writeRunPair(dir);
    test::perturb(dir, 2, "h_q_logits");
    AnalyzeOptions options;
    options.threads = 4; // several threads writing the chunks the kept copy shares

    const std::uint64_t before = detail::plansMade();
    const Analysis planned = plan(dir / "a", dir / "b", options);
    const Analysis kept = planned; // shares every chunk with what is compared below
    std::atomic<std::size_t> calls{0};
    const Analysis compared = analyzePlanned(
        planned, options,
        [&](std::size_t, const BufferResult&, std::size_t, std::size_t) { return ++calls, true; });
    EXPECT_EQ(detail::plansMade() - before, 1u) << "plan() scanned; analyzePlanned() did not";

    const Analysis whole = analyze(dir / "a", dir / "b", options);
    EXPECT_EQ(detail::plansMade() - before, 2u);
    ASSERT_EQ(compared.buffers.size(), whole.buffers.size());
    EXPECT_EQ(calls.load(), whole.buffers.size());
    for (std::size_t i = 0; i < whole.buffers.size(); ++i) {
        const BufferResult &x = compared.buffers[i], &y = whole.buffers[i];
        EXPECT_EQ(x.step, y.step);
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.status, y.status) << x.fileName;
        EXPECT_EQ(x.kind, y.kind) << x.fileName;
        EXPECT_EQ(x.stats.nDiff, y.stats.nDiff) << x.fileName;
        EXPECT_FALSE(x.pending) << x.fileName;
    }
    EXPECT_EQ(compared.verdict.firstDivergentStep, 2u);
    EXPECT_EQ(compared.verdict.exitCode, whole.verdict.exitCode);
    EXPECT_EQ(compared.verdict.divergedGroups, whole.verdict.divergedGroups);
    EXPECT_EQ(compared.verdict.text, whole.verdict.text);

    // The kept plan still says what it said: nothing compared.
    ASSERT_EQ(kept.buffers.size(), compared.buffers.size());
    for (const BufferResult& b : kept.buffers)
        EXPECT_TRUE(b.pending || b.status == Status::error) << b.fileName;
    EXPECT_FALSE(kept.verdict.firstDivergentStep.has_value());
}

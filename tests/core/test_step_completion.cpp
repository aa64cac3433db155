// The rule for "a step is complete" while a pair is still being written (step_completion.h),
// on listings built by hand and given times: no clock, no sleeping.
#include "dumpscope/step_completion.h"

#include "test_support.h"

#include <gtest/gtest.h>

#include <memory>

using namespace dumpscope;
using namespace std::chrono_literals;
using Clock = StepCompletion::Clock;
using Steps = std::set<std::uint64_t>;

namespace {

const Clock::time_point t0 = Clock::time_point{} + 1h; // any steady time; the rule never reads it

ListedFile file(std::uint64_t step, const std::string& name, std::uint64_t size = 4,
                std::int64_t mtimeNs = 1) {
    return {"step_" + std::to_string(step) + "_" + name + ".bin", size, mtimeNs};
}

// A listing in which run A and run B hold the same files: `steps` with one file "x" each.
PairListing both(const Steps& steps) {
    PairListing listing;
    for (auto step : steps)
        listing.steps[step] = {{file(step, "x")}, {file(step, "x")}};
    return listing;
}

} // namespace

TEST(StepCompletion, AStepFollowedByALaterOneIsCompleteAtOnce) {
    StepCompletion rule(10s);
    rule.observe(both({0, 1, 2}), t0);
    EXPECT_EQ(rule.completeSteps(), (Steps{0, 1}));
    EXPECT_FALSE(rule.isComplete(2)) << "nothing follows it, and it was only just listed";
    EXPECT_EQ(rule.nextCompletion(), t0 + 10s);
}

TEST(StepCompletion, TheLastStepOnlyAfterTheSettleIntervalWithoutChange) {
    StepCompletion rule(1s);
    rule.observe(both({0}), t0);
    EXPECT_TRUE(rule.completeSteps().empty());
    rule.observe(both({0}), t0 + 999ms);
    EXPECT_FALSE(rule.isComplete(0));
    EXPECT_EQ(rule.nextCompletion(), t0 + 1s);
    rule.observe(both({0}), t0 + 1s);
    EXPECT_EQ(rule.completeSteps(), (Steps{0}));
    EXPECT_EQ(rule.nextCompletion(), std::nullopt) << "nothing is left to wait for";
}

TEST(StepCompletion, AFileThatGrowsStartsTheIntervalAgain) {
    StepCompletion rule(1s);
    PairListing listing = both({0});
    rule.observe(listing, t0);
    listing.steps[0].b[0].size = 8; // run B's file grew
    rule.observe(listing, t0 + 800ms);
    rule.observe(listing, t0 + 1200ms);
    EXPECT_FALSE(rule.isComplete(0)) << "run B's file changed 400 ms ago";
    EXPECT_EQ(rule.nextCompletion(), t0 + 1800ms);
    rule.observe(listing, t0 + 1800ms);
    EXPECT_TRUE(rule.isComplete(0));
    EXPECT_EQ(rule.lastChange(), t0 + 800ms);
}

TEST(StepCompletion, ANewModificationTimeOrANewFileIsAChangeToo) {
    StepCompletion rule(1s);
    PairListing listing = both({0});
    rule.observe(listing, t0);
    listing.steps[0].a[0].mtimeNs = 2; // rewritten with the same size
    rule.observe(listing, t0 + 900ms);
    rule.observe(listing, t0 + 1100ms);
    EXPECT_FALSE(rule.isComplete(0));
    listing.steps[0].a.push_back(file(0, "y")); // one more file of the same step
    rule.observe(listing, t0 + 1900ms);
    rule.observe(listing, t0 + 2800ms);
    EXPECT_FALSE(rule.isComplete(0));
    rule.observe(listing, t0 + 2900ms);
    EXPECT_TRUE(rule.isComplete(0));
}

// Each run is done with a step on its own terms: run A by moving on, run B by keeping still.
TEST(StepCompletion, EachRunIsDoneWithAStepByMovingOnOrByKeepingStill) {
    StepCompletion rule(1s);
    PairListing listing = both({0});
    listing.steps[1].a = {file(1, "x")}; // run A has moved on to step 1; run B has not
    rule.observe(listing, t0);
    EXPECT_FALSE(rule.isComplete(0)) << "run B may still be writing step 0";
    EXPECT_EQ(rule.nextCompletion(), t0 + 1s) << "step 1 is in one run only: it waits for none";
    listing.steps[0].a[0].size = 8; // run A rewrites step 0: it has moved on all the same
    rule.observe(listing, t0 + 1s);
    EXPECT_TRUE(rule.isComplete(0));
}

TEST(StepCompletion, AStepInOneRunOnlyIsNeverComplete) {
    StepCompletion rule(1s);
    PairListing listing = both({0});
    listing.steps[1].a = {file(1, "x")};
    listing.steps[2].a = {file(2, "x")};
    rule.observe(listing, t0);
    rule.observe(listing, t0 + 1h);
    EXPECT_EQ(rule.completeSteps(), (Steps{0}));
    EXPECT_FALSE(rule.isComplete(1)) << "a later step in run A does not make up for run B";
    EXPECT_EQ(rule.nextCompletion(), std::nullopt);

    // Run B catches up: step 1 is complete once a later step exists in both runs, step 2 once
    // run B's copy (new) has kept still.
    listing.steps[1].b = {file(1, "x")};
    listing.steps[2].b = {file(2, "x")};
    rule.observe(listing, t0 + 2h);
    EXPECT_EQ(rule.completeSteps(), (Steps{0, 1}));
    EXPECT_EQ(rule.nextCompletion(), t0 + 2h + 1s);
}

TEST(StepCompletion, AnEmptyListingHasNoStep) {
    StepCompletion rule(1s);
    EXPECT_FALSE(rule.hasListing());
    EXPECT_TRUE(rule.completeSteps().empty());
    EXPECT_EQ(rule.nextCompletion(), std::nullopt);
    EXPECT_EQ(rule.lastChange(), std::nullopt);

    rule.observe(PairListing{}, t0);
    rule.observe(PairListing{}, t0 + 1h);
    EXPECT_TRUE(rule.hasListing());
    EXPECT_TRUE(rule.completeSteps().empty());
    EXPECT_FALSE(rule.isComplete(0));
    EXPECT_EQ(rule.nextCompletion(), std::nullopt);
    EXPECT_EQ(rule.lastChange(), t0);
}

// A listing given shared is judged and kept as it is: a long run's listing (a file entry per
// step) is never copied to be judged, and whoever listed it can keep it too.
TEST(StepCompletion, ASharedListingIsKeptAsItIsNotCopied) {
    StepCompletion rule(1s);
    EXPECT_FALSE(rule.latestShared());
    EXPECT_TRUE(rule.latest().steps.empty());
    const auto listing = std::make_shared<const PairListing>(both({0, 1}));
    rule.observe(listing, t0);
    EXPECT_EQ(rule.latestShared(), listing);
    EXPECT_EQ(&rule.latest(), listing.get());
    EXPECT_EQ(rule.completeSteps(), (Steps{0}));
    rule.observe(both({0, 1}), t0 + 1s); // the same files, listed again
    EXPECT_NE(rule.latestShared(), listing);
    EXPECT_EQ(rule.completeSteps(), (Steps{0, 1}));
    EXPECT_EQ(rule.lastChange(), t0);
    rule.clear();
    EXPECT_FALSE(rule.latestShared());
    EXPECT_TRUE(rule.latest().steps.empty());
}

// Only the time between listings that agree counts, not how many listings there were.
TEST(StepCompletion, EqualListingsAtDifferentTimes) {
    StepCompletion close(1s), apart(1s);
    for (int i = 0; i <= 9; ++i)
        close.observe(both({0}), t0 + i * 100ms);
    EXPECT_FALSE(close.isComplete(0)) << "ten listings over 900 ms";
    apart.observe(both({0}), t0);
    apart.observe(both({0}), t0 + 1s);
    EXPECT_TRUE(apart.isComplete(0)) << "two listings 1 s apart";
    EXPECT_EQ(apart.lastChange(), t0);
}

TEST(StepCompletion, AZeroSettleIntervalCompletesEveryStepInBothRuns) {
    StepCompletion rule(0s);
    PairListing listing = both({3});
    listing.steps[4].b = {file(4, "x")};
    rule.observe(listing, t0);
    EXPECT_EQ(rule.completeSteps(), (Steps{3}));
}

TEST(StepCompletion, AStepThatGoesAndComesBackStartsAgain) {
    StepCompletion rule(1s);
    rule.observe(both({0}), t0);
    rule.observe(PairListing{}, t0 + 500ms);
    rule.observe(both({0}), t0 + 1s);
    EXPECT_FALSE(rule.isComplete(0));
    rule.observe(both({0}), t0 + 2s);
    EXPECT_TRUE(rule.isComplete(0));
}

TEST(StepCompletion, RestartHoldsAStepBackForAnotherInterval) {
    StepCompletion rule(1s);
    rule.observe(both({0}), t0);
    rule.observe(both({0}), t0 + 1s);
    ASSERT_TRUE(rule.isComplete(0));
    rule.restart(0, t0 + 1s); // a comparison saw a buffer change while it was read
    EXPECT_FALSE(rule.isComplete(0));
    rule.observe(both({0}), t0 + 2s);
    EXPECT_TRUE(rule.isComplete(0));

    // A later step makes it complete whatever the restart says.
    rule.restart(0, t0 + 2s);
    rule.observe(both({0, 1}), t0 + 2s);
    EXPECT_TRUE(rule.isComplete(0));
}

TEST(StepCompletion, ARunThatCannotBeListedChangesTheListing) {
    StepCompletion rule(1s);
    rule.observe(both({0}), t0);
    PairListing gone;
    gone.steps[0].a = {file(0, "x")};
    gone.errorB = "b: no such run directory";
    rule.observe(gone, t0 + 2s);
    EXPECT_FALSE(rule.isComplete(0));
    EXPECT_EQ(rule.lastChange(), t0 + 2s);
}

TEST(StepCompletion, SettleIntervalCanChangeBetweenListings) {
    StepCompletion rule(10s);
    rule.observe(both({0}), t0);
    rule.observe(both({0}), t0 + 1s);
    EXPECT_FALSE(rule.isComplete(0));
    rule.setSettle(1s);
    EXPECT_TRUE(rule.isComplete(0)) << "judged on the interval set now";
    rule.clear();
    EXPECT_FALSE(rule.hasListing());
    EXPECT_TRUE(rule.completeSteps().empty());
}

// The listing of real directories: scanRun's names, sizes and modification times.
TEST(StepCompletion, ListsWhatScanRunSaw) {
    test::TempDir dir;
    test::writeDump(dir / "a", 0, "x", std::vector<float>{1});
    test::writeDump(dir / "a", 1, "x", std::vector<float>{1, 2});
    test::writeDump(dir / "b", 0, "x", std::vector<float>{1});
    const RunScan a = scanRun(dir / "a"), b = scanRun(dir / "b");
    const PairListing listing = pairListing(a, b);
    ASSERT_EQ(listing.steps.size(), 2u);
    ASSERT_EQ(listing.steps.at(1).a.size(), 1u);
    EXPECT_EQ(listing.steps.at(1).a[0].name, "step_1_x.bin");
    EXPECT_EQ(listing.steps.at(1).a[0].size, 8u);
    EXPECT_EQ(listing.steps.at(1).a[0].mtimeNs, a.files.at({1, "x"}).mtimeNs);
    EXPECT_TRUE(listing.steps.at(1).b.empty());
    EXPECT_TRUE(listing.errorA.empty());

    StepCompletion rule(1h);
    rule.observe(a, b, t0);
    EXPECT_TRUE(rule.completeSteps().empty())
        << "run A moved on from step 0, run B has not and was only just listed";
    rule.observe(a, scanRun(dir / "missing"), t0 + 2h);
    EXPECT_FALSE(rule.latest().errorB.empty());
    EXPECT_TRUE(rule.completeSteps().empty());
}

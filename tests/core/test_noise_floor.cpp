// The noise floor measured from reruns: its envelope, a candidate judged by how much it
// differs, and a pair read over the floor, on runs whose noise is real reduction-order noise
// (float32 sums of the same terms in shuffled orders).
#include "dumpscope/multi_report.h"
#include "dumpscope/multi_run.h"
#include "dumpscope/noise_floor.h"

#include "noise_runs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>

using dumpscope::Analysis;
using dumpscope::FloorReading;
using dumpscope::Kind;
using dumpscope::NoiseFloor;
using dumpscope::Status;
using dumpscope::test::NoiseRunSpec;
using dumpscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

// A base (seed 0) and runs written beside it.
struct NoiseRuns {
    TempDir dir;
    fs::path base() const { return dir / "base"; }
    fs::path add(const std::string& name, const NoiseRunSpec& spec) {
        dumpscope::test::writeNoiseRun(dir / name, spec);
        return dir / name;
    }
    NoiseRuns() { dumpscope::test::writeNoiseRun(base(), {}); }
};

const dumpscope::BufferResult& bufferAt(const Analysis& an, std::uint64_t step,
                                        const std::string& name) {
    for (const auto& b : an.buffers)
        if (b.step == step && b.name == name) return b;
    throw std::runtime_error("no buffer " + name);
}

std::vector<const Analysis*> pointers(const std::vector<Analysis>& v) {
    std::vector<const Analysis*> out;
    for (const auto& a : v)
        out.push_back(&a);
    return out;
}

} // namespace

TEST(NoiseFloor, ReductionOrderNoiseVariesBetweenRerunsWithinTheMargin) {
    // The margin's premise: the largest |Δ| of pure reduction-order noise over a buffer moves
    // between reruns by less than kFloorMargin.
    NoiseRuns runs;
    double lo = 1e300, hi = 0;
    for (std::uint32_t seed = 1; seed <= 8; ++seed) {
        const auto an =
            dumpscope::analyze(runs.base(), runs.add("r" + std::to_string(seed), {seed}));
        for (std::uint64_t step = 1; step < dumpscope::test::kNoiseSteps; ++step) {
            const auto& b = bufferAt(an, step, "grad_ln_a_gain_per_row");
            ASSERT_EQ(b.status, Status::diverge);
            EXPECT_EQ(b.kind, Kind::rounding);
            lo = std::min(lo, b.stats.maxAbsDelta);
            hi = std::max(hi, b.stats.maxAbsDelta);
        }
        EXPECT_EQ(bufferAt(an, 0, "grad_ln_a_gain_per_row").status, Status::equal);
    }
    ASSERT_GT(lo, 0);
    EXPECT_LT(hi / lo, dumpscope::kFloorMargin);
}

TEST(NoiseFloor, EnvelopeCoversEveryRerunAndCountsThem) {
    NoiseRuns runs;
    std::vector<Analysis> reruns;
    for (std::uint32_t seed : {11u, 12u, 13u})
        reruns.push_back(
            dumpscope::analyze(runs.base(), runs.add("r" + std::to_string(seed), {seed})));
    const NoiseFloor floor = dumpscope::buildNoiseFloor(pointers(reruns));
    EXPECT_TRUE(floor.error.empty());
    EXPECT_EQ(floor.reruns.size(), 3u);
    EXPECT_EQ(floor.firstDivergentStep, 1u);
    EXPECT_FALSE(floor.clean());
    for (std::uint64_t step = 1; step < dumpscope::test::kNoiseSteps; ++step) {
        const auto& b = bufferAt(reruns[0], step, "grad_ln_a_gain_per_row");
        const auto* e = floor.find(b);
        ASSERT_NE(e, nullptr);
        double maxAbs = 0;
        std::uint64_t maxUlp = 0;
        double maxShare = 0;
        for (const auto& an : reruns) {
            const auto& s = bufferAt(an, step, "grad_ln_a_gain_per_row").stats;
            maxAbs = std::max(maxAbs, s.maxAbsDelta);
            maxUlp = std::max(maxUlp, s.maxUlp);
            maxShare = std::max(maxShare, static_cast<double>(s.nDiff) / static_cast<double>(s.nA));
        }
        EXPECT_EQ(e->maxAbsDelta, maxAbs);
        EXPECT_EQ(e->maxUlp, maxUlp);
        EXPECT_DOUBLE_EQ(e->maxShare, maxShare);
        EXPECT_EQ(e->rerunsDiverged, 3u);
        EXPECT_EQ(e->kinds, std::vector<Kind>{Kind::rounding});
    }
    // Equal everywhere else: step 0, and every buffer computed in one order.
    EXPECT_EQ(floor.find(bufferAt(reruns[0], 0, "grad_ln_a_gain_per_row")), nullptr);
    EXPECT_EQ(floor.find(bufferAt(reruns[0], 2, "q_logits")), nullptr);
    EXPECT_EQ(floor.buffers.size(), dumpscope::test::kNoiseSteps - 1);
}

TEST(NoiseFloor, StaleRowsInANoisyBufferAreBeyondTheFloorWithTheirFactor) {
    // A rerun as the floor (the first candidate), then a candidate with the same kind of noise
    // and, from step 2, a quarter of the noisy buffer's rows stale.
    NoiseRuns runs;
    const auto rerun = runs.add("rerun", {21});
    NoiseRunSpec bug{22};
    bug.staleFrom = 2;
    const auto candidate = runs.add("candidate", bug);
    const auto m = dumpscope::analyzeCandidates(runs.base(), {rerun, candidate});
    ASSERT_EQ(m.summary.againstFloor.size(), 1u);
    const auto& f = m.summary.againstFloor[0];
    EXPECT_EQ(f.reading, FloorReading::beyond_floor) << f.text;
    ASSERT_FALSE(f.beyondFloor.empty());
    EXPECT_EQ(f.beyondFloor.front(), (dumpscope::BufferAt{2, "I", "grad_ln_a_gain_per_row"}));
    ASSERT_EQ(f.excess.size(), f.beyondFloor.size());
    const auto& j = f.excess.front();
    ASSERT_TRUE(j.floor);
    EXPECT_FALSE(j.within);
    EXPECT_EQ(j.kind, Kind::numeric);
    EXPECT_EQ(j.floor->kinds, std::vector<Kind>{Kind::rounding});
    EXPECT_GT(j.factor, 1e4);
    EXPECT_EQ(j.factor, j.maxAbsDelta / j.floor->maxAbsDelta);
    EXPECT_NE(f.text.find("BEYOND the floor"), std::string::npos) << f.text;
    EXPECT_NE(f.text.find("× the floor's"), std::string::npos) << f.text;
    // Step 1 holds noise only: within the floor, so not listed.
    for (const auto& b : f.beyondFloor)
        EXPECT_GE(b.step, 2u);
}

TEST(NoiseFloor, NoiseOnlyCandidateIsWithinTheFloorOfSeveralReruns) {
    NoiseRuns runs;
    std::vector<fs::path> reruns;
    for (std::uint32_t seed : {31u, 32u, 33u})
        reruns.push_back(runs.add("r" + std::to_string(seed), {seed}));
    NoiseRunSpec bug{34};
    bug.staleFrom = 2;
    const auto noisy = runs.add("noisy", {35});
    const auto buggy = runs.add("buggy", bug);
    const auto m = dumpscope::analyzeCandidates(runs.base(), {noisy, buggy}, {}, reruns);
    ASSERT_EQ(m.floorPairs.size(), 3u);
    const auto& s = m.summary;
    EXPECT_EQ(s.floorReruns, reruns);
    ASSERT_EQ(s.againstFloor.size(), 2u); // every candidate, the first too
    EXPECT_EQ(s.againstFloor[0].candidate, 0u);
    EXPECT_EQ(s.againstFloor[0].reading, FloorReading::within_floor) << s.againstFloor[0].text;
    EXPECT_EQ(s.againstFloor[0].nBeyondFloor, 0u);
    EXPECT_EQ(s.againstFloor[1].reading, FloorReading::beyond_floor) << s.againstFloor[1].text;
    EXPECT_EQ(s.againstFloor[1].excess.front().floor->rerunsDiverged, 3u);
    // Each pair is read over the floor: the noise is not counted, the stale rows are.
    EXPECT_EQ(m.pairs[0].verdict.exitCode, 0);
    EXPECT_EQ(s.candidates[0].rank, 0u);
    EXPECT_EQ(m.pairs[1].verdict.firstDivergentStep, 2u);
    EXPECT_EQ(s.exitCode, 1);
    EXPECT_NE(dumpscope::noiseFloorIntro(s).find("3 rerun(s)"), std::string::npos);
}

TEST(NoiseFloor, ABufferNoRerunDiffersInIsBeyondWithoutAFactor) {
    NoiseRuns runs;
    const auto rerun = runs.add("rerun", {41});
    NoiseRunSpec bug{42};
    bug.staleFrom = 2;
    bug.staleBuffer = "q_logits"; // exact in every rerun
    const auto candidate = runs.add("candidate", bug);
    const auto m = dumpscope::analyzeCandidates(runs.base(), {rerun, candidate});
    const auto& f = m.summary.againstFloor.at(0);
    EXPECT_EQ(f.reading, FloorReading::other_buffers) << f.text;
    ASSERT_EQ(f.beyondFloor.front(), (dumpscope::BufferAt{2, "H", "q_logits"}));
    EXPECT_FALSE(f.excess.front().floor);
    EXPECT_EQ(f.excess.front().factor, 0);
    EXPECT_NE(dumpscope::describeAgainstFloor(f.excess.front()).find("where no rerun does"),
              std::string::npos);
}

TEST(NoiseFloor, APairReadOverTheFloorBlamesTheRealBugNotTheNoise) {
    NoiseRuns runs;
    std::vector<Analysis> reruns;
    for (std::uint32_t seed : {51u, 52u})
        reruns.push_back(
            dumpscope::analyze(runs.base(), runs.add("r" + std::to_string(seed), {seed})));
    NoiseRunSpec bug{53};
    bug.staleFrom = 2;
    bug.staleBuffer = "q_logits";
    Analysis an = dumpscope::analyze(runs.base(), runs.add("candidate", bug));
    // Bitwise, the noise at step 1 is the first divergence.
    EXPECT_EQ(an.verdict.firstDivergentStep, 1u);
    EXPECT_EQ(an.verdict.rootCause.buffers, std::vector<std::string>{"grad_ln_a_gain_per_row"});

    auto floor = std::make_shared<const NoiseFloor>(dumpscope::buildNoiseFloor(pointers(reruns)));
    const std::size_t n = dumpscope::applyNoiseFloor(an, floor);
    EXPECT_EQ(n, dumpscope::test::kNoiseSteps - 1); // the noisy buffer at steps 1..3
    EXPECT_EQ(an.noiseFloor, floor);
    EXPECT_EQ(bufferAt(an, 1, "grad_ln_a_gain_per_row").status, Status::within_floor);
    EXPECT_EQ(bufferAt(an, 2, "grad_ln_a_gain_per_row").status, Status::within_floor);
    EXPECT_EQ(an.verdict.firstDivergentStep, 2u);
    EXPECT_EQ(an.verdict.rootCause.groups, std::vector<std::string>{"H"});
    EXPECT_EQ(an.verdict.rootCause.buffers, std::vector<std::string>{"q_logits"});
    EXPECT_EQ(an.verdict.exitCode, 1);
    // The matrix shows the noise like tolerated differences: not counted, still visible.
    const auto& cell = an.matrix[1].cells[2];
    ASSERT_EQ(cell.group, "I");
    EXPECT_EQ(cell.status, Status::within_floor);
    EXPECT_EQ(cell.nDivergent, 0u);
}

TEST(NoiseFloor, AMoreSevereKindIsBeyondWhateverItsSize) {
    NoiseRuns runs;
    const auto rerunPath = runs.add("rerun", {61});
    const auto candPath = runs.add("candidate", {62});
    // A NaN on one side of the noisy buffer at step 1: the floor only ever rounds there.
    std::string rest;
    for (const auto& g : dumpscope::defaultSchema().groups)
        for (const auto& b : g.buffers)
            if (b.name == "grad_ln_a_gain_per_row") rest = b.file;
    const auto file = candPath / ("step_1_" + rest + ".bin");
    std::string bytes = dumpscope::test::readFile(file);
    ASSERT_EQ(bytes.size(), 4 * dumpscope::test::kNoiseBatch * dumpscope::test::kNoiseCols);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::memcpy(bytes.data() + 4, &nan, 4);
    dumpscope::test::writeBytes(file, bytes.data(), bytes.size());
    const Analysis rerun = dumpscope::analyze(runs.base(), rerunPath);
    Analysis cand = dumpscope::analyze(runs.base(), candPath);
    const NoiseFloor floor = dumpscope::buildNoiseFloor({&rerun});
    const auto j = dumpscope::judgeAgainstFloor(floor, bufferAt(cand, 1, "grad_ln_a_gain_per_row"));
    EXPECT_EQ(j.kind, Kind::nan_inf_mismatch);
    EXPECT_FALSE(j.within);
    // Its neighbour steps carry noise only.
    EXPECT_TRUE(
        dumpscope::judgeAgainstFloor(floor, bufferAt(cand, 2, "grad_ln_a_gain_per_row")).within);
}

TEST(NoiseFloor, AnUnreadableRerunMakesTheFloorUnusable) {
    NoiseRuns runs;
    const Analysis missing = dumpscope::analyze(runs.base(), runs.dir / "missing");
    const NoiseFloor floor = dumpscope::buildNoiseFloor({&missing});
    EXPECT_FALSE(floor.error.empty());
    Analysis an = dumpscope::analyze(runs.base(), runs.add("candidate", {71}));
    EXPECT_EQ(dumpscope::applyNoiseFloor(an, std::make_shared<const NoiseFloor>(floor)), 0u);
    EXPECT_EQ(an.verdict.firstDivergentStep, 1u);
}

// A group dumped at some steps and at others not at all (in neither run) is a hole in the dumps:
// the real dumpscope-cli warns of it once, naming every step it is missing at, before or after
// the first divergent one, instead of only the culprit table's "(no dump)" at that one step.
// --reference-compat stays the reference script's, which says nothing of it.
#include "cli_pair.h"
#include "run_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using dumpscope::test::cliOnPair;
using dumpscope::test::TempDir;
using json = nlohmann::json;

namespace {

// Removes every buffer of group `id` at `step` from both runs.
void dropGroup(const TempDir& dir, const std::string& id, std::uint64_t step) {
    for (const auto& g : dumpscope::defaultSchema().groups)
        if (g.id == id)
            for (const auto& b : g.buffers)
                for (const char* run : {"a", "b"})
                    fs::remove(dir / run /
                               ("step_" + std::to_string(step) + "_" + b.file + ".bin"));
}

const std::string kWarning = "warning: group K (outcome head inputs) is not dumped at steps 1, "
                             "3 (in neither run), while it is at 3 other step(s): nothing of it "
                             "is compared there\n";

} // namespace

TEST(CliDumpGaps, AGroupMissingAtSomeStepsIsFlaggedAtEachOfThem) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0, 1, 2, 3, 4});
    dumpscope::test::perturb(dir, 2, "h_q_logits"); // the first divergent step is 2
    dropGroup(dir, "K", 1);                         // before it
    dropGroup(dir, "K", 3);                         // and after it
    const auto r = cliOnPair(dir, {"--quiet"});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_NE(r.err.find(kWarning), std::string::npos) << r.err;

    const auto j = cliOnPair(dir, {"--json"});
    const json doc = json::parse(j.out);
    std::size_t said = 0;
    for (const auto& w : doc["warnings"])
        said += w.get<std::string>().rfind("group K (outcome head inputs) is not dumped at "
                                           "steps 1, 3 ",
                                           0) == 0;
    EXPECT_EQ(said, 1u) << doc["warnings"].dump();
    // The matrix still shows the holes as missing cells.
    EXPECT_EQ(doc["steps"][1]["groups"][4]["status"], "missing") << doc["steps"][1].dump();
}

TEST(CliDumpGaps, AGroupDumpedAtEveryStepOrAtNoneIsNotFlagged) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0, 1, 2});
    for (std::uint64_t step : {0, 1, 2})
        dropGroup(dir, "K", step); // K is not dumped at all: the schema only describes it
    const auto r = cliOnPair(dir, {"--quiet"});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_EQ(r.err.find("not dumped"), std::string::npos) << r.err;
}

TEST(CliDumpGaps, ReferenceCompatSaysNothingOfIt) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0, 1, 2, 3});
    dumpscope::test::perturb(dir, 2, "h_q_logits");
    dropGroup(dir, "K", 1);
    const auto r = cliOnPair(dir, {"--reference-compat"});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    for (const std::string& text : {r.out, r.err})
        EXPECT_EQ(text.find("not dumped"), std::string::npos) << text;
}

// --watch says it on the line of each step that lacks a group an earlier step had, and the final
// verdict's warning names every such step.
TEST(CliDumpGaps, WatchSaysItOnTheStepsLine) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0, 1, 2});
    dropGroup(dir, "K", 1);
    const auto r =
        dumpscope::test::runProcess({DUMPSCOPE_CLI_PATH, (dir / "a").string(), (dir / "b").string(),
                                     "--watch", "--until-step", "2", "--settle", "0.2"},
                                    {}, 60);
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("step 0: equal  equal: G, H, I, J, K\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("step 1: equal  equal: G, H, I, J  not dumped: K\n"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("step 2: equal  equal: G, H, I, J, K\n"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("warning: group K (outcome head inputs) is not dumped at step 1 "),
              std::string::npos)
        << r.err;
}

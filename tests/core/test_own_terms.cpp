// Runs read without a schema get a verdict in their own terms: no reference group, the root
// buffer first in production order (or by captured inputs), the rest downstream, groups by the
// module tree.
#include "dumpscope/analyze.h"
#include "dumpscope/report.h"
#include "dumpscope/verdict.h"

#include "model_run_fixture.h"
#include "run_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <set>

using namespace dumpscope;
using dumpscope::test::TempDir;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr const char* kRoot = "layers.5.mlp.c_proj";

Analysis modelPair(const TempDir& dir, const AnalyzeOptions& options = {}) {
    test::writeModelPair(dir.path(), 12, 4, 2, kRoot);
    return analyze(dir / "a", dir / "b", options);
}

std::set<std::string> groupIds(const Analysis& an) {
    std::set<std::string> ids;
    for (const auto& g : an.schema->groups)
        ids.insert(g.id);
    return ids;
}

std::string groupOf(const Analysis& an, const std::string& name) {
    for (const auto& b : an.buffers)
        if (b.name == name) return b.group;
    return {};
}

// One file per tensor in DIR/{a,b}/step_0: "b_first" produced before "a_second", both
// diverging in run B.
void writeTwoFiles(const TempDir& dir) {
    for (const char* run : {"a", "b"}) {
        const float d = run[0] == 'b' ? 1.0f : 0.0f;
        test::writeNpy(dir / run / "step_0" / "b_first.npy", {1.0f + d, 2.0f});
        test::writeNpy(dir / run / "step_0" / "a_second.npy", {3.0f + d, 4.0f});
        test::writeNpy(dir / run / "step_0" / "c_equal.npy", {5.0f, 6.0f});
    }
}

void setMtime(const fs::path& file, int secondsAgo) {
    fs::last_write_time(file, fs::file_time_type::clock::now() - std::chrono::seconds(secondsAgo));
}

BufferResult divergent(const std::string& name, std::uint64_t order,
                       std::optional<std::vector<std::string>> inputs) {
    BufferResult b;
    b.step = 0;
    b.group = name.substr(0, name.find('.'));
    b.name = name;
    b.dumpOrder = order;
    b.orderSource = OrderSource::capture_log;
    b.status = Status::diverge;
    b.kind = Kind::rounding;
    b.pending = false;
    b.inputs = std::move(inputs);
    return b;
}

// An analysis in its own terms over hand-made results, as a capture log would give them.
Analysis ownAnalysis(std::vector<BufferResult> buffers) {
    Analysis an;
    an.terms = VerdictTerms::own;
    auto schema = std::make_shared<Schema>();
    for (const auto& b : buffers) {
        if (!schema->group(b.group)) schema->groups.push_back({b.group, b.group, {}});
        for (auto& g : schema->groups)
            if (g.id == b.group) g.buffers.push_back({b.name, b.name, DType::f32, {}});
    }
    an.schema = schema;
    an.steps = {0};
    for (auto& b : buffers)
        an.buffers.push_back(std::move(b));
    summarize(an);
    return an;
}

} // namespace

TEST(OwnTerms, TheRootOfATwelveLayerRunIsTheOneBufferWhereItBegins) {
    TempDir dir;
    const Analysis an = modelPair(dir);
    EXPECT_EQ(an.terms, VerdictTerms::own);
    const Verdict& v = an.verdict;
    EXPECT_EQ(v.exitCode, 1);
    EXPECT_EQ(v.decisionCase, DecisionCase::own_terms);
    ASSERT_EQ(v.firstDivergentStep, 2u);
    const RootCause& rc = v.rootCause;
    EXPECT_EQ(rc.buffers, std::vector<std::string>{kRoot});
    EXPECT_EQ(rc.groups, std::vector<std::string>{"layers.5"});
    ASSERT_EQ(rc.sources.size(), 1u);
    EXPECT_EQ(rc.sources[0].kind, Kind::rounding);
    EXPECT_EQ(rc.kinds, std::vector<Kind>{Kind::rounding});
    EXPECT_EQ(rc.order, OrderSource::file_keys);
    // Every buffer produced after it at step 2, in production order.
    const auto names = test::modelBufferNames(12);
    const auto at = std::find(names.begin(), names.end(), kRoot);
    EXPECT_EQ(rc.downstream, std::vector<std::string>(at + 1, names.end()));
    EXPECT_EQ(rc.downstream.size(), 141u);
    EXPECT_NE(v.text.find("Root: layers.5.mlp.c_proj, the first divergent buffer in production "
                          "order (the order of the keys in the dumped files)"),
              std::string::npos)
        << v.text;
}

TEST(OwnTerms, NoReferenceGroupAppearsAndGroupsFollowTheModuleTree) {
    TempDir dir;
    const Analysis an = modelPair(dir);
    std::set<std::string> expected{"embed", "ln_f", "head"};
    for (int l = 0; l < 12; ++l)
        expected.insert("layers." + std::to_string(l));
    EXPECT_EQ(groupIds(an), expected);
    EXPECT_EQ(an.groupDepth, 2u);
    for (const auto& row : an.matrix)
        EXPECT_EQ(row.cells.size(), expected.size());
    for (const auto& row : an.verdict.culprits)
        EXPECT_TRUE(expected.count(row.group)) << row.group;
    // A module's output and its parameters' gradients are one group.
    EXPECT_EQ(groupOf(an, "head"), "head");
    EXPECT_EQ(groupOf(an, "head.bias.grad"), "head");
    EXPECT_EQ(groupOf(an, "layers.3.mlp.c_fc.weight.grad"), "layers.3");
    EXPECT_EQ(groupOf(an, "embed.weight.grad"), "embed");
}

TEST(OwnTerms, AGivenGroupDepthCutsTheNamesThere) {
    TempDir dir;
    AnalyzeOptions one;
    one.groupDepth = 1;
    const Analysis shallow = modelPair(dir, one);
    EXPECT_EQ(groupIds(shallow), (std::set<std::string>{"embed", "layers", "ln_f", "head"}));
    AnalyzeOptions three;
    three.groupDepth = 3;
    const Analysis deep = analyze(dir / "a", dir / "b", three);
    EXPECT_EQ(deep.groupDepth, 3u);
    EXPECT_EQ(groupOf(deep, kRoot), "layers.5.mlp");
    EXPECT_EQ(groupOf(deep, "layers.5"), "layers.5"); // shorter than the depth: its own group
    EXPECT_EQ(groupOf(deep, "layers.5.ln_2.bias.grad"), "layers.5.ln_2");
    EXPECT_EQ(deep.verdict.rootCause.buffers, std::vector<std::string>{kRoot});
}

TEST(OwnTerms, TheJsonHasItsVersionTheRootAloneAndItsDownstream) {
    TempDir dir;
    const json doc = json::parse(reportJson(modelPair(dir)));
    EXPECT_EQ(doc["format_version"], kJsonFormatVersion);
    EXPECT_EQ(doc["format_version"], 2);
    EXPECT_EQ(doc["terms"], "own");
    EXPECT_TRUE(doc["schema"].is_null());
    EXPECT_EQ(doc["group_depth"], 2);
    EXPECT_EQ(doc["decision"]["case"], "own_terms");
    const auto& rc = doc["root_cause"];
    EXPECT_EQ(rc["buffers"], json::array({kRoot}));
    EXPECT_EQ(rc["downstream"].size(), 141u);
    EXPECT_EQ(rc["downstream"][0], "layers.5.mlp");
    EXPECT_EQ(rc["order"], "file_keys");
    EXPECT_EQ(rc["sources"][0]["kind"], "rounding");
    EXPECT_TRUE(doc["culprits"].size() == 15u) << doc["culprits"].dump();
}

TEST(OwnTerms, ModificationTimesOrderOneFilePerTensor) {
    TempDir dir;
    writeTwoFiles(dir);
    for (const char* run : {"a", "b"}) {
        setMtime(dir / run / "step_0" / "b_first.npy", 30);
        setMtime(dir / run / "step_0" / "a_second.npy", 20);
        setMtime(dir / run / "step_0" / "c_equal.npy", 10);
    }
    const Analysis an = analyze(dir / "a", dir / "b");
    ASSERT_EQ(an.terms, VerdictTerms::own);
    const RootCause& rc = an.verdict.rootCause;
    EXPECT_EQ(rc.buffers, std::vector<std::string>{"b_first"});
    EXPECT_EQ(rc.downstream, std::vector<std::string>{"a_second"});
    EXPECT_EQ(rc.order, OrderSource::mtime);
    EXPECT_NE(an.verdict.text.find("(the files' modification times)"), std::string::npos)
        << an.verdict.text;
}

TEST(OwnTerms, FilesWrittenWithinOneTickAreOrderedByNameAmongThemselves) {
    // Files saved faster than the file system's clock ticks share a time: the times still order
    // the rest, and names the tie (a_second before b_first here, both after c_equal).
    TempDir dir;
    writeTwoFiles(dir);
    const auto tick = fs::file_time_type::clock::now() - std::chrono::seconds(20);
    for (const char* run : {"a", "b"}) {
        setMtime(dir / run / "step_0" / "c_equal.npy", 30);
        fs::last_write_time(dir / run / "step_0" / "b_first.npy", tick);
        fs::last_write_time(dir / run / "step_0" / "a_second.npy", tick);
    }
    const Analysis an = analyze(dir / "a", dir / "b");
    const RootCause& rc = an.verdict.rootCause;
    EXPECT_EQ(rc.buffers, std::vector<std::string>{"a_second"});
    EXPECT_EQ(rc.downstream, std::vector<std::string>{"b_first"});
    EXPECT_EQ(rc.order, OrderSource::mtime);
}

TEST(OwnTerms, EqualModificationTimesLeaveTheNamesAndSaySo) {
    TempDir dir;
    writeTwoFiles(dir);
    const auto now = fs::file_time_type::clock::now();
    for (const char* run : {"a", "b"})
        for (const char* f : {"b_first.npy", "a_second.npy", "c_equal.npy"})
            fs::last_write_time(dir / run / "step_0" / f, now);
    const Analysis an = analyze(dir / "a", dir / "b");
    const RootCause& rc = an.verdict.rootCause;
    EXPECT_EQ(rc.buffers, std::vector<std::string>{"a_second"});
    EXPECT_EQ(rc.order, OrderSource::names);
    EXPECT_NE(an.verdict.text.find("(the names (nothing else orders them))"), std::string::npos)
        << an.verdict.text;
}

TEST(OwnTerms, CapturedInputsFindTwoIndependentRootsAsTwo) {
    // embed -> a.out -> a.next; b.out is fed by embed only, which is equal.
    BufferResult embed = divergent("embed", 0, std::vector<std::string>{});
    embed.status = Status::equal;
    const Analysis an =
        ownAnalysis({embed, divergent("a.out", 1, std::vector<std::string>{"embed"}),
                     divergent("a.next", 2, std::vector<std::string>{"a.out"}),
                     divergent("b.out", 3, std::vector<std::string>{"embed"})});
    const RootCause& rc = an.verdict.rootCause;
    EXPECT_EQ(rc.buffers, (std::vector<std::string>{"a.out", "b.out"}));
    EXPECT_EQ(rc.downstream, std::vector<std::string>{"a.next"});
    ASSERT_EQ(rc.sources.size(), 2u);
    EXPECT_TRUE(rc.sources[1].declaredInputs);
    EXPECT_EQ(rc.order, OrderSource::capture_log);
}

TEST(OwnTerms, UnknownInputsAreNeverARootMerelyForLackOfARecord) {
    // c.sum's inputs were not captured (a residual sum outside any module): a divergent buffer
    // precedes it, so it is downstream; d.first has unknown inputs and nothing divergent before
    // it on its rank, so it is a root there.
    std::vector<BufferResult> buffers{divergent("a.out", 0, std::vector<std::string>{}),
                                      divergent("c.sum", 1, std::nullopt)};
    BufferResult other = divergent("d.first", 0, std::nullopt);
    other.rank = 1;
    for (auto& b : buffers)
        b.rank = 0;
    buffers.push_back(other);
    Analysis an = ownAnalysis(buffers);
    const RootCause& rc = an.verdict.rootCause;
    EXPECT_EQ(rc.buffers, (std::vector<std::string>{"a.out", "d.first"}));
    EXPECT_EQ(rc.downstream, std::vector<std::string>{"c.sum"});
    ASSERT_EQ(rc.sources.size(), 2u);
    EXPECT_EQ(rc.sources[1].rank, 1u);
    EXPECT_EQ(rc.ranks, (std::vector<std::uint64_t>{0, 1}));
}

TEST(OwnTerms, RunsLaidOutByTheSchemaKeepItsTerms) {
    TempDir dir;
    test::writeRunPair(dir, {0, 1});
    test::perturb(dir, 1, "h_q_logits");
    const Analysis an = analyze(dir / "a", dir / "b");
    EXPECT_EQ(an.terms, VerdictTerms::schema);
    EXPECT_EQ(an.verdict.decisionCase, DecisionCase::h_without_g);
    EXPECT_TRUE(an.verdict.rootCause.downstream.empty());
    // A schema the user gives is its terms too, whatever the files.
    TempDir model;
    AnalyzeOptions given;
    given.schema = std::shared_ptr<const Schema>(std::shared_ptr<const Schema>{}, &defaultSchema());
    const Analysis withSchema = modelPair(model, given);
    EXPECT_EQ(withSchema.terms, VerdictTerms::schema);
    EXPECT_TRUE(withSchema.schema->group("G"));
}

TEST(OwnTerms, NamesCutCountsWhatItLeavesOut) {
    std::vector<std::string> names;
    for (int i = 0; i < 12; ++i)
        names.push_back("n" + std::to_string(i));
    EXPECT_EQ(namesCut(names, 3), "n0, n1, n2 … and 9 more");
    EXPECT_EQ(namesCut({"a", "b", "c"}, 3), "a, b, c");
    EXPECT_EQ(namesCut({"a", "b", "c", "d"}, 3), "a, b, c, d"); // "and 1 more" saves nothing
}

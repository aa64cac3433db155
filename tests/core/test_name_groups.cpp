// Buffers without a schema are grouped by their module tree cut at one depth; a group opened
// into its children is cut one component deeper while every other group stays as it was.
#include "analysis/name_groups.h"

#include "dumpscope/analyze.h"

#include "model_run_fixture.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace dumpscope;
using dumpscope::detail::NameGrouping;
using dumpscope::test::TempDir;

namespace {

const std::vector<std::string>& names() {
    static const std::vector<std::string> all = test::modelBufferNames(12);
    return all;
}

std::set<std::string> groupsOf(const NameGrouping& grouping) {
    std::set<std::string> ids;
    for (const auto& n : names())
        ids.insert(grouping.groupOf(n));
    return ids;
}

} // namespace

TEST(NameGroups, AnOpenedGroupIsCutOneComponentDeeperAndTheOthersStay) {
    const NameGrouping whole(names(), 0);
    const NameGrouping opened(names(), 0, {"layers.5"});
    // Opening a group does not move the depth chosen for the rest.
    EXPECT_EQ(whole.depth(), 2u);
    EXPECT_EQ(opened.depth(), 2u);
    EXPECT_EQ(opened.opened(), std::set<std::string>{"layers.5"});
    EXPECT_EQ(opened.groupOf("layers.5.mlp.c_proj"), "layers.5.mlp");
    EXPECT_EQ(opened.groupOf("layers.5.attn.weight.grad"), "layers.5.attn");
    EXPECT_EQ(opened.groupOf("layers.5.ln_1.bias.grad"), "layers.5.ln_1");
    EXPECT_EQ(opened.groupOf("layers.5"), "layers.5"); // the block's output: nothing deeper
    EXPECT_EQ(opened.groupOf("layers.4.mlp.c_proj"), "layers.4");
    EXPECT_EQ(opened.groupOf("layers.6.attn"), "layers.6");
    EXPECT_EQ(opened.groupOf("embed.weight.grad"), "embed");

    // Its children replace it; nothing else changes.
    std::set<std::string> expected = groupsOf(whole);
    for (const char* child : {"layers.5.ln_1", "layers.5.attn", "layers.5.ln_2", "layers.5.mlp"})
        expected.insert(std::string(child));
    EXPECT_EQ(groupsOf(opened), expected);
    EXPECT_EQ(groupsOf(NameGrouping(names(), 0, {})), groupsOf(whole));
}

TEST(NameGroups, AnOpenedChildOpensFurtherOnlyInsideAnOpenedParent) {
    const NameGrouping both(names(), 2, {"layers.5", "layers.5.mlp"});
    EXPECT_EQ(both.opened(), (std::set<std::string>{"layers.5", "layers.5.mlp"}));
    EXPECT_EQ(both.groupOf("layers.5.mlp.c_proj"), "layers.5.mlp.c_proj");
    EXPECT_EQ(both.groupOf("layers.5.mlp.c_fc.weight.grad"), "layers.5.mlp.c_fc");
    EXPECT_EQ(both.groupOf("layers.5.mlp"), "layers.5.mlp");
    EXPECT_EQ(both.groupOf("layers.5.attn"), "layers.5.attn");

    // "layers.5.mlp" is no group while "layers.5" is closed, and a name no buffer has opens
    // nothing: neither counts as opened.
    const NameGrouping childOnly(names(), 2, {"layers.5.mlp", "layers.99"});
    EXPECT_TRUE(childOnly.opened().empty());
    EXPECT_EQ(childOnly.groupOf("layers.5.mlp.c_proj"), "layers.5");
    EXPECT_EQ(groupsOf(childOnly), groupsOf(NameGrouping(names(), 2)));
}

TEST(NameGroups, AnOpenedGroupAtAGivenDepthAndAtTheTopLevel) {
    const NameGrouping top(names(), 1, {"layers"});
    EXPECT_EQ(top.groupOf("layers.3.mlp.c_fc"), "layers.3");
    EXPECT_EQ(top.groupOf("head.bias.grad"), "head");
    // A leaf's own group is never opened: it has no children.
    const NameGrouping leaf(names(), 2, {"head", "embed"});
    EXPECT_TRUE(leaf.opened().empty());
    EXPECT_EQ(leaf.groupOf("head.weight.grad"), "head");
}

TEST(NameGroups, AnalyzeGroupsAnOpenedGroupsBuffersByItsChildren) {
    TempDir dir;
    constexpr const char* kRoot = "layers.5.mlp.c_proj";
    test::writeModelPair(dir.path(), 12, 4, 2, kRoot);
    AnalyzeOptions options;
    options.openedGroups = {"layers.5"};
    const Analysis an = analyze(dir / "a", dir / "b", options);
    EXPECT_EQ(an.groupDepth, 2u);
    EXPECT_EQ(an.openedGroups, std::set<std::string>{"layers.5"});
    std::set<std::string> ids;
    for (const auto& g : an.schema->groups)
        ids.insert(g.id);
    EXPECT_EQ(ids.size(), 15u + 4u);
    EXPECT_TRUE(ids.count("layers.5.mlp") && ids.count("layers.5.attn") && ids.count("layers.4"));
    EXPECT_FALSE(ids.count("layers.4.mlp"));
    for (const auto& b : an.buffers) {
        if (b.name == kRoot) {
            EXPECT_EQ(b.group, "layers.5.mlp");
        }
        if (b.name == "layers.4.mlp.c_proj") {
            EXPECT_EQ(b.group, "layers.4");
        }
    }
    for (const auto& row : an.matrix)
        EXPECT_EQ(row.cells.size(), ids.size());
    // The verdict is the same: only the columns moved.
    EXPECT_EQ(an.verdict.rootCause.buffers, std::vector<std::string>{kRoot});
    const Analysis whole = analyze(dir / "a", dir / "b");
    EXPECT_TRUE(whole.openedGroups.empty());
    EXPECT_EQ(an.verdict.firstDivergentStep, whole.verdict.firstDivergentStep);
}

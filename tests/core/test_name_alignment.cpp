// Pairing two runs whose buffers are named differently (docs/alignment.md), on a tiny model
// saved by torch.save under two module trees (tests/data/alignment/write_alignment_runs.py):
// every name changed, the order kept, one activation perturbed by one ULP in one run.
#include "dumpscope/analyze.h"
#include "dumpscope/name_alignment.h"

#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace fs = std::filesystem;
using namespace dumpscope;

namespace {

fs::path data(const char* name) {
    return test::testDataDir() / "alignment" / name;
}

AnalyzeOptions aligned(AlignMode mode, const char* map = nullptr) {
    AnalyzeOptions o;
    o.threads = 1;
    o.align = mode;
    if (map) o.nameMap = std::make_shared<const NameMap>(loadNameMapFile(data(map)));
    return o;
}

const NamePair* pairOf(const Analysis& an, const std::string& nameA) {
    const auto& pairs = an.alignment->pairs;
    const auto it = std::find_if(pairs.begin(), pairs.end(),
                                 [&](const NamePair& p) { return p.nameA == nameA; });
    return it == pairs.end() ? nullptr : &*it;
}

std::string mapError(std::string_view text, const std::string& source = "m.txt") {
    try {
        parseNameMap(text, source);
    } catch (const NameMapError& e) {
        return e.what();
    }
    return "accepted";
}

} // namespace

TEST(NameAlignment, ByNameARenamedRunIsNotCompared) {
    const Analysis an = analyze(data("a"), data("b_same"), aligned(AlignMode::names));
    EXPECT_EQ(an.alignment, nullptr);
    EXPECT_EQ(an.verdict.exitCode, 2);
    EXPECT_EQ(an.verdict.decisionCase, DecisionCase::not_compared);
}

TEST(NameAlignment, AutoPairsEveryRenamedBufferByOrderTypeAndShape) {
    const Analysis an = analyze(data("a"), data("b_same"), aligned(AlignMode::automatic));
    ASSERT_NE(an.alignment, nullptr);
    EXPECT_EQ(an.alignment->pairs.size(), 9u);
    for (const auto& p : an.alignment->pairs) {
        // model.embed.out and model.norm.out lost a wrapping "model." only.
        const bool wrapped = p.nameA == "model.embed.out" || p.nameA == "model.norm.out";
        EXPECT_EQ(p.by, wrapped ? PairedBy::wrapped_match : PairedBy::exact_match) << p.nameA;
        EXPECT_EQ(p.places, 3u) << p.nameA; // every step
    }
    const NamePair* up = pairOf(an, "model.layers.1.mlp.up.out");
    ASSERT_NE(up, nullptr);
    EXPECT_EQ(up->nameB, "layers.1.ffn.w1.out");
    // q_proj and down are both f32 [4, 8]: only the order tells them apart.
    EXPECT_EQ(pairOf(an, "model.layers.0.attn.q_proj.out")->nameB, "layers.0.attention.q.out");
    EXPECT_EQ(pairOf(an, "model.layers.0.mlp.down.out")->nameB, "layers.0.ffn.w2.out");
    EXPECT_EQ(an.alignment->unpairedA, std::vector<std::string>{"model.rotary.cache"});
    EXPECT_EQ(an.alignment->unpairedB, std::vector<std::string>{"extra.scratch"});
    EXPECT_EQ(an.verdict.exitCode, 0) << an.verdict.text;
    EXPECT_FALSE(an.verdict.firstDivergentStep.has_value());
    const auto paired = std::count_if(an.buffers.begin(), an.buffers.end(), [](const auto& b) {
        return b.status == Status::equal &&
               b.name.find(std::string(kPairArrow)) != std::string::npos;
    });
    EXPECT_EQ(paired, 27); // 9 names at 3 steps
}

TEST(NameAlignment, AutoNamesThePerturbedRootInBothRunsNames) {
    const Analysis an = analyze(data("a"), data("b_perturbed"), aligned(AlignMode::automatic));
    ASSERT_EQ(an.verdict.firstDivergentStep, std::optional<std::uint64_t>(1));
    EXPECT_EQ(an.verdict.exitCode, 1);
    const RootCause& rc = an.verdict.rootCause;
    ASSERT_EQ(rc.buffers.size(), 1u);
    EXPECT_EQ(rc.buffers[0], "model.layers.1.mlp.up.out → layers.1.ffn.w1.out");
    // The groups are run A's module tree.
    ASSERT_EQ(rc.groups.size(), 1u);
    EXPECT_EQ(rc.groups[0].rfind("model.layers", 0), 0u) << rc.groups[0];
    EXPECT_EQ(rc.downstream.size(), 3u); // layers.1.mlp.down, norm and lm_head, after it
    EXPECT_EQ(rc.downstream.front(), "model.layers.1.mlp.down.out → layers.1.ffn.w2.out");
}

TEST(NameAlignment, AMapPairsTheSameBuffersAndSaysWhichRule) {
    for (const char* map : {"map.txt", "map.json"}) {
        const Analysis an = analyze(data("a"), data("b_perturbed"), aligned(AlignMode::names, map));
        ASSERT_NE(an.alignment, nullptr) << map;
        EXPECT_TRUE(an.alignment->mapped);
        EXPECT_EQ(an.alignment->pairs.size(), 9u) << map;
        const NamePair* up = pairOf(an, "model.layers.1.mlp.up.out");
        ASSERT_NE(up, nullptr) << map;
        EXPECT_EQ(up->nameB, "layers.1.ffn.w1.out");
        EXPECT_EQ(up->by, PairedBy::map);
        EXPECT_EQ(up->rule, (data(map).string() + (map[4] == 't' ? ":3:1" : ":3:4")));
        ASSERT_EQ(an.verdict.rootCause.buffers.size(), 1u) << map;
        EXPECT_EQ(an.verdict.rootCause.buffers[0],
                  "model.layers.1.mlp.up.out → layers.1.ffn.w1.out");
        EXPECT_EQ(an.alignment->unpairedA, std::vector<std::string>{"model.rotary.cache"});
    }
}

TEST(NameAlignment, AutoPairsWhatTheMapLeaves) {
    AnalyzeOptions o = aligned(AlignMode::automatic);
    o.nameMap =
        std::make_shared<const NameMap>(parseNameMap("^lm_head\\.out$ head.out\n", "one.txt"));
    const Analysis an = analyze(data("a"), data("b_same"), o);
    ASSERT_NE(an.alignment, nullptr);
    EXPECT_EQ(pairOf(an, "lm_head.out")->by, PairedBy::map);
    EXPECT_EQ(pairOf(an, "model.norm.out")->by, PairedBy::wrapped_match);
    EXPECT_EQ(an.alignment->pairs.size(), 9u);
    EXPECT_EQ(an.verdict.exitCode, 0);
}

TEST(NameAlignment, AFixedPairingOverridesAutoAndIsReportedUnderItsNames) {
    // The window's fix: lm_head.out goes with norm.out. Both then differ, as they should.
    AnalyzeOptions o = aligned(AlignMode::automatic);
    o.nameMap = std::make_shared<const NameMap>(withPairing({}, "lm_head.out", "norm.out"));
    const Analysis an = analyze(data("a"), data("b_same"), o);
    const NamePair* head = pairOf(an, "lm_head.out");
    ASSERT_NE(head, nullptr);
    EXPECT_EQ(head->nameB, "norm.out");
    EXPECT_EQ(head->by, PairedBy::map);
    EXPECT_TRUE(head->rule.empty());
    const bool differs = std::any_of(an.buffers.begin(), an.buffers.end(), [](const auto& b) {
        return b.name == "lm_head.out → norm.out" && b.status != Status::equal;
    });
    EXPECT_TRUE(differs);
}

TEST(NameAlignment, TwoNamesOfRunAToOneOfRunBAreRefusedNamingTheRule) {
    const Analysis an =
        analyze(data("a"), data("b_same"), aligned(AlignMode::names, "map_bad_two_to_one.txt"));
    EXPECT_EQ(an.verdict.exitCode, 2);
    EXPECT_EQ(an.errorB.rfind(data("map_bad_two_to_one.txt").string() + ":", 0), 0u) << an.errorB;
    EXPECT_NE(an.errorB.find("\"lm_head.out\""), std::string::npos) << an.errorB;
    EXPECT_NE(an.errorB.find("\"model.norm.out\""), std::string::npos) << an.errorB;
    EXPECT_NE(an.errorB.find("\"head.out\""), std::string::npos) << an.errorB;
    EXPECT_TRUE(an.buffers.empty());
}

TEST(NameMap, BadMapsAreRefusedAtTheirLineAndColumn) {
    EXPECT_EQ(mapError("a b\nmodel\\.(x  y\n")
                  .rfind("m.txt:2:1: \"model\\.(x\" is not a regular "
                         "expression",
                         0),
              0u)
        << mapError("a b\nmodel\\.(x  y\n");
    EXPECT_EQ(mapError("# c\n\n  only_one\n"),
              "m.txt:3:11: expected two columns, run A's name or pattern and run B's name; the "
              "line has one");
    EXPECT_EQ(mapError("a b c\n"), "m.txt:1:5: expected two columns, run A's name or pattern and "
                                   "run B's name; this is a third");
    EXPECT_EQ(mapError("a b\n\ta c\n"),
              "m.txt:2:2: the pattern \"a\" is already given at m.txt:1:1");
    EXPECT_EQ(mapError("{\"rules\": [[\"a\", \"b\"],,]}", "m.json")
                  .rfind("m.json:1:23: not valid "
                         "JSON",
                         0),
              0u)
        << mapError("{\"rules\": [[\"a\", \"b\"],,]}", "m.json");
    EXPECT_EQ(mapError("{\"rules\": [[\"a\"]]}", "m.json"),
              "m.json:1:12: each rule is an array of two strings: [\"A pattern\", \"B name\"]");
    EXPECT_EQ(mapError("{\n  \"x\": \"y\",\n  \"(\": \"z\"\n}", "m.json")
                  .rfind("m.json:3:3: \"(\" is not a regular expression", 0),
              0u)
        << mapError("{\n  \"x\": \"y\",\n  \"(\": \"z\"\n}", "m.json");
}

TEST(NameMap, TheCommittedBadMapsAreRefusedWithTheirPlace) {
    const auto refusal = [](const char* name) {
        try {
            loadNameMapFile(data(name));
        } catch (const NameMapError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(refusal("map_bad_regex.txt").rfind(data("map_bad_regex.txt").string() + ":3:1: ", 0),
              0u)
        << refusal("map_bad_regex.txt");
    EXPECT_EQ(refusal("map_bad_columns.txt"),
              data("map_bad_columns.txt").string() +
                  ":2:18: expected two columns, run A's name or pattern and run B's name; the "
                  "line has one");
    EXPECT_EQ(refusal("map_bad_json.json").rfind(data("map_bad_json.json").string() + ":2:16: ", 0),
              0u)
        << refusal("map_bad_json.json");
    EXPECT_EQ(refusal("no_such_map.txt")
                  .rfind(data("no_such_map.txt").string() + ": cannot open the name map", 0),
              0u);
}

TEST(NameMap, APatternRewritesTheFirstMatchWithItsGroups) {
    const NameMap map = parseNameMap("^model\\.layers\\.(\\d+)\\. layers.\\1.\n", "m.txt");
    ASSERT_EQ(map.rules.size(), 1u);
    EXPECT_EQ(map.rules[0].replacement, "layers.\\1.");
    EXPECT_EQ(map.rules[0].where, "m.txt:1:1");
    const NameMap fixed = withPairing(map, "x", "y");
    ASSERT_EQ(fixed.rules.size(), 2u);
    EXPECT_TRUE(fixed.rules[0].exact);
    EXPECT_EQ(withPairing(fixed, "x", "z").rules.size(), 2u); // one fix per name
}

TEST(NameAlignment, ANameTheMapSendsElsewhereDoesNotPairByItsOwnName) {
    // Run A against itself: the map sends model.norm.out to a name run B lacks, so neither copy
    // of model.norm.out pairs, and the swap of two names pairs each with the other.
    AnalyzeOptions o = aligned(AlignMode::names);
    o.nameMap = std::make_shared<const NameMap>(
        parseNameMap("^model\\.norm\\.out$ gone.out\n^lm_head\\.out$ model.embed.out\n"
                     "^model\\.embed\\.out$ lm_head.out\n",
                     "swap.txt"));
    const Analysis an = analyze(data("a"), data("a"), o);
    ASSERT_NE(an.alignment, nullptr);
    EXPECT_EQ(an.alignment->unpairedA, std::vector<std::string>{"model.norm.out"});
    EXPECT_EQ(an.alignment->unpairedB, std::vector<std::string>{"model.norm.out"});
    ASSERT_EQ(an.alignment->pairs.size(), 2u);
    EXPECT_EQ(pairOf(an, "lm_head.out")->nameB, "model.embed.out");
    EXPECT_EQ(pairOf(an, "model.embed.out")->nameB, "lm_head.out");
    std::size_t onlyA = 0, onlyB = 0, swapped = 0;
    for (const auto& b : an.buffers) {
        if (b.name == "model.norm.out" && b.status == Status::only_in_a) ++onlyA;
        if (b.name == "→ model.norm.out" && b.status == Status::only_in_b) ++onlyB;
        if (b.name == "lm_head.out → model.embed.out" && isDivergent(b.status)) ++swapped;
    }
    EXPECT_EQ(onlyA, 3u);
    EXPECT_EQ(onlyB, 3u);
    EXPECT_EQ(swapped, 3u);
}

TEST(NameAlignment, ARunInAnotherTypePairsByOrderAndShape) {
    // b_bf16 is b_same rounded to bf16: no buffer has run A's type, so the last pass pairs each
    // with the next of its shape, and each pair is compared across precisions.
    const Analysis an = analyze(data("a"), data("b_bf16"), aligned(AlignMode::automatic));
    const Analysis same = analyze(data("a"), data("b_same"), aligned(AlignMode::automatic));
    ASSERT_NE(an.alignment, nullptr);
    EXPECT_EQ(an.alignment->pairs.size(), 9u);
    for (const NamePair& p : an.alignment->pairs) {
        EXPECT_EQ(p.by, PairedBy::shape_match) << p.nameA;
        EXPECT_EQ(p.nameB, pairOf(same, p.nameA)->nameB) << p.nameA;
    }
    EXPECT_EQ(an.verdict.exitCode, 0); // every element within the rounding of bf16
}

TEST(NameAlignment, APairedBufferTakesATypedShapeByRunAsName) {
    AnalyzeOptions o = aligned(AlignMode::automatic);
    o.shapes["model.layers.1.mlp.up.out"] = {"8", "8"};
    const Analysis an = analyze(data("a"), data("b_same"), o);
    std::size_t typed = 0;
    for (const auto& b : an.buffers)
        if (b.name == "model.layers.1.mlp.up.out → layers.1.ffn.w1.out") {
            EXPECT_EQ(b.shape, (std::vector<std::uint64_t>{8, 8}));
            ++typed;
        }
    EXPECT_EQ(typed, 3u);
}

TEST(NameAlignment, ABufferOneRunLacksShiftsNoPairingAfterIt) {
    const Analysis same = analyze(data("a"), data("b_same"), aligned(AlignMode::automatic));
    const Analysis an = analyze(data("a"), data("b_inserted"), aligned(AlignMode::automatic));
    ASSERT_NE(an.alignment, nullptr);
    // Every pairing is the one made without the extra buffer: taken place by place, each of
    // run B's after it would be one place off.
    ASSERT_EQ(an.alignment->pairs.size(), same.alignment->pairs.size());
    for (const NamePair& p : same.alignment->pairs) {
        const NamePair* q = pairOf(an, p.nameA);
        ASSERT_NE(q, nullptr) << p.nameA;
        EXPECT_EQ(q->nameB, p.nameB) << p.nameA;
        EXPECT_EQ(q->by, p.by) << p.nameA;
    }
    EXPECT_EQ(an.alignment->unpairedB, (std::vector<std::string>{"extra.cast", "extra.scratch"}));
    ASSERT_EQ(an.verdict.rootCause.buffers.size(), 1u);
    EXPECT_EQ(an.verdict.rootCause.buffers[0], "model.layers.1.mlp.up.out → layers.1.ffn.w1.out");
}

TEST(NameAlignment, NamesUnderAWrappingModulePairByTheirOwnName) {
    const Analysis an = analyze(data("a"), data("b_wrapped"), aligned(AlignMode::automatic));
    ASSERT_NE(an.alignment, nullptr);
    // module.loss_scale, first in run B, has the type and shape of four of run A's buffers: in
    // order it would take model.embed.out's place.
    EXPECT_EQ(an.alignment->pairs.size(), 9u);
    for (const NamePair& p : an.alignment->pairs) {
        EXPECT_EQ(p.nameB, "module." + p.nameA);
        EXPECT_EQ(p.by, PairedBy::wrapped_match) << p.nameA;
    }
    // module.model.rotary.cache has another shape than run A's model.rotary.cache.
    EXPECT_EQ(an.alignment->unpairedA, std::vector<std::string>{"model.rotary.cache"});
    EXPECT_EQ(an.alignment->unpairedB,
              (std::vector<std::string>{"module.loss_scale", "module.model.rotary.cache"}));
    ASSERT_EQ(an.verdict.rootCause.buffers.size(), 1u);
    EXPECT_EQ(an.verdict.rootCause.buffers[0],
              "model.layers.1.mlp.up.out → module.model.layers.1.mlp.up.out");
}

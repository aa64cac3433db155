// Schema::group, findFile and buffer answer from an index built on the first lookup: the
// answers must be those of a scan of the groups, also after the schema grew or was copied.
#include "dumpscope/schema.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

using namespace dumpscope;

namespace {

BufferSpec buffer(std::string name, std::string file) {
    BufferSpec b;
    b.name = std::move(name);
    b.file = std::move(file);
    return b;
}

Schema wide(int groups) {
    Schema s;
    for (int g = 0; g < groups; ++g) {
        GroupSpec spec{"g" + std::to_string(g), "group " + std::to_string(g), {}};
        spec.buffers.push_back(buffer("b" + std::to_string(g), "f" + std::to_string(g)));
        s.groups.push_back(std::move(spec));
    }
    return s;
}

} // namespace

TEST(SchemaLookup, FindsEveryGroupAndBufferOfAWideSchema) {
    const Schema s = wide(5000);
    for (int g = 0; g < 5000; g += 7) {
        const std::string n = std::to_string(g);
        ASSERT_NE(s.group("g" + n), nullptr);
        EXPECT_EQ(s.group("g" + n)->label, "group " + n);
        const auto at = s.findFile("f" + n);
        ASSERT_TRUE(at);
        EXPECT_EQ(at->first, std::size_t(g));
        ASSERT_NE(s.buffer("b" + n), nullptr);
        EXPECT_EQ(s.buffer("b" + n)->file, "f" + n);
    }
    EXPECT_EQ(s.group("g5000"), nullptr);
    EXPECT_FALSE(s.findFile("b1")); // a buffer's name is not its file
    EXPECT_EQ(s.buffer("f1"), nullptr);
}

TEST(SchemaLookup, AnswersForWhatWasAddedAfterTheFirstLookup) {
    Schema s = wide(3);
    ASSERT_EQ(s.group("g3"), nullptr);
    ASSERT_FALSE(s.findFile("late"));
    s.groups.push_back({"g3", "added", {}});
    ASSERT_NE(s.group("g3"), nullptr);
    EXPECT_EQ(s.group("g3")->label, "added");
    // A buffer added to an existing group leaves the group list as it was.
    s.groups[1].buffers.push_back(buffer("late_name", "late"));
    const auto at = s.findFile("late");
    ASSERT_TRUE(at);
    EXPECT_EQ(*at, (std::pair<std::size_t, std::size_t>{1, 1}));
    EXPECT_EQ(s.buffer("late_name"), &s.groups[1].buffers[1]);
    // Renamed in place: the old id is not found under the index's stale entry.
    s.groups[0].id = "renamed";
    EXPECT_EQ(s.group("g0"), nullptr);
}

TEST(SchemaLookup, ACopyFindsItsOwnGroupsNotTheOriginals) {
    const Schema original = wide(4);
    ASSERT_NE(original.group("g2"), nullptr);
    Schema copy = original;
    EXPECT_EQ(copy.group("g2"), &copy.groups[2]);
    copy.groups.push_back({"g4", "only in the copy", {}});
    EXPECT_NE(copy.group("g4"), nullptr);
    EXPECT_EQ(original.group("g4"), nullptr);
    Schema assigned;
    ASSERT_EQ(assigned.group("g0"), nullptr);
    assigned = original;
    EXPECT_EQ(assigned.group("g0"), &assigned.groups[0]);
}

TEST(SchemaLookup, TheFirstOfARepeatedIdIsFoundAsAScanWould) {
    Schema s;
    s.groups.push_back({"x", "first", {}});
    s.groups.push_back({"x", "second", {}});
    ASSERT_NE(s.group("x"), nullptr);
    EXPECT_EQ(s.group("x")->label, "first");
}

TEST(SchemaLookup, ThreadsLookingUpAtOnceGetTheSameAnswers) {
    const Schema s = wide(2000);
    std::vector<std::thread> threads;
    std::vector<int> found(4, 0);
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (int g = 0; g < 2000; ++g)
                if (const auto* spec = s.group("g" + std::to_string(g));
                    spec && spec->label == "group " + std::to_string(g))
                    ++found[std::size_t(t)];
        });
    for (auto& th : threads)
        th.join();
    for (int t = 0; t < 4; ++t)
        EXPECT_EQ(found[std::size_t(t)], 2000);
}

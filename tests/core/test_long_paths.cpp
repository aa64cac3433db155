// A run that lies deeper than PATH_MAX: its files are listed, compared and viewed like any
// other (they are opened relative to descriptors of their directories), not skipped.
#include "deep_tree.h"
#include "test_support.h"

#include "dumpscope/analyze.h"
#include "dumpscope/buffer_view.h"
#include "dumpscope/scan.h"

#include <gtest/gtest.h>

#include <climits>
#include <string>

using dumpscope::test::DeepTree;
using dumpscope::test::TempDir;

namespace {

// Runs a and b past PATH_MAX: q_logits equal at step 0, one element apart at step 1.
void writePair(const DeepTree& tree) {
    for (const char* run : {"a", "b"}) {
        tree.writeF32(run, "step_0_h_q_logits.bin", {1, 2, 3, 4});
        tree.writeF32(run, "step_1_h_q_logits.bin", {1, 2, run[0] == 'a' ? 3.0f : 3.5f, 4});
    }
}

} // namespace

TEST(LongPaths, ARunDeeperThanPathMaxIsListedAndComparedNotSkipped) {
    TempDir dir;
    DeepTree tree(dir.path(), PATH_MAX + 200, {"a", "b"});
    ASSERT_GT((tree.path() / "a").string().size(), static_cast<std::size_t>(PATH_MAX));
    writePair(tree);

    const auto scan = dumpscope::scanRun(tree.path() / "a");
    EXPECT_TRUE(scan.error.empty()) << scan.error;
    EXPECT_TRUE(scan.warnings.empty()) << scan.warnings.front();
    EXPECT_EQ(scan.files.size(), 2u);

    const auto an = dumpscope::analyze(tree.path() / "a", tree.path() / "b");
    ASSERT_EQ(an.buffers.size(), 2u);
    EXPECT_EQ(an.buffers[0].status, dumpscope::Status::equal) << an.buffers[0].error;
    EXPECT_EQ(an.buffers[1].status, dumpscope::Status::diverge) << an.buffers[1].error;
    EXPECT_EQ(an.buffers[1].stats.nDiff, 1u);
    EXPECT_EQ(an.verdict.exitCode, 1);
    ASSERT_TRUE(an.verdict.firstDivergentStep);
    EXPECT_EQ(*an.verdict.firstDivergentStep, 1u);
}

TEST(LongPaths, ARunDeeperThanPathMaxIsComparedTheSameGivenRelatively) {
    TempDir dir;
    DeepTree tree(dir.path(), PATH_MAX + 200, {"a", "b"});
    writePair(tree);
    // The relative path is itself longer than PATH_MAX; the process's working directory stays.
    const auto relative =
        std::filesystem::relative(dir.path(), std::filesystem::current_path()) / tree.relative();
    ASSERT_GT(relative.string().size(), static_cast<std::size_t>(PATH_MAX));
    const auto an = dumpscope::analyze(relative / "a", relative / "b");
    EXPECT_EQ(an.verdict.exitCode, 1);
    EXPECT_EQ(an.buffers.size(), 2u);
}

TEST(LongPaths, TheElementViewOpensAFileDeeperThanPathMax) {
    TempDir dir;
    DeepTree tree(dir.path(), PATH_MAX + 200, {"a", "b"});
    writePair(tree);
    dumpscope::BufferView view;
    ASSERT_TRUE(view.open(tree.path() / "b" / "step_1_h_q_logits.bin", dumpscope::DType::f32))
        << view.error();
    EXPECT_EQ(view.size(), 4u);
    const auto bits = view.bits(2);
    ASSERT_TRUE(bits);
    EXPECT_EQ(*bits, dumpscope::test::bitsOfFloat(3.5f));
}

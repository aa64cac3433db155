// Files larger than 4 GiB. Two sparse files of 4 GiB + 8 KiB (no disk space used),
// differing only at three known bytes past 4 GiB, through the real dumpscope-cli: every count,
// index and offset in the JSON must be the 64-bit one. The file is unclassified, so compared
// as u8: element indices are byte offsets, beyond 2^32 themselves. It reads 8 GiB of zero pages
// (a few seconds); see the README's Tests section for the measured time.
#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <unistd.h>

using namespace dumpscope::test;

namespace {

constexpr std::uint64_t k4GiB = std::uint64_t{1} << 32;
constexpr std::uint64_t kSize = k4GiB + 8192;

void writeSparse(const std::filesystem::path& file,
                 const std::vector<std::pair<std::uint64_t, std::uint8_t>>& bytes) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    ASSERT_GE(fd, 0) << file;
    ASSERT_EQ(::ftruncate(fd, static_cast<off_t>(kSize)), 0);
    for (const auto& [offset, value] : bytes)
        ASSERT_EQ(::pwrite(fd, &value, 1, static_cast<off_t>(offset)), 1);
    ::close(fd);
}

} // namespace

TEST(LargeFiles, SparseFilesPast4GiBAreComparedWith64BitOffsets) {
    TempDir dir;
    std::filesystem::create_directories(dir / "a");
    std::filesystem::create_directories(dir / "b");
    writeSparse(dir / "a" / "step_0_big_dump.bin", {{k4GiB + 5, 1}});
    writeSparse(dir / "b" / "step_0_big_dump.bin",
                {{k4GiB + 5, 2}, {k4GiB + 4100, 9}, {kSize - 1, 3}});

    const auto r =
        runProcess({DUMPSCOPE_CLI_PATH, (dir / "a").string(), (dir / "b").string(), "--json"});
    ASSERT_EQ(r.exitCode, 1) << r.err;
    const auto report = nlohmann::json::parse(r.out);
    ASSERT_EQ(report["steps"].size(), 1u);
    nlohmann::json b;
    for (const auto& group : report["steps"][0]["groups"])
        if (group["id"] == "other" && group["buffers"].size() == 1) b = group["buffers"][0];
    ASSERT_TRUE(b.is_object()) << "the unclassified file is not in the JSON";
    EXPECT_EQ(b["file"], "step_0_big_dump.bin");
    EXPECT_EQ(b["status"], "diverge");
    EXPECT_EQ(b["n_a"].get<std::uint64_t>(), kSize);
    EXPECT_EQ(b["n_b"].get<std::uint64_t>(), kSize);
    EXPECT_EQ(b["n_diff"].get<std::uint64_t>(), 3u);
    EXPECT_EQ(b["first_diff"].get<std::uint64_t>(), k4GiB + 5);
    EXPECT_EQ(b["last_diff"].get<std::uint64_t>(), kSize - 1);
    EXPECT_EQ(b["max_abs_delta_index"].get<std::uint64_t>(), k4GiB + 4100); // |9 - 0|
    ASSERT_EQ(b["first_diffs"].size(), 3u);
    EXPECT_EQ(b["first_diffs"][0]["index"].get<std::uint64_t>(), k4GiB + 5);
    EXPECT_EQ(b["first_diffs"][0]["a"], 1);
    EXPECT_EQ(b["first_diffs"][0]["b"], 2);
    EXPECT_EQ(b["first_diffs"][1]["index"].get<std::uint64_t>(), k4GiB + 4100);
    EXPECT_EQ(b["first_diffs"][2]["index"].get<std::uint64_t>(), kSize - 1);
    EXPECT_EQ(b["largest_diffs"][0]["index"].get<std::uint64_t>(), k4GiB + 4100);
}

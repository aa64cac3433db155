#include "dumpscope/scan.h"

#include "test_support.h"

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace dumpscope;
namespace fs = std::filesystem;

TEST(DumpName, ParsesStepAndRest) {
    auto n = parseDumpName("step_12_h_q_logits.bin");
    ASSERT_TRUE(n);
    EXPECT_EQ(n->step, 12u);
    EXPECT_EQ(n->rest, "h_q_logits");
    EXPECT_EQ(parseDumpName("step_0_x.bin")->step, 0u);
    EXPECT_EQ(parseDumpName("step_18446744073709551615_x.bin")->step, UINT64_MAX);
}

TEST(DumpName, RejectsWhatIsNotADump) {
    for (const char* bad :
         {"step_18446744073709551616_x.bin", // overflows 64 bits
          "step__x.bin", "step_1_.bin", "step_1.bin", "step_x_y.bin", "step_-1_x.bin",
          "step_01_x.bin", "step_1_x.txt", "xstep_1_x.bin", "step_1_x.bin.tmp", ""})
        EXPECT_FALSE(parseDumpName(bad)) << bad;
}

TEST(DumpName, KeepsNamesWithSpacesAndOddBytes) {
    auto n = parseDumpName("step_3_a b&<\"\xff.bin");
    ASSERT_TRUE(n);
    EXPECT_EQ(n->rest, "a b&<\"\xff");
}

TEST(Scan, FindsEveryStepAndIgnoresOtherFiles) {
    test::TempDir dir;
    test::writeDump(dir.path(), 0, "h_q_logits", std::vector<float>{1, 2});
    test::writeDump(dir.path(), 7, "h_q_logits", std::vector<float>{1});
    test::writeDump(dir.path(), 12, "something_else", std::vector<float>{1, 2, 3});
    test::writeText(dir / "notes.txt", "hello");
    test::writeText(dir / "step_1_x.txt", "hello");
    fs::create_directory(dir / "step_2_dir.bin");
    auto scan = scanRun(dir.path());
    EXPECT_TRUE(scan.error.empty());
    ASSERT_EQ(scan.files.size(), 3u);
    const auto& f = scan.files.at({12, "something_else"});
    EXPECT_EQ(f.size, 12u);
    EXPECT_EQ(f.fileName, "step_12_something_else.bin");
    ASSERT_EQ(scan.warnings.size(), 1u); // the directory named like a dump
    EXPECT_NE(scan.warnings[0].find("step_2_dir.bin: a directory"), std::string::npos)
        << scan.warnings[0];
}

TEST(Scan, NonRegularFilesAreReportedNeverOpened) {
    test::TempDir dir;
    ASSERT_EQ(mkfifo((dir / "step_0_h_q_logits.bin").c_str(), 0600), 0);
    fs::create_symlink(dir / "missing-target", dir / "step_0_h_pi_logits.bin");
    fs::create_symlink(dir / "step_0_h_v_pred.bin", dir / "step_0_h_v_pred.bin.loop");
    fs::create_symlink(dir / "step_0_h_v_pred.bin.loop", dir / "step_0_h_v_pred.bin");
    int sock = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const auto sockPath = (dir / "step_0_h_iqn_q_values.bin").string();
    ASSERT_LT(sockPath.size(), sizeof addr.sun_path);
    std::strcpy(addr.sun_path, sockPath.c_str());
    ASSERT_EQ(bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    test::writeDump(dir.path(), 0, "h_dueling_q_composed", std::vector<float>{1});
    fs::create_symlink(dir / "step_0_h_dueling_q_composed.bin",
                       dir / "step_1_h_dueling_q_composed.bin");

    auto scan = scanRun(dir.path()); // must not block on the FIFO
    close(sock);
    EXPECT_EQ(scan.files.size(), 2u); // the regular file and the symlink to it
    std::string all;
    for (const auto& w : scan.warnings)
        all += w + "\n";
    EXPECT_NE(all.find("step_0_h_q_logits.bin: a FIFO"), std::string::npos) << all;
    EXPECT_NE(all.find("step_0_h_pi_logits.bin: a dangling symlink"), std::string::npos) << all;
    EXPECT_NE(all.find("step_0_h_v_pred.bin: a symlink loop"), std::string::npos) << all;
    EXPECT_NE(all.find("step_0_h_iqn_q_values.bin: a socket"), std::string::npos) << all;
}

TEST(Scan, MissingAndNonDirectoryRunsAreErrors) {
    test::TempDir dir;
    EXPECT_NE(scanRun(dir / "nope").error.find("no such run directory"), std::string::npos);
    test::writeText(dir / "file", "x");
    EXPECT_NE(scanRun(dir / "file").error.find("not a directory"), std::string::npos);
}

TEST(Scan, OverflowingStepIsWarnedAboutNotSilentlyDropped) {
    test::TempDir dir;
    test::writeText(dir / "step_99999999999999999999_h_q_logits.bin", "abcd");
    auto scan = scanRun(dir.path());
    EXPECT_TRUE(scan.files.empty());
    ASSERT_EQ(scan.warnings.size(), 1u);
    EXPECT_NE(scan.warnings[0].find("fits in 64 bits"), std::string::npos);
}

// A run directory that can be read but not searched (r without x) lists its names, yet every
// entry's lookup fails alike: that is a run that cannot be listed, not one without dumps, and
// not a warning per file.
TEST(Scan, AReadableButUnsearchableDirectoryIsARunErrorNotAWarningPerFile) {
    if (dumpscope::test::runningAsRoot())
        GTEST_SKIP() << "as root, permissions do not stop lookups";
    dumpscope::test::TempDir dir;
    const auto run = dir / "a";
    std::filesystem::create_directory(run);
    for (int step = 0; step < 3; ++step)
        dumpscope::test::writeBytes(run / ("step_" + std::to_string(step) + "_h_q_logits.bin"),
                                    "0123456789abcdef", 16);
    std::filesystem::permissions(run, std::filesystem::perms::owner_read);
    const auto scan = dumpscope::scanRun(run);
    std::filesystem::permissions(run, std::filesystem::perms::owner_all);
    EXPECT_NE(scan.error.find("cannot list the run directory's files: Permission denied"),
              std::string::npos)
        << scan.error;
    EXPECT_TRUE(scan.files.empty());
    EXPECT_TRUE(scan.warnings.empty()) << scan.warnings.front();
}

// dumpscope-cli on two runs holding the same deflated .npz member (compressed bytes and CRC-32
// alike): read once, EQUAL and exit 0 when it is sound; when it is corrupt, still an error
// naming the file, exit 2, as when the two members are read one by one.
#include "hostile_files.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cmath>

namespace fs = std::filesystem;
using namespace dumpscope::test::hostile;

namespace {

// An .npz of one deflated member x.npy of 200,000 float32 elements: large enough that the
// listing reads only its header, not the whole member.
struct BigNpz {
    std::string bytes;
    ZipLayout at;
    std::size_t dataStart = 0; // the member's first compressed byte

    BigNpz() {
        std::string data;
        for (std::uint32_t i = 0; i < 200000; ++i) {
            const float f = std::sin(static_cast<float>(i) * 0.37f) * 1000.0f;
            std::uint32_t bits = 0;
            __builtin_memcpy(&bits, &f, sizeof f);
            putLe(data, bits, 4);
        }
        bytes = zip({{"x.npy", npy("<f4", "(200000,)", data), true}}, &at);
        dataStart = at.localHeaders[0] + 30 + 5;
    }
};

struct Runs {
    dumpscope::test::TempDir dir;
    fs::path a = dir / "a", b = dir / "b";
    explicit Runs(const std::string& npz) {
        for (const fs::path& run : {a, b}) {
            fs::create_directories(run);
            dumpscope::test::writeBytes(run / "step_1.npz", npz.data(), npz.size());
        }
    }
    dumpscope::test::ProcessResult cli() const {
        return dumpscope::test::runProcess({DUMPSCOPE_CLI_PATH, a.string(), b.string()}, {}, 60);
    }
};

} // namespace

TEST(CliInflateOnce, TheSameSoundMemberInBothRunsIsEqual) {
    const Runs runs(BigNpz().bytes);
    const auto r = runs.cli();
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("EQUAL"), std::string::npos) << r.out;
}

TEST(CliInflateOnce, TheSameCorruptMemberInBothRunsIsExit2NamingTheFile) {
    const BigNpz good;
    std::string wrongCrc = good.bytes;
    for (const std::size_t field : {good.at.localHeaders[0] + 14, good.at.centralEntries[0] + 16})
        wrongCrc[field] = static_cast<char>(wrongCrc[field] ^ 0x01);
    std::string flipped = good.bytes;
    const std::size_t middle = good.dataStart + (good.at.centralStart - good.dataStart) / 2;
    for (std::size_t i = middle; i < middle + 8; ++i)
        flipped[i] = static_cast<char>(flipped[i] ^ 0x5a);
    for (const std::string* bad : {&wrongCrc, &flipped}) {
        const Runs runs(*bad);
        const auto r = runs.cli();
        EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
        // Run A's file, read for both, is the one named.
        EXPECT_NE(r.err.find((runs.a / "step_1.npz").string() + ": "), std::string::npos) << r.err;
        EXPECT_EQ(r.out.find("EQUAL"), std::string::npos) << r.out;
    }
}

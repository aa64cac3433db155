// A tensor's element type and shape are part of what it is, and every legal tensor is compared
// at least bit for bit: through the real dumpscope-cli, on files written byte for byte.
#include "hostile_files.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

namespace fs = std::filesystem;
using namespace dumpscope::test::hostile;

namespace {

struct Runs {
    dumpscope::test::TempDir dir;
    void put(const char* run, const std::string& file, const std::string& bytes) {
        fs::create_directories(dir / run);
        std::ofstream(dir / run / file, std::ios::binary) << bytes;
    }
    dumpscope::test::ProcessResult cli() {
        return dumpscope::test::runProcess(
            {DUMPSCOPE_CLI_PATH, (dir / "a").string(), (dir / "b").string(), "--json"}, {}, 30);
    }
};

nlohmann::json bufferX(const dumpscope::test::ProcessResult& r) {
    const auto doc = nlohmann::json::parse(r.out);
    for (const auto& step : doc["steps"])
        for (const auto& group : step["groups"])
            for (const auto& b : group["buffers"])
                if (b["name"] == "x") return b;
    return {};
}

} // namespace

TEST(CliTensorIdentity, TheSameBytesAsFloat32AndInt32AreNeverEqual) {
    Runs runs;
    runs.put("a", "step_1_x.npy", npy("<f4", "(4,)", floats(4)));
    runs.put("b", "step_1_x.npy", npy("<i4", "(4,)", floats(4)));
    const auto r = runs.cli();
    EXPECT_EQ(r.exitCode, 2) << r.err;
    const auto x = bufferX(r);
    EXPECT_EQ(x["status"], "error");
    EXPECT_NE(x["error"].get<std::string>().find("is <i4 in run B but <f4 in run A"),
              std::string::npos)
        << x.dump();
}

TEST(CliTensorIdentity, Bf16SafetensorsAgainstAFloat32NpyIsNotReadAsEitherType) {
    Runs runs;
    runs.put("a", "step_1.safetensors",
             safetensors(R"({"x":{"dtype":"BF16","shape":[8],"data_offsets":[0,16]}})", floats(4)));
    runs.put("b", "step_1_x.npy", npy("<f4", "(4,)", floats(4)));
    const auto r = runs.cli();
    EXPECT_EQ(r.exitCode, 2) << r.err;
    const auto x = bufferX(r);
    EXPECT_EQ(x["status"], "error") << x.dump();
    EXPECT_NE(x["error"].get<std::string>().find("<f4 in run B but BF16 in run A"),
              std::string::npos)
        << x.dump();
}

TEST(CliTensorIdentity, TheSameBytesUnderAnotherShapeAreNeverEqual) {
    Runs runs;
    runs.put("a", "step_1_x.npy", npy("<f4", "(2, 2)", floats(4)));
    runs.put("b", "step_1_x.npy", npy("<f4", "(4,)", floats(4)));
    const auto r = runs.cli();
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_NE(bufferX(r)["error"].get<std::string>().find("has shape [4] in run B but [2, 2]"),
              std::string::npos)
        << r.out;
}

TEST(CliTensorIdentity, Complex64IsComparedAsItsFloat32Parts) {
    Runs runs;
    std::string a = floats(8), b = a;
    b[12] = static_cast<char>(b[12] ^ 1); // element 3 (the imaginary part of [1]): one ULP
    runs.put("a", "step_1_x.npy", npy("<c8", "(4,)", a));
    runs.put("b", "step_1_x.npy", npy("<c8", "(4,)", b));
    const auto r = runs.cli();
    EXPECT_EQ(r.exitCode, 1) << r.err;
    const auto x = bufferX(r);
    EXPECT_EQ(x["dtype"], "f32");
    EXPECT_EQ(x["shape"], nlohmann::json::array({4, 2}));
    EXPECT_EQ(x["n_diff"], 1);
    EXPECT_EQ(x["first_diff"], 3);
    EXPECT_EQ(x["kind"], "rounding");
}

TEST(CliTensorIdentity, ATypeWithoutArithmeticIsComparedAsBytesOfKindBitwise) {
    Runs runs;
    const std::string header = R"({"x":{"dtype":"F8_E8M0","shape":[4],"data_offsets":[0,4]}})";
    runs.put("a", "step_1.safetensors", safetensors(header, "\x01\x02\x03\x04"));
    runs.put("b", "step_1.safetensors", safetensors(header, "\x01\x02\x07\x04"));
    auto r = runs.cli();
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_EQ(bufferX(r)["kind"], "bitwise") << r.out;
    EXPECT_EQ(bufferX(r)["dtype"], "u8");
    runs.put("b", "step_1.safetensors", safetensors(header, "\x01\x02\x03\x04"));
    r = runs.cli();
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(bufferX(r)["kind"], "bit_identical");
}

TEST(CliTensorIdentity, ASubByteTypeThatCannotBeComparedIsNeverExitZero) {
    Runs runs;
    const std::string file =
        safetensors(R"({"x":{"dtype":"F4","shape":[3],"data_offsets":[0,2]}})", "\x11\x22");
    runs.put("a", "step_1.safetensors", file);
    runs.put("b", "step_1.safetensors", file);
    const auto r = runs.cli();
    EXPECT_EQ(r.exitCode, 2) << r.out;
    EXPECT_NE(r.err.find("whose element size dumpscope cannot tell"), std::string::npos) << r.err;
}

// The real dumpscope-cli on dumps written here: each divergent buffer's line and JSON object
// give the smallest --atol, --rtol and --ulp that would each alone make it within tolerance,
// and running the binary again with that value makes it WITHIN TOLERANCE while the next smaller
// value leaves it DIVERGE. The float32 and float64 buffers carry reduction-order noise (the same
// terms summed in a shuffled order); the f16 and bf16 ones a few ULP, +0 against -0 and
// subnormals; one buffer a NaN against a number, one Inf against the largest float.
#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <regex>
#include <string>
#include <vector>

using dumpscope::test::TempDir;
using Json = nlohmann::json;

namespace {

dumpscope::test::ProcessResult cli(std::vector<std::string> args) {
    args.insert(args.begin(), DUMPSCOPE_CLI_PATH);
    return dumpscope::test::runProcess(args);
}

// Each element the sum of 64 terms of mixed sign, in one order for A and a shuffled one for B.
template <typename T> void writeNoise(const TempDir& dir, const std::string& file, std::size_t n) {
    std::mt19937_64 rng(n + sizeof(T));
    std::uniform_real_distribution<double> term(-1.0, 1.0);
    std::vector<T> a(n), b(n), terms(64);
    for (std::size_t i = 0; i < n; ++i) {
        for (auto& t : terms)
            t = static_cast<T>(term(rng) * std::ldexp(1.0, static_cast<int>(rng() % 16)));
        a[i] = std::accumulate(terms.begin(), terms.end(), T{0});
        std::shuffle(terms.begin(), terms.end(), rng);
        b[i] = std::accumulate(terms.begin(), terms.end(), T{0});
    }
    dumpscope::test::writeDump(dir / "a", 0, file, a);
    dumpscope::test::writeDump(dir / "b", 0, file, b);
}

// 16-bit floats as bits: a few ULP apart, some +0 against -0, some subnormals.
void writeHalf(const TempDir& dir, const std::string& file, std::uint16_t exponentMask) {
    std::mt19937_64 rng(exponentMask);
    std::vector<std::uint16_t> a(500), b(500);
    for (std::size_t i = 0; i < a.size(); ++i) {
        auto x = static_cast<std::uint16_t>(rng());
        if ((x & exponentMask) == exponentMask) x &= static_cast<std::uint16_t>(~exponentMask);
        a[i] = x;
        b[i] = i % 5 == 0 ? x : static_cast<std::uint16_t>(x + 1 + rng() % 3);
        if ((b[i] & exponentMask) == exponentMask) b[i] = x; // stays finite
        if (i % 11 == 0) a[i] = 0, b[i] = 0x8000;
        if (i % 13 == 0) a[i] = 3, b[i] = 5; // subnormals
    }
    dumpscope::test::writeDump(dir / "a", 0, file, a);
    dumpscope::test::writeDump(dir / "b", 0, file, b);
}

struct Pair : TempDir {
    Pair() {
        writeNoise<float>(*this, "w_noise", 3000);
        writeNoise<double>(*this, "w_wide", 700);
        writeHalf(*this, "w_half", 0x7c00);
        writeHalf(*this, "w_brain", 0x7f80);
        dumpscope::test::writeDump(*this / "a", 0, "w_count", std::vector<std::int32_t>{5, -7, 9});
        dumpscope::test::writeDump(*this / "b", 0, "w_count", std::vector<std::int32_t>{5, 2, 12});
        const float inf = INFINITY, big = 3.4028235e38f, nan = std::nanf("");
        dumpscope::test::writeDump(*this / "a", 0, "w_nan", std::vector<float>{1, nan, 2});
        dumpscope::test::writeDump(*this / "b", 0, "w_nan", std::vector<float>{1.5f, 1, 2});
        dumpscope::test::writeDump(*this / "a", 0, "w_inf", std::vector<float>{1, big, 2});
        dumpscope::test::writeDump(*this / "b", 0, "w_inf", std::vector<float>{1, inf, 2});
        dumpscope::test::writeText(*this / "s.json", R"({"groups": [{"id": "W", "buffers": [
            {"name": "noise", "file": "w_noise", "dtype": "f32"},
            {"name": "wide", "file": "w_wide", "dtype": "f64"},
            {"name": "half", "file": "w_half", "dtype": "f16"},
            {"name": "brain", "file": "w_brain", "dtype": "bf16"},
            {"name": "count", "file": "w_count", "dtype": "i32"},
            {"name": "nan", "file": "w_nan", "dtype": "f32"},
            {"name": "inf", "file": "w_inf", "dtype": "f32"}]}]})");
    }
    std::vector<std::string> args(std::vector<std::string> extra = {}) const {
        std::vector<std::string> all{(*this / "a").string(), (*this / "b").string(), "--schema",
                                     (*this / "s.json").string()};
        all.insert(all.end(), extra.begin(), extra.end());
        return all;
    }
};

// name -> buffer object, from the JSON of the binary's run.
std::map<std::string, Json> buffersOf(const dumpscope::test::ProcessResult& r) {
    std::map<std::string, Json> out;
    const Json j = Json::parse(r.out);
    for (const auto& step : j["steps"])
        for (const auto& group : step["groups"])
            for (const auto& b : group["buffers"])
                out[b["name"].get<std::string>()] = b;
    return out;
}

std::string exactText(double v) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

} // namespace

TEST(CliToleranceToPass, EachValueMakesItsBufferWithinToleranceAndTheNextSmallerDoesNot) {
    const Pair pair;
    const auto text = cli(pair.args());
    ASSERT_EQ(text.exitCode, 1) << text.err;
    const auto json = cli(pair.args({"--json"}));
    ASSERT_EQ(json.exitCode, 1) << json.err;
    const auto buffers = buffersOf(json);
    ASSERT_EQ(buffers.size(), 7u) << json.out;

    const std::regex line(
        R"((\w+) \[\w+\] DIVERGE .*, to pass: atol (\S+) / rtol (\S+) / ulp (\S+)\n)");
    std::map<std::string, std::vector<std::string>> shown;
    for (std::sregex_iterator it(text.out.begin(), text.out.end(), line), end; it != end; ++it)
        shown[(*it)[1]] = {(*it)[2], (*it)[3], (*it)[4]};
    ASSERT_EQ(shown.size(), 7u) << text.out;

    int checked = 0;
    for (const auto& [name, b] : buffers) {
        SCOPED_TRACE(name);
        ASSERT_EQ(b["status"], "diverge");
        const Json& pass = b["tolerance_to_pass"];
        ASSERT_TRUE(pass.is_object()) << b.dump();
        const char* keys[] = {"atol", "rtol", "ulp"};
        for (int k = 0; k < 3; ++k) {
            const Json& v = pass[keys[k]];
            const std::string& onLine = shown[name][static_cast<std::size_t>(k)];
            if (v.is_null()) {
                EXPECT_EQ(onLine, "none");
                continue;
            }
            // The line shows the JSON's value exactly: it is what the user types.
            const std::string option = std::string("--") + keys[k];
            std::string below;
            if (k < 2) {
                const double x = v.get<double>();
                EXPECT_EQ(onLine, exactText(x));
                below = x > 0 ? exactText(std::nextafter(x, 0.0)) : "";
            } else {
                const auto x = v.get<std::uint64_t>();
                EXPECT_EQ(onLine, std::to_string(x));
                below = x > 0 ? std::to_string(x - 1) : "";
            }
            const auto within = buffersOf(cli(pair.args({"--json", option, onLine})));
            EXPECT_EQ(within.at(name)["status"], "within_tolerance") << option << " " << onLine;
            if (!below.empty()) {
                const auto beyond = buffersOf(cli(pair.args({"--json", option, below})));
                EXPECT_EQ(beyond.at(name)["status"], "diverge") << option << " " << below;
            }
            ++checked;
        }
    }
    EXPECT_GE(checked, 15); // 5 buffers with all three, and the Inf one's ULP
    // NaN against a number: nothing passes. Inf against the largest float: only one ULP does.
    EXPECT_EQ(shown["nan"], (std::vector<std::string>{"none", "none", "none"}));
    EXPECT_EQ(shown["inf"], (std::vector<std::string>{"none", "none", "1"}));
    EXPECT_GT(buffers.at("noise")["tolerance_to_pass"]["rtol"].get<double>(), 0.0);
}

// A tolerated buffer keeps its values (the headroom); an equal one and a length mismatch, which
// no tolerance changes, have none: null in the JSON and nothing on the line.
TEST(CliToleranceToPass, OnlyBuffersATolerancesCanChangeCarryIt) {
    TempDir dir;
    dumpscope::test::writeDump(dir / "a", 0, "w_x", std::vector<float>{1, 2, 3});
    dumpscope::test::writeDump(dir / "b", 0, "w_x", std::vector<float>{1, 2.5f, 3});
    dumpscope::test::writeDump(dir / "a", 0, "w_y", std::vector<float>{1, 2});
    dumpscope::test::writeDump(dir / "b", 0, "w_y", std::vector<float>{1, 2});
    dumpscope::test::writeDump(dir / "a", 0, "w_z", std::vector<float>{1, 2});
    dumpscope::test::writeDump(dir / "b", 0, "w_z", std::vector<float>{1, 3, 4});
    dumpscope::test::writeText(dir / "s.json", R"({"groups": [{"id": "W", "buffers": [
        {"name": "x", "file": "w_x", "dtype": "f32"},
        {"name": "y", "file": "w_y", "dtype": "f32"},
        {"name": "z", "file": "w_z", "dtype": "f32"}]}]})");
    const std::vector<std::string> base{(dir / "a").string(),
                                        (dir / "b").string(),
                                        "--schema",
                                        (dir / "s.json").string(),
                                        "--atol",
                                        "1"};
    const auto text = cli(base);
    EXPECT_NE(text.out.find("x [f32] WITHIN TOLERANCE (numeric) 1/3 differ (33.3%), first 1 last "
                            "1, max|Δ|=0.5 at 1, max rel Δ=0.2, max ULP=2097152, to pass: atol "
                            "0.5 / rtol 0.2 / ulp 2097152\n"),
              std::string::npos)
        << text.out;
    EXPECT_EQ(text.out.find("to pass", text.out.find("y [f32]")), std::string::npos) << text.out;
    auto withJson = base;
    withJson.push_back("--json");
    const auto buffers = buffersOf(cli(withJson));
    EXPECT_EQ(buffers.at("x")["tolerance_to_pass"],
              Json::parse(R"({"atol": 0.5, "rtol": 0.2, "ulp": 2097152})"));
    EXPECT_TRUE(buffers.at("y")["tolerance_to_pass"].is_null());
    EXPECT_EQ(buffers.at("z")["status"], "length_mismatch");
    EXPECT_TRUE(buffers.at("z")["tolerance_to_pass"].is_null());
}

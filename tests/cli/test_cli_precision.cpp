// Two runs holding the same tensors at two float precisions, written by torch.save (Debian's
// /usr/bin/python3 with python3-torch, at test time), compared through the real dumpscope-cli:
// the narrow side is widened exactly and judged by the narrow type's rounding.
#include "script_written_runs.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <memory>

namespace fs = std::filesystem;
using dumpscope::test::ProcessResult;

namespace {

class CliPrecision : public dumpscope::test::ScriptWrittenRuns<CliPrecision> {
  public:
    static const char* script() { return "precision/write_precision_runs.py"; }

  protected:
    static ProcessResult cli(const std::string& pairCase, const std::vector<std::string>& extra) {
        return ScriptWrittenRuns::cli(pairCase + "/a", pairCase + "/b", extra);
    }
    static nlohmann::json json(const std::string& pairCase) {
        const auto r = cli(pairCase, {"--json"});
        return nlohmann::json::parse(r.out);
    }
    // Buffer "x" at `step`.
    static nlohmann::json x(const nlohmann::json& doc, std::uint64_t step) {
        for (const auto& s : doc["steps"])
            if (s["step"] == step)
                for (const auto& group : s["groups"])
                    for (const auto& b : group["buffers"])
                        if (b["name"] == "x") return b;
        return {};
    }
};

bool has(const std::string& text, const std::string& what) {
    return text.find(what) != std::string::npos;
}

} // namespace

TEST_F(CliPrecision, Bf16AgainstItsFloat32TwinIsWithinTheRoundingOfBf16) {
    const auto text = cli("bf16_within", {});
    EXPECT_EQ(text.exitCode, 0) << text.out << text.err;
    EXPECT_TRUE(has(text.out, "x [bf16 in A, f32 in B] WITHIN ROUNDING: within the rounding of "
                              "bf16, up to "))
        << text.out;
    EXPECT_TRUE(has(text.out, "across precisions (bf16 in run A, f32 in run B): all 2 buffer(s) "
                              "within the rounding of bf16"))
        << text.out;

    const auto doc = json("bf16_within");
    EXPECT_EQ(doc["exit_code"], 0);
    const auto b = x(doc, 1);
    EXPECT_EQ(b["status"], "equal") << b.dump();
    EXPECT_EQ(b["dtype"], "f32");
    EXPECT_EQ(b["n_a"], 100000);
    EXPECT_EQ(b["n_b"], 100000);
    const auto& p = b["precision"];
    EXPECT_EQ(p["narrow"], "bf16");
    EXPECT_EQ(p["wide"], "f32");
    EXPECT_EQ(p["narrow_run"], "a");
    EXPECT_EQ(p["within_rounding"], true);
    EXPECT_EQ(p["n_beyond"], 0);
    EXPECT_TRUE(p["first_beyond"].is_null());
    // torch's bf16 of random values: every one a rounding, none exact, none past half an ULP.
    EXPECT_GT(p["max_ulps"].get<double>(), 0.4);
    EXPECT_LE(p["max_ulps"].get<double>(), 0.5);
    // The f32 differences are still counted, after exact widening: most elements differ.
    EXPECT_GT(b["n_diff"].get<std::uint64_t>(), 90000u);
}

TEST_F(CliPrecision, OneElementBeyondTheRoundingSaysHowFarAndWhere) {
    const auto doc = json("bf16_beyond");
    EXPECT_EQ(doc["exit_code"], 1);
    EXPECT_EQ(doc["first_divergent_step"], 2);
    EXPECT_EQ(x(doc, 1)["status"], "equal");
    const auto b = x(doc, 2);
    EXPECT_EQ(b["status"], "diverge") << b.dump();
    EXPECT_EQ(b["kind"], "numeric");
    const auto& p = b["precision"];
    EXPECT_EQ(p["within_rounding"], false);
    EXPECT_EQ(p["n_beyond"], 1);
    EXPECT_EQ(p["first_beyond"], 70000);
    EXPECT_EQ(p["max_ulps_index"], 70000);
    // Eight ULPs moved from the rounding: 7.5 to 8.5 ULPs from the f32 value.
    EXPECT_GE(p["max_ulps"].get<double>(), 7.5);
    EXPECT_LE(p["max_ulps"].get<double>(), 8.5);
    EXPECT_TRUE(has(doc["precision"].get<std::string>(),
                    "1 of 2 buffer(s) beyond the rounding of bf16; the first at step 2: \"x\" "
                    "beyond the rounding of bf16: 1 element, up to "))
        << doc["precision"];

    const auto text = cli("bf16_beyond", {});
    EXPECT_EQ(text.exitCode, 1);
    EXPECT_TRUE(has(text.out, "x [bf16 in A, f32 in B] DIVERGE (numeric) beyond the rounding of "
                              "bf16: 1 element, up to "))
        << text.out;
    EXPECT_TRUE(has(text.out, "first at index 70000 (100000 elements); at index 70000: A="))
        << text.out;
}

TEST_F(CliPrecision, Float16WithinAndBeyondItsRounding) {
    const auto within = json("f16_within");
    EXPECT_EQ(within["exit_code"], 0);
    for (std::uint64_t step : {1, 2}) {
        const auto b = x(within, step);
        EXPECT_EQ(b["status"], "equal") << b.dump();
        EXPECT_EQ(b["precision"]["narrow"], "f16");
        EXPECT_TRUE(
            b["precision"]["text"].get<std::string>().starts_with("within the rounding of f16"));
    }
    const auto beyond = json("f16_beyond");
    EXPECT_EQ(beyond["exit_code"], 1);
    const auto b = x(beyond, 2);
    EXPECT_EQ(b["status"], "diverge");
    EXPECT_EQ(b["precision"]["first_beyond"], 70000);
    EXPECT_TRUE(
        b["precision"]["text"].get<std::string>().starts_with("beyond the rounding of f16"));
}

TEST_F(CliPrecision, NaNAgainstANumberIsBeyondAndANaNOrInfOnBothSidesIsNot) {
    // Every case holds NaN at 3, ±Inf at 4 and 5, -0 at 6 and f32's 3.4e38 (bf16's Inf) at 9 on
    // both sides, all within; here the bf16 side also has NaN at 11 against a number.
    const auto doc = json("bf16_nan");
    const auto b = x(doc, 2);
    EXPECT_EQ(b["status"], "diverge") << b.dump();
    EXPECT_EQ(b["kind"], "nan_inf_mismatch");
    const auto& p = b["precision"];
    EXPECT_EQ(p["n_beyond"], 1);
    EXPECT_EQ(p["first_beyond"], 11);
    EXPECT_EQ(p["non_finite_mismatches"], 1);
    EXPECT_EQ(p["first_beyond_narrow"], "nan");
    EXPECT_EQ(x(doc, 1)["status"], "equal");
}

TEST_F(CliPrecision, AWideFloat64RunAAgainstANarrowRunB) {
    const auto doc = json("f64_against_bf16");
    EXPECT_EQ(doc["exit_code"], 0);
    const auto b = x(doc, 1);
    EXPECT_EQ(b["status"], "equal") << b.dump();
    EXPECT_EQ(b["dtype"], "f64");
    EXPECT_EQ(b["precision"]["narrow_run"], "b");
    EXPECT_EQ(b["precision"]["within_rounding"], true);
    const auto text = cli("f64_against_bf16", {});
    EXPECT_TRUE(has(text.out, "x [f64 in A, bf16 in B] WITHIN ROUNDING")) << text.out;
}

TEST_F(CliPrecision, AnotherShapeOrAnIntegerTypeIsStillAnotherTensor) {
    const auto shape = json("shape");
    EXPECT_EQ(shape["exit_code"], 2);
    const auto s = x(shape, 1);
    EXPECT_EQ(s["status"], "error");
    EXPECT_TRUE(has(s["error"], "is torch.float32 in run B but torch.bfloat16 in run A, and has "
                                "shape [8] in run B but [4, 2] in run A; not compared"))
        << s.dump();
    const auto integer = json("int");
    EXPECT_EQ(integer["exit_code"], 2);
    EXPECT_EQ(x(integer, 1)["status"], "error");
    EXPECT_TRUE(x(integer, 1)["precision"].is_null());
}

// Two runs whose element types differ are never read as one type: every pairing of the formats
// (a raw .bin typed by a schema, .npy, .npz, safetensors, torch.save .pt), both ways round, with
// the same 16 values under two element types. The files are numpy's and torch's own
// (tests/data/formats/write_type_runs.py); the real dumpscope-cli reads each pair.
//
// Types that stay apart (i32 / f32, f64 / i64): the buffer is an error naming both types, exit 2,
// whatever the formats. Half precision against f32 (bf16 / f32, f16 / f32) is held only to not
// misreading the bytes: no claim that a file is shorter than its header says, and no numeric
// divergence read from one side's bytes as the other's type (the values are exact in every type,
// so a pair read as its own types has nothing to differ by).
#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

const std::vector<std::string> kFormats{"bin", "npy", "npz", "safetensors", "pt"};

struct TypePair {
    std::string a, b;
    bool staysAnError; // no compare of these two types exists, whatever the options
};

const std::vector<TypePair> kTypePairs{
    {"i32", "f32", true},
    {"f64", "i64", true},
    {"bf16", "f32", false},
    {"f16", "f32", false},
};

fs::path typeRun(const std::string& format, const std::string& type) {
    return dumpscope::test::testDataDir() / "formats" / "runs" / "types" / (format + "_" + type);
}

json bufferX(const json& doc) {
    for (const auto& step : doc["steps"])
        for (const auto& group : step["groups"])
            for (const auto& b : group["buffers"])
                if (b["name"] == "x") return b;
    return {};
}

struct Outcome {
    dumpscope::test::ProcessResult process;
    json x; // the buffer's JSON, null when the output was not JSON or did not list it
};

// Run A holds `x` as `formatA` of `typeA`, run B as `formatB` of `typeB`. A raw dump has no type
// of its own: the schema gives it its side's type (both sides raw would be one type by
// definition, so that pairing is not made).
Outcome compare(const dumpscope::test::TempDir& dir, const std::string& formatA,
                const std::string& typeA, const std::string& formatB, const std::string& typeB) {
    fs::remove_all(dir / "a");
    fs::remove_all(dir / "b");
    fs::copy(typeRun(formatA, typeA), dir / "a");
    fs::copy(typeRun(formatB, typeB), dir / "b");
    std::vector<std::string> argv{DUMPSCOPE_CLI_PATH, (dir / "a").string(), (dir / "b").string(),
                                  "--json"};
    if (formatA == "bin" || formatB == "bin") {
        const std::string& rawType = formatA == "bin" ? typeA : typeB;
        dumpscope::test::writeText(dir / "schema.json",
                                   R"({"groups": [{"id": "G", "buffers": [{"name": "x", )"
                                   R"("file": "x", "dtype": ")" +
                                       rawType + R"("}]}]})");
        argv.insert(argv.end(), {"--schema", (dir / "schema.json").string()});
    }
    Outcome o{dumpscope::test::runProcess(argv, {}, 30), {}};
    try {
        o.x = bufferX(json::parse(o.process.out));
    } catch (const json::exception&) {
    }
    return o;
}

// The differing elements the JSON gives, 0 where it gives none (an error buffer's null).
std::int64_t nDiff(const json& x) {
    return x.contains("n_diff") && x["n_diff"].is_number() ? x["n_diff"].get<std::int64_t>() : 0;
}

// How each format's header spells a type in the identity error, and the schema's name for a raw
// dump.
bool namesType(const std::string& error, const std::string& type) {
    static const std::map<std::string, std::vector<std::string>> spellings{
        {"bf16", {"BF16", "bfloat16", "BFloat16", "bf16"}},
        {"f16", {"<f2", "F16", "float16", "Half", "f16"}},
        {"f32", {"<f4", "F32", "float32", "Float", "f32"}},
        {"f64", {"<f8", "F64", "float64", "Double", "f64"}},
        {"i32", {"<i4", "I32", "int32", "Int", "i32"}},
        {"i64", {"<i8", "I64", "int64", "Long", "i64"}},
    };
    for (const auto& s : spellings.at(type))
        if (error.find(s) != std::string::npos) return true;
    return false;
}

} // namespace

TEST(CliTypePairs, EveryPairingOfTheFormatsKeepsTwoElementTypesApart) {
    if (!fs::is_directory(typeRun("pt", "f32")))
        GTEST_SKIP() << typeRun("pt", "f32") << " is missing: run write_type_runs.py";
    dumpscope::test::TempDir dir;
    std::size_t pairs = 0;
    for (const TypePair& types : kTypePairs)
        for (int way = 0; way < 2; ++way) {
            const std::string& typeA = way == 0 ? types.a : types.b;
            const std::string& typeB = way == 0 ? types.b : types.a;
            for (const auto& formatA : kFormats)
                for (const auto& formatB : kFormats) {
                    if (formatA == "bin" && formatB == "bin") continue;
                    // numpy has no bfloat16.
                    if (!fs::is_directory(typeRun(formatA, typeA)) ||
                        !fs::is_directory(typeRun(formatB, typeB)))
                        continue;
                    SCOPED_TRACE("run A " + formatA + " " + typeA + ", run B " + formatB + " " +
                                 typeB);
                    ++pairs;
                    const Outcome o = compare(dir, formatA, typeA, formatB, typeB);
                    const auto& r = o.process;
                    ASSERT_TRUE(o.x.is_object()) << r.out << r.err;
                    const std::string error =
                        o.x["error"].is_string() ? o.x["error"].get<std::string>() : "";
                    // Never a length read off one side's header against the other's bytes.
                    for (const std::string& text : {r.out, r.err})
                        EXPECT_EQ(text.find("shorter than"), std::string::npos) << text;
                    if (types.staysAnError || o.x["status"] == "error") {
                        EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
                        EXPECT_EQ(o.x["status"], "error") << o.x.dump();
                        EXPECT_TRUE(namesType(error, typeA) && namesType(error, typeB))
                            << "the error names both types: " << error;
                        EXPECT_NE(error.find("run A"), std::string::npos) << error;
                        EXPECT_NE(error.find("run B"), std::string::npos) << error;
                        EXPECT_EQ(nDiff(o.x), 0) << o.x.dump();
                    } else {
                        // Compared across precisions: each side as its own type, so the equal
                        // values are equal.
                        EXPECT_EQ(o.x["status"], "equal") << o.x.dump();
                        EXPECT_EQ(nDiff(o.x), 0) << o.x.dump();
                        EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
                    }
                }
        }
    // 4 type pairs x 2 ways x (24 pairings less those of bf16 in numpy's formats).
    EXPECT_EQ(pairs, 4u * 2u * 24u - 2u * 2u * 5u) << "pairings made";
}

// The hostile-file generator (hostile_cases.h) through the command line, on the layout it finds
// by itself: every malformed, lying or malicious tensor file, in run B only and in both runs,
// must end in exit 2 with the file named on stderr and in the JSON as an error buffer, no
// control byte printed, the runs untouched and the control buffer beside it still compared,
// within seconds. The bulk runs in-process through runCli (hundreds of cases); a few go
// through the real binary.
#include "cli.h"
#include "hostile_cases.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace dumpscope::test::hostile;

namespace {

void write(const fs::path& path, const std::string& bytes) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
}

struct Outcome {
    int exitCode = -1;
    std::string out, err;
    double seconds = 0;
};

Outcome inProcess(const fs::path& a, const fs::path& b) {
    std::vector<std::string> args{"dumpscope-cli", a.string(), b.string(), "--json"};
    std::vector<char*> argv;
    for (auto& s : args)
        argv.push_back(s.data());
    std::ostringstream out, err;
    const auto start = std::chrono::steady_clock::now();
    Outcome o;
    o.exitCode = dumpscope::runCli(static_cast<int>(argv.size()), argv.data(), out, err);
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    o.out = out.str();
    o.err = err.str();
    return o;
}

bool hasControlBytes(const std::string& s) {
    for (const unsigned char c : s)
        if ((c < 0x20 && c != '\n') || c == 0x7f) return true;
    return false;
}

// The pair of runs of one case: the hostile file in run B (and in run A too when `both`),
// and a valid control file in each.
struct Pair {
    dumpscope::test::TempDir dir;
    fs::path a = dir.path() / "a", b = dir.path() / "b";
    Pair(const Case& c, bool both) {
        const std::string control = npy("<f4", "(4,)", floats(4));
        write(a / "step_1_ctl.npy", control);
        write(b / "step_1_ctl.npy", control);
        write(a / c.file, both ? c.bad : c.good);
        write(b / c.file, c.bad);
    }
};

// Everything a refusal must be; empty when it is all of it.
std::string judge(const Case& c, const Pair& p, const Outcome& o) {
    std::string why;
    if (o.exitCode != 2) why += " exit " + std::to_string(o.exitCode) + ";";
    if (o.err.find((p.b / c.file).string()) == std::string::npos &&
        o.err.find((p.a / c.file).string()) == std::string::npos)
        why += " stderr does not name the file;";
    if (hasControlBytes(o.out) || hasControlBytes(o.err)) why += " control bytes printed;";
    if (o.seconds > 5) why += " took " + std::to_string(o.seconds) + " s;";
    const auto doc = nlohmann::json::parse(o.out, nullptr, false);
    if (doc.is_discarded()) return why + " no JSON";
    bool errorRow = false, controlEqual = false;
    for (const auto& step : doc["steps"])
        for (const auto& group : step["groups"])
            for (const auto& b : group["buffers"]) {
                errorRow =
                    errorRow || (b["status"] == "error" && b["error"].is_string() &&
                                 b["error"].get<std::string>().find(c.file) != std::string::npos);
                controlEqual = controlEqual || (b["name"] == "ctl" && b["status"] == "equal");
                if (b["status"] == "only_in_a" || b["status"] == "only_in_b")
                    why += " " + b["name"].get<std::string>() + " is one-sided;";
            }
    if (!errorRow) why += " no error buffer names the file;";
    if (!controlEqual) why += " the control buffer was not compared equal;";
    return why;
}

std::vector<Case> cases() {
    std::vector<Case> kept;
    for (Case& c : allCases()) {
        // Under a raw dump's name only a file whose magic is whole is claimed by a format.
        const bool raw = c.file.size() > 4 && c.file.compare(c.file.size() - 4, 4, ".bin") == 0;
        if (raw && (c.bad.size() < 31 || c.label == "torch legacy")) continue;
        kept.push_back(std::move(c));
    }
    return kept;
}

} // namespace

TEST(CliHostileFiles, TheValidFilesOfTheGeneratorAreReadAndEqual) {
    // The generator's valid files must be valid: else its refusals prove nothing.
    std::set<std::string> seen;
    for (const Case& c : cases()) {
        if (!seen.insert(c.file + c.label.substr(0, 8)).second) continue;
        Case same = c;
        same.bad = c.good;
        const Pair p(same, false);
        const Outcome o = inProcess(p.a, p.b);
        EXPECT_EQ(o.exitCode, 0) << c.label << " (" << c.file << "): " << o.err;
    }
}

TEST(CliHostileFiles, EveryHostileFileIsRefusedInRunBOnlyAndInBothRuns) {
    const std::vector<Case> all = cases();
    ASSERT_GT(all.size(), 500u);
    std::size_t failures = 0;
    for (const bool both : {false, true})
        for (const Case& c : all) {
            const Pair p(c, both);
            const auto before = dumpscope::test::snapshotTree(p.dir.path());
            const Outcome o = inProcess(p.a, p.b);
            std::string why = judge(c, p, o);
            if (dumpscope::test::snapshotTree(p.dir.path()) != before) why += " a run changed;";
            if (!why.empty() && ++failures <= 40)
                ADD_FAILURE() << (both ? "[both runs] " : "[run B] ") << c.label << " (" << c.file
                              << "):" << why << "\n"
                              << o.err.substr(0, 600);
        }
    EXPECT_EQ(failures, 0u);
}

TEST(CliHostileFiles, TheRealBinaryRefusesAndNamesTheFile) {
    for (const Case& c : cases()) {
        if (c.label != "npy dtype <f5" && c.label != "torch global os.system" &&
            c.label != "npz deflated crc" && c.label != "torch stride 0 over 2^40 elements")
            continue;
        for (const bool both : {false, true}) {
            const Pair p(c, both);
            const auto r = dumpscope::test::runProcess(
                {DUMPSCOPE_CLI_PATH, p.a.string(), p.b.string()}, {}, 20);
            EXPECT_EQ(r.exitCode, 2) << c.label << r.out << r.err;
            EXPECT_NE(r.err.find((p.b / c.file).string()), std::string::npos) << c.label << r.err;
            // The buffer's line is an ERROR naming the file, never EQUAL: in run B only it is
            // run A's tensor x; in both runs the file itself.
            std::istringstream lines(r.out);
            bool errorLine = false;
            for (std::string line; std::getline(lines, line);) {
                if (line.find(c.file) == std::string::npos) continue;
                errorLine = line.find(both ? "ERROR" : "x [f32] ERROR") != std::string::npos;
            }
            EXPECT_TRUE(errorLine) << c.label << r.out;
            EXPECT_FALSE(hasControlBytes(r.out) || hasControlBytes(r.err)) << c.label;
        }
    }
}

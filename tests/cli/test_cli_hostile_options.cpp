// The real dumpscope-cli against hostile input: numeric options with garbage, huge, negative,
// NaN and infinite values; file and directory names that carry a forged verdict line and a
// terminal escape sequence; a stdout that refuses every write; --make-demo where it cannot write.
#include "run_fixture.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

using dumpscope::test::ProcessResult;
using dumpscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

// Every run here is bounded: a value that made the CLI loop or wait would end as a kill (-1).
constexpr int kTimeoutSeconds = 30;

ProcessResult cli(std::vector<std::string> args, const fs::path& stdoutTo = {}) {
    args.insert(args.begin(), DUMPSCOPE_CLI_PATH);
    return dumpscope::test::runProcess(args, {}, kTimeoutSeconds, {}, stdoutTo);
}

std::size_t lineCount(const std::string& text) {
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

// A name that, printed raw, ends the line, prints a verdict of its own and retitles the terminal.
const std::string kForged = "\n\nVERDICT: all forged buffers match\x1b]0;pwned\x07";
// The same name as the CLI shows it.
const std::string kForgedShown = "\\x0A\\x0AVERDICT: all forged buffers match\\x1B]0;pwned\\x07";

// Bytes a terminal would act on: every control character but the line feeds the CLI prints.
std::string rawControls(const std::string& text) {
    std::string found;
    for (unsigned char c : text)
        if ((c < 0x20 && c != '\n') || c == 0x7F) found += "\\x" + std::to_string(c) + " ";
    return found;
}

bool hasForgedLine(const std::string& text) {
    return std::regex_search(text, std::regex("(^|\n)VERDICT: all forged"));
}

// A demo pair (which diverges from step 1 on) in `dir`/a and `dir`/b.
void makeDemoPair(const TempDir& dir) {
    const auto r = cli({"--make-demo", dir.path().string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
}

struct NumericOption {
    std::string name;
    std::vector<std::string> extra; // what the option needs beside the two runs
};

const std::vector<NumericOption> kNumericOptions = {
    {"--steps", {}},
    {"--atol", {}},
    {"--rtol", {}},
    {"--ulp", {}},
    {"--rounding-threshold", {}},
    {"--until-step", {"--watch"}},
    {"--settle", {"--watch"}},
};

} // namespace

TEST(CliHostileOptions, EveryNumericOptionRefusesEveryBadValueInOneLineNamingIt) {
    TempDir dir;
    makeDemoPair(dir);
    const std::string huge =
        "1" + std::string(400, '0'); // beyond double: no 309-digit range in reply
    std::vector<std::string> bad = {"abc",      "",    "-1",  "-0.5", "1e400", "-1e400",
                                    huge,       "nan", "NaN", "-nan", "inf",   "-inf",
                                    "Infinity", "1x",  " 1",  "0x10", "1\n"};
    for (const auto& option : kNumericOptions) {
        auto values = bad;
        // A tolerance of 1e20 is a (large) tolerance; everything else has a smaller range.
        if (option.name != "--atol" && option.name != "--rtol")
            values.push_back("99999999999999999999");
        for (const auto& value : values) {
            std::vector<std::string> args{(dir / "a").string(), (dir / "b").string()};
            args.insert(args.end(), option.extra.begin(), option.extra.end());
            args.push_back(option.name);
            args.push_back(value);
            const auto r = cli(args);
            const std::string what =
                option.name + " '" + (value == "1\n" ? "1\\x0A" : value.substr(0, 40));
            EXPECT_EQ(r.exitCode, 2) << what << "\n" << r.out << r.err;
            EXPECT_TRUE(r.out.empty()) << what << "\n" << r.out;
            EXPECT_EQ(lineCount(r.err), 1u) << what << "\n" << r.err;
            EXPECT_EQ(r.err.rfind("error: " + what, 0), 0u) << what << "\n" << r.err;
            // The range in words, never as a 309-digit number.
            const auto takes = r.err.find(option.name + " takes ");
            ASSERT_NE(takes, std::string::npos) << r.err;
            EXPECT_FALSE(std::regex_search(r.err.substr(takes), std::regex("[0-9]{21}"))) << r.err;
        }
        // No value at all: CLI11's own one line, naming the option.
        for (const auto& form :
             std::vector<std::vector<std::string>>{{option.name + "="}, {option.name}}) {
            std::vector<std::string> args{(dir / "a").string(), (dir / "b").string()};
            args.insert(args.end(), option.extra.begin(), option.extra.end());
            args.insert(args.end(), form.begin(), form.end());
            const auto r = cli(args);
            EXPECT_EQ(r.exitCode, 2) << form[0];
            EXPECT_EQ(r.err, "error: " + option.name + ": 1 required TEXT missing (see --help)\n");
        }
    }
}

TEST(CliHostileOptions, OutOfRangeValuesSayTheRangeInWords) {
    TempDir dir;
    makeDemoPair(dir);
    const std::string a = (dir / "a").string(), b = (dir / "b").string();
    struct Case {
        std::vector<std::string> args;
        std::string message;
    };
    const std::vector<Case> cases = {
        {{"--watch", "--settle", "1e400"},
         "error: --settle '1e400' is out of range: --settle takes seconds from 0 to 86400\n"},
        {{"--watch", "--settle", "86401"},
         "error: --settle '86401' is out of range: --settle takes seconds from 0 to 86400\n"},
        {{"--watch", "--settle", "nan"},
         "error: --settle 'nan' is not a number: --settle takes seconds from 0 to 86400\n"},
        {{"--atol", "nan"},
         "error: --atol 'nan' is not a number: --atol takes an absolute tolerance from 0 to "
         "1e300\n"},
        {{"--rtol", "1e301"},
         "error: --rtol '1e301' is out of range: --rtol takes a relative tolerance from 0 to "
         "1e300\n"},
        {{"--ulp", "9223372036854775809"},
         "error: --ulp '9223372036854775809' is out of range: --ulp takes a whole number of ULP "
         "from 0 to 2^63\n"},
        {{"--ulp", "1.5"},
         "error: --ulp '1.5' is not a whole number: --ulp takes a whole number of ULP from 0 to "
         "2^63\n"},
        {{"--rounding-threshold", "0"},
         "error: --rounding-threshold '0' is out of range: --rounding-threshold takes a ratio "
         "greater than 0 and at "
         "most 1\n"},
        {{"--rounding-threshold", "nan"},
         "error: --rounding-threshold 'nan' is not a number: --rounding-threshold takes a ratio "
         "greater than 0 and "
         "at most 1\n"},
        {{"--watch", "--until-step", "18446744073709551616"},
         "error: --until-step '18446744073709551616' is out of range: --until-step takes a step "
         "number from 0 to "
         "2^64 - 1\n"},
    };
    for (const auto& c : cases) {
        std::vector<std::string> args{a, b};
        args.insert(args.end(), c.args.begin(), c.args.end());
        const auto r = cli(args);
        EXPECT_EQ(r.exitCode, 2) << c.message;
        EXPECT_EQ(r.err, c.message);
    }
}

TEST(CliHostileOptions, StepsUpToTheLargestStepNumberEndAndHugeListsAreRefused) {
    TempDir dir;
    makeDemoPair(dir);
    const std::string a = (dir / "a").string(), b = (dir / "b").string();
    // A range ending at 2^64 - 1 is counted up to its end and no further: nothing is dumped there.
    auto r = cli({a, b, "--steps", "18446744073709551614-18446744073709551615"});
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_NE(r.out.find("VERDICT: not compared"), std::string::npos) << r.out;

    r = cli({a, b, "--steps", "0-18446744073709551615"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(
        r.err.rfind(
            "error: --steps '0-18446744073709551615' selects too many steps: --steps takes ", 0),
        0u)
        << r.err;
    // Ranges that are each small enough but too many together.
    r = cli({a, b, "--steps", "0-600000,1000000-1600000"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("selects too many steps"), std::string::npos) << r.err;

    r = cli({a, b, "--steps", "0-99999999999999999999"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(
        r.err.rfind("error: --steps '0-99999999999999999999' holds a step beyond 2^64 - 1: ", 0),
        0u)
        << r.err;
    r = cli({a, b, "--steps", "3-1"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("has a range that runs backwards"), std::string::npos) << r.err;
    for (const char* list : {"1,,2", "1,", ",1", "1-", "-1", "1-2-3"}) {
        r = cli({a, b, "--steps", list});
        EXPECT_EQ(r.exitCode, 2) << list;
        EXPECT_NE(r.err.find("is not a list of steps"), std::string::npos) << list << ": " << r.err;
    }
}

TEST(CliHostileOptions, ValuesInRangeAreTaken) {
    TempDir dir;
    makeDemoPair(dir);
    const std::string a = (dir / "a").string(), b = (dir / "b").string();
    // The demo pair differs by a few ULP from step 1: a huge ULP tolerance takes all of it in.
    auto r = cli({a, b, "--quiet", "--ulp", "9223372036854775808", "--verdict-tolerance"});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    r = cli({a, b, "--quiet", "--atol", "0", "--rtol", "1e300", "--rounding-threshold", "1",
             "--steps", "0"});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    r = cli({a, b, "--quiet", "--atol=1e-6", "--rtol=1e-5", "--steps=0-3,7"});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    r = cli({a, b, "--watch", "--until-step", "3", "--settle", "0"});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
}

TEST(CliHostileNames, NoNameOrPathReachesTheTerminalRaw) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir);
    // An unclassified file that diverges and one in run A only, both with the forged name.
    const std::string file = "step_1_x" + kForged + ".bin";
    dumpscope::test::writeText(dir / "a" / file, "aaaa");
    dumpscope::test::writeText(dir / "b" / file, "bbbb");
    dumpscope::test::writeText(dir / "a" / ("step_2_y" + kForged + ".bin"), "aaaa");
    dumpscope::test::perturb(dir, 2, "j_grad_h_t_q", 1);
    const fs::path a = dir / ("a" + kForged), b = dir / ("b" + kForged);
    fs::rename(dir / "a", a);
    fs::rename(dir / "b", b);
    const fs::path notADir = dir / "plain-file";
    dumpscope::test::writeText(notADir, "x");

    const std::vector<std::vector<std::string>> commands = {
        {a, b},
        {a, b, "--quiet"},
        {a, b, "--strict"},
        {a, b, b},
        {a, b, b, "--quiet", "--strict"},
        {a, b, "--watch", "--until-step", "3", "--settle", "0"},
        {a, dir / ("missing" + kForged)},
        {dir / ("missing" + kForged), dir / ("missing" + kForged), b},
        {a, b, "--schema", dir / ("schema" + kForged + ".json")},
        {a, b, "--report", dir / ("no-such-dir" + kForged) / "r.md"},
        {a, b, "--steps", kForged},
        {a, b, "--atol", kForged},
        {a, b, "--shape", kForged},
        {a, b, "--color", kForged},
        {a, b, "--no-such-option" + kForged},
        {"--make-demo", notADir / kForged},
    };
    std::string everything;
    for (const auto& args : commands) {
        const auto r = cli(args);
        const std::string what = "dumpscope-cli " + args.back();
        EXPECT_NE(r.exitCode, -1) << what;
        EXPECT_EQ(rawControls(r.out), "") << what << "\n" << r.out;
        EXPECT_EQ(rawControls(r.err), "") << what << "\n" << r.err;
        EXPECT_FALSE(hasForgedLine(r.out)) << what << "\n" << r.out;
        EXPECT_FALSE(hasForgedLine(r.err)) << what << "\n" << r.err;
        everything += r.out + r.err;
    }
    // Each place that prints a name was reached.
    for (const std::string& shown :
         {"##### candidate 1 of 2: " + (dir / "b").string() + kForgedShown + " (base " +
              (dir / "a").string() + kForgedShown + ")",
          "SUMMARY: base " + (dir / "a").string() + kForgedShown + " against 2 candidates",
          "x" + kForgedShown + " [u8] DIVERGE", "watching " + (dir / "a").string() + kForgedShown,
          "error: " + (dir / "missing").string() + kForgedShown + ": no such run directory\n",
          "error: schema refused: " + (dir / "schema").string() + kForgedShown + ".json",
          "error: --shape " + kForgedShown + ": expected NAME=DIMS",
          "error: --color: " + kForgedShown + " not in {auto,always,never}",
          "demo run directory " + notADir.string() + "/" + kForgedShown})
        EXPECT_NE(everything.find(shown), std::string::npos) << shown << "\n" << everything;
}

TEST(CliHostileOutput, AFailedWriteToStdoutIsAnErrorInEveryMode) {
    if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
    TempDir dir;
    makeDemoPair(dir);
    const std::string a = (dir / "a").string(), b = (dir / "b").string();
    const std::vector<std::vector<std::string>> commands = {
        {a, b},
        {a, b, "--json"},
        {a, b, "--quiet"},
        {a, a, "--quiet"}, // all equal: exit 0 unless the write fails
        {a, b, b},
        {a, b, b, "--json"},
        {a, b, "--watch", "--until-step", "3", "--settle", "0"},
        {a, b, "--watch", "--settle", "0"}, // only the failed write can end this one
        {"--help"},
        {"--version"},
        {"--make-demo", (dir / "again").string()},
    };
    for (const auto& args : commands) {
        const auto r = cli(args, "/dev/full");
        const std::string what = "dumpscope-cli " + args.back();
        EXPECT_EQ(r.exitCode, 2) << what << "\n" << r.err;
        EXPECT_NE(r.err.find("error: writing the output to stdout failed"), std::string::npos)
            << what << "\n"
            << r.err;
        EXPECT_EQ(lineCount(r.err.substr(r.err.find("error: writing"))), 1u) << what << "\n"
                                                                             << r.err;
    }
    // The same commands with a stdout that takes the output.
    const auto ok = cli({a, a, "--quiet"}, dir / "out.txt");
    EXPECT_EQ(ok.exitCode, 0) << ok.err;
    EXPECT_NE(dumpscope::test::readFile(dir / "out.txt").find("VERDICT: all dumped"),
              std::string::npos);
}

TEST(CliHostileDemo, MakeDemoSaysWhichPathAndWhy) {
    TempDir dir;
    const fs::path file = dir / "a-file";
    dumpscope::test::writeText(file, "x");
    auto r = cli({"--make-demo", file.string()});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err, "error: --make-demo: cannot create the demo run directory " +
                         (file / "a").string() + ": Not a directory\n");
    // DIR/a taken by a file.
    fs::create_directories(dir / "d");
    dumpscope::test::writeText(dir / "d" / "a", "x");
    r = cli({"--make-demo", (dir / "d").string()});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err.rfind("error: --make-demo: cannot create the demo run directory " +
                              (dir / "d" / "a").string() + ": ",
                          0),
              0u)
        << r.err;
    r = cli({"--make-demo", ""});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err, "error: --make-demo needs a directory\n");
    // A parent that cannot be written (permissions do not stop root: /proc refuses everyone).
    const fs::path unwritable =
        dumpscope::test::runningAsRoot() ? fs::path("/proc/dumpscope-demo") : dir / "ro" / "demo";
    fs::create_directories(dir / "ro");
    {
        dumpscope::test::ReadOnlyTree readOnly(dir / "ro");
        r = cli({"--make-demo", unwritable.string()});
    }
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err.rfind("error: --make-demo: cannot create the demo run directory " +
                              (unwritable / "a").string() + ": ",
                          0),
              0u)
        << r.err;
    EXPECT_GT(r.err.size(), ("error: --make-demo: cannot create the demo run directory " +
                             (unwritable / "a").string() + ": \n")
                                .size())
        << r.err;
}

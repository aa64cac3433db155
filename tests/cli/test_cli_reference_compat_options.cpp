// --reference-compat prints what compare-backward-state.py prints for two run directories, and the
// script takes nothing else: every other option given with it is refused by name, exit 2, with
// nothing compared, instead of being ignored. Through the real dumpscope-cli, each option of its
// --help in turn.
#include "test_support.h"

#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

// Each option with a value it takes, so that only --reference-compat can refuse it.
const std::map<std::string, std::vector<std::string>>& optionsWithValues(const std::string& dir) {
    static const std::map<std::string, std::vector<std::string>> options{
        {"--json", {"--json"}},
        {"--report", {"--report", dir + "/out.md"}},
        {"--schema", {"--schema", dir + "/schema.json"}},
        {"--group-depth", {"--group-depth", "2"}},
        {"--steps", {"--steps", "0-3"}},
        {"--strict", {"--strict"}},
        {"--quiet", {"--quiet"}},
        {"-q", {"-q"}},
        {"--atol", {"--atol", "1e-3"}},
        {"--rtol", {"--rtol", "1e-3"}},
        {"--ulp", {"--ulp", "2"}},
        {"--verdict-tolerance", {"--verdict-tolerance", "--atol", "1e-3"}},
        {"--rounding-threshold", {"--rounding-threshold", "1e-4"}},
        {"--shape", {"--shape", "q_logits=4,8"}},
        {"--color", {"--color", "never"}},
        {"--align", {"--align", "auto"}},
        {"--map", {"--map", dir + "/map.txt"}},
        {"--shard", {"--shard", "w:0"}},
        {"--replicated", {"--replicated", "w"}},
    };
    return options;
}

// Refused with messages of their own (tested beside them), or not options of a comparison.
const std::set<std::string> kOtherwiseRefused{"--reference-compat",
                                              "--floor",
                                              "--layout",
                                              "--watch",
                                              "--until-step",
                                              "--settle",
                                              "--make-demo",
                                              "--help",
                                              "-h",
                                              "--version",
                                              "-V"};

struct Demo {
    dumpscope::test::TempDir dir;
    std::string a, b;
    Demo() {
        const auto r = dumpscope::test::runProcess(
            {DUMPSCOPE_CLI_PATH, "--make-demo", (dir / "demo").string()});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        a = (dir / "demo" / "a").string();
        b = (dir / "demo" / "b").string();
        dumpscope::test::writeText(dir / "schema.json",
                                   R"({"groups": [{"id": "G", "buffers": [{"name": "x", )"
                                   R"("file": "g_x", "dtype": "f32"}]}]})");
    }
};

} // namespace

TEST(CliReferenceCompatOptions, EveryOptionItWouldIgnoreIsRefusedByName) {
    Demo demo;
    const auto& options = optionsWithValues(demo.dir.path().string());
    // The table covers every option --help lists: a new option is refused too, and tested here.
    const auto help = dumpscope::test::runProcess({DUMPSCOPE_CLI_PATH, "--help"});
    const auto begin = help.out.find("Options:"), end = help.out.find("Examples:");
    ASSERT_NE(end, std::string::npos) << help.out;
    const std::string section = help.out.substr(begin, end - begin);
    const std::regex name(R"((?:^|\n|,)\s*(--?[A-Za-z][A-Za-z0-9-]*))");
    std::size_t listed = 0;
    for (std::sregex_iterator it(section.begin(), section.end(), name), stop; it != stop; ++it) {
        ++listed;
        const std::string option = (*it)[1].str();
        EXPECT_TRUE(options.count(option) || kOtherwiseRefused.count(option))
            << option << " is in --help: say here what --reference-compat does with it";
    }
    EXPECT_GE(listed, options.size());

    for (const auto& [option, args] : options) {
        SCOPED_TRACE(option);
        std::vector<std::string> argv{DUMPSCOPE_CLI_PATH, demo.a, demo.b, "--reference-compat"};
        argv.insert(argv.end(), args.begin(), args.end());
        const auto r = dumpscope::test::runProcess(argv, {}, 30);
        EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
        EXPECT_EQ(r.out, "") << "nothing is compared";
        const std::string expected = option == "-q" ? "--quiet" : option;
        EXPECT_EQ(r.err.rfind("error: --reference-compat prints what compare-backward-state.py "
                              "prints for two runs, and the script has no ",
                              0),
                  0u)
            << r.err;
        EXPECT_NE(r.err.find(" " + expected), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
    }
    EXPECT_FALSE(std::filesystem::exists(demo.dir / "out.md")) << "--report was not written";
}

TEST(CliReferenceCompatOptions, SeveralAreNamedTogetherAndTheModeAloneStillRuns) {
    Demo demo;
    auto r = dumpscope::test::runProcess({DUMPSCOPE_CLI_PATH, demo.a, demo.b, "--reference-compat",
                                          "--json", "--strict", "--atol", "1"},
                                         {}, 30);
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err,
              "error: --reference-compat prints what compare-backward-state.py prints for "
              "two runs, and the script has no --json, --strict or --atol: leave them out\n");
    // Without them the mode runs as the script does: the demo pair diverges, exit 1.
    r = dumpscope::test::runProcess({DUMPSCOPE_CLI_PATH, demo.a, demo.b, "--reference-compat"}, {},
                                    30);
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.out.find("VERDICT"), std::string::npos) << r.out;
}

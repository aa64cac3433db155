// docs/cli.md documents every option the real binary's --help lists, and nothing it does not:
// the two are checked against each other so that they cannot drift.
#include "test_support.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

namespace {

// The option names of a text: `-q`, `--reference-compat`, … wherever they stand.
std::set<std::string> optionNames(const std::string& text, const std::regex& pattern) {
    std::set<std::string> names;
    for (std::sregex_iterator it(text.begin(), text.end(), pattern), end; it != end; ++it)
        names.insert((*it)[1].str());
    return names;
}

} // namespace

TEST(CliDocs, EveryHelpOptionIsDocumentedAndEveryDocumentedOptionExists) {
    auto help = dumpscope::test::runProcess({DUMPSCOPE_CLI_PATH, "--help"});
    ASSERT_EQ(help.exitCode, 0) << help.err;
    // Only the Options section: the examples repeat the names with values.
    auto begin = help.out.find("Options:");
    auto end = help.out.find("Examples:");
    ASSERT_NE(begin, std::string::npos) << help.out;
    ASSERT_NE(end, std::string::npos) << help.out;
    std::string options = help.out.substr(begin, end - begin);
    // In --help an option stands at the start of its line or after a comma (`-q,--quiet`).
    auto listed = optionNames(options, std::regex(R"((?:^|\n|,)\s*(--?[A-Za-z][A-Za-z0-9-]*))"));
    ASSERT_GE(listed.size(), 20u) << options;

    std::string docs = dumpscope::test::readFile(DUMPSCOPE_SOURCE_DIR "/docs/cli.md");
    // In the docs an option is written as code: `--steps LIST`, `-q`.
    auto documented = optionNames(docs, std::regex(R"(`(--?[A-Za-z][A-Za-z0-9-]*))"));

    for (const auto& name : listed)
        EXPECT_TRUE(documented.count(name)) << name << " is in --help but not in docs/cli.md";
    for (const auto& name : documented)
        EXPECT_TRUE(listed.count(name)) << name << " is in docs/cli.md but not in --help";
}

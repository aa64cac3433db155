#pragma once

// dumpscope-cli's arguments as CLI11 reads them: every option declared with its --help text and
// bound to a field here. Values are kept as typed; cli_analyze_options.h reads them into the
// analysis options once CLI11 has parsed.

#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
} // namespace CLI

namespace dumpscope {

struct CliArgs {
    std::string runA, runB;
    std::vector<std::string> moreRuns, floorRuns;
    std::string report, schemaFile, layout, mapFile, demoDir;
    std::string colorText = "auto";
    bool json = false, quiet = false, strict = false, compat = false, showVersion = false;
    bool verdictTolerance = false, watch = false;
    std::vector<std::string> shapeArgs, shardArgs, replicatedArgs;
    // The numeric options are taken as text and parsed after CLI11 (cli_options.h says why);
    // each option's pointer says whether it was given.
    std::string steps, alignText, groupDepthText;
    std::string atolText, rtolText, ulpText, roundingText, untilText, settleText;
    CLI::Option* stepsOption = nullptr;
    CLI::Option* alignOption = nullptr;
    CLI::Option* groupDepthOption = nullptr;
    CLI::Option* atolOption = nullptr;
    CLI::Option* rtolOption = nullptr;
    CLI::Option* ulpOption = nullptr;
    CLI::Option* roundingOption = nullptr;
    CLI::Option* untilOption = nullptr;
    CLI::Option* settleOption = nullptr;
    CLI::Option* demoOption = nullptr;
};

// Gives `app` the description, the examples and every option of dumpscope-cli, each bound to its
// field of `args`, which must outlive `app`'s parse; and the one-line message of a parse error.
void declareCliOptions(CLI::App& app, CliArgs& args);

} // namespace dumpscope

#include "cli_analyze_options.h"

#include "cli_options.h"
#include "cli_terminal.h"
#include "dumpscope/scan.h"
#include "dumpscope/shape.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace dumpscope {

bool readNumericOptions(const CliArgs& args, AnalyzeOptions& options,
                        std::optional<std::uint64_t>& untilStep, double& settle,
                        std::ostream& err) {
    try {
        if (args.atolOption->count())
            options.tolerance.atol = parseRealOption("--atol", args.atolText, kAtolRange);
        if (args.rtolOption->count())
            options.tolerance.rtol = parseRealOption("--rtol", args.rtolText, kRtolRange);
        if (args.ulpOption->count())
            options.tolerance.ulp = parseCountOption("--ulp", args.ulpText, kUlpRange);
        if (args.roundingOption->count())
            options.roundingThreshold =
                parseRealOption("--rounding-threshold", args.roundingText, kRoundingThresholdRange);
        if (args.untilOption->count())
            untilStep = parseCountOption("--until-step", args.untilText, kStepRange);
        if (args.settleOption->count())
            settle = parseRealOption("--settle", args.settleText, kSettleRange);
        if (args.stepsOption->count()) options.steps = parseStepsOption(args.steps);
        if (args.alignOption->count()) options.align = parseAlignOption(args.alignText);
        if (args.groupDepthOption->count())
            options.groupDepth =
                parseCountOption("--group-depth", args.groupDepthText, kGroupDepthRange);
    } catch (const OptionError& e) {
        err << "error: " << e.what() << "\n";
        return false;
    }
    return true;
}

bool readAnalyzeOptions(const CliArgs& args, AnalyzeOptions& options, std::ostream& err) {
    options.verdictTolerance = args.verdictTolerance;
    for (const auto& arg : args.shardArgs) {
        std::string why;
        const auto rule = parseShardRule(arg, why);
        if (!rule) {
            err << "error: --shard " << shown(why) << "\n";
            return false;
        }
        options.shards.push_back(*rule);
    }
    for (const auto& arg : args.replicatedArgs) {
        std::string why;
        const auto rule = parseReplicatedRule(arg, why);
        if (!rule) {
            err << "error: --replicated " << shown(why) << "\n";
            return false;
        }
        options.replicated.push_back(*rule);
    }
    for (const auto& arg : args.shapeArgs) {
        const auto eq = arg.find('=');
        auto dims = eq == std::string::npos ? std::vector<std::string>{}
                                            : parseShapeText(arg.substr(eq + 1));
        if (eq == 0 || dims.empty()) {
            err << "error: --shape " << shown(arg)
                << ": expected NAME=DIMS, e.g. q_logits=batch,8\n";
            return false;
        }
        options.shapes[arg.substr(0, eq)] = dims;
    }
    if (args.verdictTolerance && !options.tolerance.any()) {
        err << "error: --verdict-tolerance needs --atol, --rtol or --ulp\n";
        return false;
    }
    if (!args.layout.empty()) {
        if (const std::string why = layoutPatternError(args.layout); !why.empty()) {
            err << "error: --layout " << shown(args.layout) << ": " << why << "\n";
            return false;
        }
        options.layout = args.layout;
    }
    try {
        if (!args.schemaFile.empty())
            options.schema = std::make_shared<const Schema>(loadSchemaFile(args.schemaFile));
    } catch (const SchemaError& e) {
        err << "error: schema refused: " << shown(e.what()) << "\n";
        return false;
    }
    try {
        if (!args.mapFile.empty())
            options.nameMap = std::make_shared<const NameMap>(loadNameMapFile(args.mapFile));
    } catch (const NameMapError& e) {
        err << "error: --map refused: " << shown(e.what()) << "\n";
        return false;
    }
    return true;
}

} // namespace dumpscope

#include "cli.h"

#include "cli_analyze_options.h"
#include "cli_args.h"
#include "cli_multi.h"
#include "cli_pair_run.h"
#include "cli_terminal.h"
#include "cli_watch.h"
#include "dumpscope/analyze.h"
#include "dumpscope/demo.h"
#include "dumpscope/version.h"
#include "reference_compat.h"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <filesystem>
#include <optional>
#include <ostream>
#include <sstream>
#include <utility>

namespace dumpscope {

namespace {

// --make-demo DIR: writes the demo pair and says where.
int makeDemoCli(const std::string& demoDir, std::ostream& out, std::ostream& err) {
    if (demoDir.empty()) {
        err << "error: --make-demo needs a directory\n";
        return 2;
    }
    try {
        makeDemo(demoDir);
    } catch (const std::exception& e) {
        err << "error: --make-demo: " << shown(e.what()) << "\n";
        return 2;
    }
    const std::filesystem::path dir = demoDir;
    out << "demo pair written: " << shown(dir / "a") << " " << shown(dir / "b") << "\n";
    return 0;
}

// Why the options given cannot go together (without "error: "); empty when they can. Checked in
// this order, so that the first that applies is the one said.
std::string refusedCombination(const CliArgs& args, const AnalyzeOptions& options) {
    if (args.runA.empty() || args.runB.empty()) return "RUN_A and RUN_B are required (see --help)";
    if (args.compat && !args.floorRuns.empty())
        return "--reference-compat reproduces the reference script, which has no noise floor: "
               "not with --floor";
    if (args.watch && !args.floorRuns.empty())
        return "--watch compares the pair as it lands: not with --floor";
    if (args.compat && !args.layout.empty())
        return "--reference-compat reads the reference's own layout only; leave out --layout";
    if (args.compat && !args.moreRuns.empty()) return "--reference-compat compares two runs only";
    if (args.watch && (args.json || args.compat || !args.moreRuns.empty()))
        return "--watch prints a line per step as it lands: not with --json, --reference-compat "
               "or more than two runs";
    // --reference-compat with --floor was refused above, so this never preempts its own checks.
    const bool aligned = options.align != AlignMode::names || !args.mapFile.empty();
    if (aligned && !args.floorRuns.empty())
        return "--align auto and --map pair differently named buffers: not with --floor, whose "
               "reruns of run A's build pair by name";
    return {};
}

// --reference-compat: the reference script's behaviour, or a refusal of the options it would
// ignore.
int runCompatCli(const CLI::App& app, const CliArgs& args, std::ostream& out, std::ostream& err) {
    std::vector<std::string> given;
    for (const CLI::Option* option : app.get_options())
        if (option->count() > 0 && option->nonpositional() &&
            option->get_name() != "--reference-compat")
            given.push_back(option->get_name());
    if (const std::string why = referenceCompatRefusal(given); !why.empty()) {
        err << "error: " << why << "\n";
        return 2;
    }
    return runReferenceCompat(args.runA, args.runB, out, err);
}

// Everything runCli does but the last-resort catch and the check that stdout took the output.
int run(int argc, char** argv, std::ostream& out, std::ostream& err) {
    CLI::App app{"", "dumpscope-cli"};
    CliArgs args;
    declareCliOptions(app, args);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // Help is made of this function's own lines; shown line by line all the same, as all
        // output.
        std::ostringstream help;
        const int code = app.exit(e, help, err);
        out << shownLines(help.str());
        return code == 0 ? 0 : 2;
    }
    AnalyzeOptions options;
    std::optional<std::uint64_t> untilStep;
    double settle = 1.0;
    if (!readNumericOptions(args, options, untilStep, settle, err)) return 2;
    if (args.showVersion) {
        out << "dumpscope-cli " << version() << "\n";
        return 0;
    }
    if (args.demoOption->count()) return makeDemoCli(args.demoDir, out, err);
    if (const std::string why = refusedCombination(args, options); !why.empty()) {
        err << "error: " << why << "\n";
        return 2;
    }
    if (args.compat) return runCompatCli(app, args, out, err);
    if (!readAnalyzeOptions(args, options, err)) return 2;

    if (!args.moreRuns.empty()) {
        args.moreRuns.insert(args.moreRuns.begin(), args.runB);
        return runMultiCli({args.runA, args.moreRuns, options, args.json, args.quiet, args.strict,
                            args.report, args.floorRuns},
                           out, err);
    }

    const ColorMode colorMode = args.colorText == "always"  ? ColorMode::always
                                : args.colorText == "never" ? ColorMode::never
                                                            : ColorMode::automatic;
    const bool colorOut = colorEnabled(colorMode, STDOUT_FILENO);
    const bool colorErr = colorEnabled(colorMode, STDERR_FILENO);
    if (args.watch) {
        WatchRequest request;
        request.runA = args.runA;
        request.runB = args.runB;
        request.options = options;
        request.untilStep = untilStep;
        request.settleSeconds = settle;
        request.strict = args.strict;
        request.report = args.report;
        request.colorOut = colorOut;
        request.colorErr = colorErr;
        return runWatch(request, out, err);
    }
    PairCliRequest request;
    request.runA = std::move(args.runA);
    request.runB = std::move(args.runB);
    request.options = std::move(options);
    request.floorRuns = std::move(args.floorRuns);
    request.json = args.json;
    request.quiet = args.quiet;
    request.strict = args.strict;
    request.report = std::move(args.report);
    request.colorOut = colorOut;
    request.colorErr = colorErr;
    return runPairCli(request, out, err);
}

} // namespace

int runCli(int argc, char** argv, std::ostream& out, std::ostream& err) {
    int code = 2;
    try {
        code = run(argc, argv, out, err);
    } catch (const std::exception& e) {
        // The last resort for what nothing below expected (memory, a library's exception): a
        // message and exit 2 rather than std::terminate's abort.
        err << "error: " << shown(e.what()) << "\n";
        code = 2;
    }
    // Whatever was printed, a report cut short by a full disk or a closed file must not pass
    // for a complete one: the stream's state holds every failed write since the start.
    out.flush();
    if (!out) {
        err << "error: writing the output to stdout failed: it is incomplete\n";
        return 2;
    }
    return code;
}

} // namespace dumpscope

#include "cli.h"

#include "cli_alignment.h"
#include "cli_floor.h"
#include "cli_multi.h"
#include "cli_options.h"
#include "cli_terminal.h"
#include "cli_text.h"
#include "cli_watch.h"
#include "dumpscope/analyze.h"
#include "dumpscope/demo.h"
#include "dumpscope/noise_floor.h"
#include "dumpscope/report.h"
#include "dumpscope/result_cache.h"
#include "dumpscope/scan.h"
#include "dumpscope/shape.h"
#include "dumpscope/version.h"
#include "reference_compat.h"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <filesystem>
#include <optional>
#include <ostream>
#include <sstream>
#include <string_view>

namespace dumpscope {

namespace {

// What the progress bar counts: both runs' bytes of every planned buffer, by buffer index, and a
// note for each pair whose lengths differ (read whole although only their common part compares).
struct PlannedReads {
    std::vector<std::uint64_t> bytes;
    std::vector<std::string> lengthNotes;
};

PlannedReads plannedReads(const std::string& runA, const std::string& runB,
                          const AnalyzeOptions& options) {
    PlannedReads planned;
    const Analysis listed = plan(runA, runB, options);
    for (const auto& b : listed.buffers) {
        std::uint64_t size[2] = {0, 0};
        bool present[2] = {false, false};
        for (int side = 0; side < 2; ++side) {
            // A regular file (symlinks followed), stat'ed whatever the length of its path; a
            // tensor inside a file is its own bytes, not the file's.
            const BufferSource source = side == 0 ? sourceA(listed, b) : sourceB(listed, b);
            // A fingerprint is not read: its path is the log, which holds every buffer.
            if (!source.present() || source.fingerprintOnly()) continue;
            const auto file = fileIdentity(source.path);
            present[side] = file.has_value();
            if (file)
                size[side] =
                    source.location
                        ? source.location->count *
                              dtypeSize(b.precision() ? b.precision()->typeOf(side == 0) : b.dtype)
                        : file->size;
        }
        planned.bytes.push_back(size[0] + size[1]);
        // Across precisions the bytes differ by design: the elements are what must agree.
        if (present[0] && present[1] && size[0] != size[1] && !b.precision())
            planned.lengthNotes.push_back(lengthMismatchNote(b.fileName, size[0], size[1]));
    }
    return planned;
}

// Compares with a progress bar on `err` when it is a terminal and the pair is large enough.
Analysis analyzeWithProgress(const std::string& runA, const std::string& runB,
                             const AnalyzeOptions& options, std::ostream& err) {
    if (!isTerminal(STDERR_FILENO)) return analyze(runA, runB, options);
    const auto planned = plannedReads(runA, runB, options);
    const auto& bytes = planned.bytes;
    std::uint64_t total = 0;
    for (auto n : bytes)
        total += n;
    if (total < kProgressMinBytes) return analyze(runA, runB, options);
    // A few lines are enough to explain a slow bar; the report lists every mismatch anyway.
    constexpr std::size_t kNotes = 3;
    for (std::size_t i = 0; i < planned.lengthNotes.size() && i < kNotes; ++i)
        err << "dumpscope-cli: " << planned.lengthNotes[i] << "\n";
    if (planned.lengthNotes.size() > kNotes)
        err << "dumpscope-cli: and " << planned.lengthNotes.size() - kNotes
            << " more pairs whose lengths differ, each read whole\n";
    ProgressBar bar(err, total, bytes.size());
    std::uint64_t doneBytes = 0;
    Analysis an =
        analyze(runA, runB, options,
                [&](std::size_t index, const BufferResult&, std::size_t done, std::size_t) {
                    doneBytes += index < bytes.size() ? bytes[index] : 0;
                    bar.update(done, doneBytes);
                    return true;
                });
    bar.finish();
    return an;
}

// The description of a numeric option in --help, with the range its value is checked against.
std::string ranged(std::string description, std::string_view words) {
    return description + "; " + std::string(words);
}

// Everything runCli does but the last-resort catch and the check that stdout took the output.
int run(int argc, char** argv, std::ostream& out, std::ostream& err) {
    CLI::App app{
        "dumpscope-cli: compare two runs' buffer dumps (RUN_DIR/step_<N>_<group>_<name>.bin) "
        "bit for bit, name the first divergent step, group and buffer, and print the "
        "reference decision tree's verdict.\n\nExit codes: 0 all equal, 1 divergence, "
        "2 missing input or a buffer that could not be compared.",
        "dumpscope-cli"};
    // Every option appears in an example here (tests/cli/test_cli_terminal.cpp checks it).
    app.footer(
        "On a terminal, a pair of 64 MiB or more shows a progress bar on stderr.\n\n"
        "Examples:\n"
        "  dumpscope-cli runs/a runs/b                      per-buffer lines, then the verdict\n"
        "  dumpscope-cli runs/a runs/b --quiet --report triage.html   verdict only; HTML report "
        "(.md, .json)\n"
        "  dumpscope-cli runs/a runs/b --json | jq .root_cause\n"
        "  dumpscope-cli runs/a runs/b --schema mine.json --steps 0-3,7\n"
        "  dumpscope-cli runs/a runs/b --atol 1e-6 --rtol 1e-5 --ulp 4 --verdict-tolerance\n"
        "  dumpscope-cli runs/a runs/b --rounding-threshold 1e-5 --shape q_logits=batch,8\n"
        "  dumpscope-cli runs/a runs/b --strict             exit 2 on one-sided or unclassified "
        "files\n"
        "  dumpscope-cli runs/a runs/b --color always | less -R\n"
        "  dumpscope-cli runs/a runs/b --watch --until-step 100 --settle 2   a line per step as it "
        "lands\n"
        "  dumpscope-cli runs/a runs/b --floor runs/a2 runs/a3   read over the noise floor of two "
        "reruns\n"
        "  dumpscope-cli torch/a torch/b   rank*/step_*.pt, safetensors, .npz, .npy: no schema "
        "needed\n"
        "  dumpscope-cli torch/a torch/b --group-depth 3   group layers.0.mlp.* as layers.0.mlp\n"
        "  dumpscope-cli runs/a runs/b --layout 'rank{rank}/iter_{step}/{name}.pt'   another "
        "layout\n"
        "  dumpscope-cli torch/a torch/b --align auto --map renames.txt   pair renamed tensors\n"
        "  dumpscope-cli runs/tp2 runs/tp1 --shard 'mlp\\.w:1'   join each rank's shard of mlp.w "
        "along axis 1\n"
        "  dumpscope-cli runs/tp2 runs/tp1 --replicated 'ln\\.weight'   name a rank whose "
        "ln.weight is not its peers'\n"
        "  dumpscope-cli runs/a runs/b --reference-compat   drop-in for compare-backward-state.py\n"
        "  dumpscope-cli --make-demo /tmp/demo && dumpscope-cli /tmp/demo/a /tmp/demo/b\n"
        "  dumpscope-cli --version\n"
        "  dumpscope-cli --help");
    std::string runA, runB, report, schemaFile, steps, demoDir;
    bool json = false, quiet = false, strict = false, compat = false, showVersion = false;
    app.add_option("RUN_A", runA, "run A's dump directory");
    app.add_option("RUN_B", runB, "run B's dump directory");
    std::vector<std::string> moreRuns;
    app.add_option(
        "MORE_RUNS", moreRuns,
        "further candidates: RUN_A is then the base, compared with RUN_B and each of these "
        "(one section per candidate, then a summary ranked by first divergent step)");
    std::vector<std::string> floorRuns;
    app.add_option("--floor", floorRuns,
                   "reruns of RUN_A's build: buffers that differ by no more than their run-to-run "
                   "noise are within_floor, and the verdict and root cause are the divergences "
                   "beyond it (several runs: every candidate is read against these reruns)")
        ->option_text("RERUN…");
    app.add_flag("--json", json,
                 "write the whole report as JSON to stdout (nothing else on stdout)");
    app.add_option("--report", report,
                   "also write the verdict report to FILE: .json, .md or .html by extension")
        ->option_text("FILE");
    app.add_option("--schema", schemaFile,
                   "groups, buffers and dataflow from a JSON schema file "
                   "(default: the reference's groups G..K)")
        ->option_text("FILE");
    std::string layout;
    app.add_option("--layout", layout,
                   "where the runs' files are, as a pattern relative to each run with {rank}, "
                   "{step}, {group}, {file} and {name}, e.g. rank{rank}/iter_{step}/{name}.pt "
                   "(default: found by itself; see docs/reference/formats.md)")
        ->option_text("PATTERN");
    std::string groupDepthText;
    auto* groupDepthOption =
        app.add_option("--group-depth", groupDepthText,
                       ranged("group buffers read without a schema by this many components of "
                              "their dotted names (layers.0.mlp at 2: layers.0; default: the "
                              "shallowest depth giving 8 groups or more, at most 64)",
                              kGroupDepthRange.words))
            ->option_text("N");
    auto* stepsOption =
        app.add_option("--steps", steps,
                       "only these steps, e.g. 0-3,7 (default: every step found); at most " +
                           std::to_string(kMaxSelectedSteps) + " steps, each " +
                           std::string(kStepRange.words))
            ->option_text("LIST");
    std::string alignText, mapFile;
    auto* alignOption =
        app.add_option("--align", alignText,
                       "how buffers named differently in the two runs pair: names (default: "
                       "by name, after --map) or auto (what is left, by production order, type "
                       "and shape); every pairing is listed")
            ->option_text("HOW");
    app.add_option("--map", mapFile,
                   "pair run A's names with run B's by a JSON or two-column file of rules, e.g. "
                   "'^model\\.layers\\.(\\d+)\\.  layers.\\1.' (see docs/alignment.md)")
        ->option_text("FILE");
    app.add_flag("--strict", strict,
                 "exit 2 when a buffer is in one run only or a file is unclassified");
    app.add_flag("-q,--quiet", quiet, "print only the verdict, not one line per buffer");
    app.add_flag("--reference-compat", compat,
                 "behave byte for byte as compare-backward-state.py (value equality, steps 0-3)");
    // The numeric options are taken as text and parsed below (cli_options.h says why).
    std::string atolText, rtolText, ulpText, roundingText, untilText, settleText;
    bool verdictTolerance = false;
    auto* atolOption =
        app.add_option("--atol", atolText,
                       ranged("absolute tolerance: |A-B| <= atol + rtol*|B| is within_tolerance "
                              "(numpy's rule)",
                              kAtolRange.words))
            ->option_text("A");
    auto* rtolOption =
        app.add_option("--rtol", rtolText,
                       ranged("relative tolerance, as in numpy.allclose", kRtolRange.words))
            ->option_text("R");
    auto* ulpOption =
        app.add_option("--ulp", ulpText,
                       ranged("within_tolerance when at most N ULP apart (with --atol/--rtol: both "
                              "must hold)",
                              kUlpRange.words))
            ->option_text("N");
    app.add_flag("--verdict-tolerance", verdictTolerance,
                 "within_tolerance buffers do not count as divergent in the verdict (default: the "
                 "verdict is bitwise)");
    auto* roundingOption =
        app.add_option("--rounding-threshold", roundingText,
                       ranged("max|Δ| / max(|A|,|B|) at or below which a float32 buffer's "
                              "divergence is 'rounding' "
                              "(at least 2 epsilons for f16 and bf16, 1 for f8; default 1e-4)",
                              kRoundingThresholdRange.words))
            ->option_text("R");
    std::vector<std::string> shapeArgs;
    app.add_option("--shape", shapeArgs,
                   "give buffer NAME a shape, e.g. --shape q_logits=batch,8 or --shape x=64x32 "
                   "(repeatable; "
                   "'*' takes the rest; names from the schema's dims)")
        ->option_text("NAME=DIMS");
    std::vector<std::string> shardArgs;
    app.add_option("--shard", shardArgs,
                   "buffers whose whole name matches NAME_REGEX are split along AXIS across the "
                   "ranks: compare the joined shards, e.g. --shard 'layers\\.\\d+\\.mlp\\.w:1' "
                   "(repeatable)")
        ->option_text("NAME_REGEX:AXIS");
    std::vector<std::string> replicatedArgs;
    app.add_option("--replicated", replicatedArgs,
                   "buffers whose whole name matches NAME_REGEX are the same on every rank of a "
                   "run: a rank that holds one otherwise is a cross_rank divergence, e.g. "
                   "--replicated '.*norm\\.weight' (repeatable)")
        ->option_text("NAME_REGEX");
    auto* demoOption =
        app.add_option("--make-demo", demoDir, "write the demo pair DIR/a and DIR/b, then exit")
            ->option_text("DIR");
    std::string colorText = "auto";
    app.add_option(
           "--color", colorText,
           "colour the text output: diverging red, equal green, warnings yellow (default auto: "
           "when the output is a terminal, NO_COLOR is unset and TERM is not dumb)")
        ->check(CLI::IsMember({"auto", "always", "never"}))
        ->option_text("WHEN");
    bool watch = false;
    auto* watchFlag =
        app.add_flag("--watch", watch,
                     "follow runs that are still dumping: one line per step as it completes, then "
                     "the verdict over those steps on Ctrl+C / SIGTERM or at --until-step");
    auto* untilOption =
        app.add_option("--until-step", untilText,
                       ranged("with --watch: stop once step N is reported", kStepRange.words))
            ->option_text("N")
            ->needs(watchFlag);
    auto* settleOption =
        app.add_option("--settle", settleText,
                       ranged("with --watch: the settle interval: a run that has not moved on "
                              "from a step is done with it once the step's files there have not "
                              "changed for this long (default 1)",
                              kSettleRange.words))
            ->option_text("SECONDS")
            ->needs(watchFlag);
    app.add_flag("-V,--version", showVersion, "print the version and exit");

    // CLI11's messages quote the arguments as typed, newlines and escape sequences included.
    app.failure_message([](const CLI::App*, const CLI::Error& e) {
        return "error: " + shown(e.what()) + " (see --help)\n";
    });
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
    try {
        if (atolOption->count())
            options.tolerance.atol = parseRealOption("--atol", atolText, kAtolRange);
        if (rtolOption->count())
            options.tolerance.rtol = parseRealOption("--rtol", rtolText, kRtolRange);
        if (ulpOption->count())
            options.tolerance.ulp = parseCountOption("--ulp", ulpText, kUlpRange);
        if (roundingOption->count())
            options.roundingThreshold =
                parseRealOption("--rounding-threshold", roundingText, kRoundingThresholdRange);
        if (untilOption->count())
            untilStep = parseCountOption("--until-step", untilText, kStepRange);
        if (settleOption->count()) settle = parseRealOption("--settle", settleText, kSettleRange);
        if (stepsOption->count()) options.steps = parseStepsOption(steps);
        if (alignOption->count()) options.align = parseAlignOption(alignText);
        if (groupDepthOption->count())
            options.groupDepth =
                parseCountOption("--group-depth", groupDepthText, kGroupDepthRange);
    } catch (const OptionError& e) {
        err << "error: " << e.what() << "\n";
        return 2;
    }
    if (showVersion) {
        out << "dumpscope-cli " << version() << "\n";
        return 0;
    }
    if (demoOption->count()) {
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
    if (runA.empty() || runB.empty()) {
        err << "error: RUN_A and RUN_B are required (see --help)\n";
        return 2;
    }
    if (compat && !floorRuns.empty()) {
        err << "error: --reference-compat reproduces the reference script, which has no noise "
               "floor: not with --floor\n";
        return 2;
    }
    if (watch && !floorRuns.empty()) {
        err << "error: --watch compares the pair as it lands: not with --floor\n";
        return 2;
    }
    if (compat && !layout.empty()) {
        err << "error: --reference-compat reads the reference's own layout only; leave out "
               "--layout\n";
        return 2;
    }
    if (compat && !moreRuns.empty()) {
        err << "error: --reference-compat compares two runs only\n";
        return 2;
    }
    if (watch && (json || compat || !moreRuns.empty())) {
        err << "error: --watch prints a line per step as it lands: not with --json, "
               "--reference-compat "
               "or more than two runs\n";
        return 2;
    }
    if (compat) {
        std::vector<std::string> given;
        for (const CLI::Option* option : app.get_options())
            if (option->count() > 0 && option->nonpositional() &&
                option->get_name() != "--reference-compat")
                given.push_back(option->get_name());
        if (const std::string why = referenceCompatRefusal(given); !why.empty()) {
            err << "error: " << why << "\n";
            return 2;
        }
        return runReferenceCompat(runA, runB, out, err);
    }
    const bool aligned = options.align != AlignMode::names || !mapFile.empty();
    if (aligned && !floorRuns.empty()) {
        err << "error: --align auto and --map pair differently named buffers: not with --floor, "
               "whose reruns of run A's build pair by name\n";
        return 2;
    }

    options.verdictTolerance = verdictTolerance;
    for (const auto& arg : shardArgs) {
        std::string why;
        const auto rule = parseShardRule(arg, why);
        if (!rule) {
            err << "error: --shard " << shown(why) << "\n";
            return 2;
        }
        options.shards.push_back(*rule);
    }
    for (const auto& arg : replicatedArgs) {
        std::string why;
        const auto rule = parseReplicatedRule(arg, why);
        if (!rule) {
            err << "error: --replicated " << shown(why) << "\n";
            return 2;
        }
        options.replicated.push_back(*rule);
    }
    for (const auto& arg : shapeArgs) {
        const auto eq = arg.find('=');
        auto dims = eq == std::string::npos ? std::vector<std::string>{}
                                            : parseShapeText(arg.substr(eq + 1));
        if (eq == 0 || dims.empty()) {
            err << "error: --shape " << shown(arg)
                << ": expected NAME=DIMS, e.g. q_logits=batch,8\n";
            return 2;
        }
        options.shapes[arg.substr(0, eq)] = dims;
    }
    if (verdictTolerance && !options.tolerance.any()) {
        err << "error: --verdict-tolerance needs --atol, --rtol or --ulp\n";
        return 2;
    }
    if (!layout.empty()) {
        if (const std::string why = layoutPatternError(layout); !why.empty()) {
            err << "error: --layout " << shown(layout) << ": " << why << "\n";
            return 2;
        }
        options.layout = layout;
    }
    try {
        if (!schemaFile.empty())
            options.schema = std::make_shared<const Schema>(loadSchemaFile(schemaFile));
    } catch (const SchemaError& e) {
        err << "error: schema refused: " << shown(e.what()) << "\n";
        return 2;
    }
    try {
        if (!mapFile.empty())
            options.nameMap = std::make_shared<const NameMap>(loadNameMapFile(mapFile));
    } catch (const NameMapError& e) {
        err << "error: --map refused: " << shown(e.what()) << "\n";
        return 2;
    }

    if (!moreRuns.empty()) {
        moreRuns.insert(moreRuns.begin(), runB);
        return runMultiCli({runA, moreRuns, options, json, quiet, strict, report, floorRuns}, out,
                           err);
    }

    const ColorMode colorMode = colorText == "always"  ? ColorMode::always
                                : colorText == "never" ? ColorMode::never
                                                       : ColorMode::automatic;
    const bool colorOut = colorEnabled(colorMode, STDOUT_FILENO);
    const bool colorErr = colorEnabled(colorMode, STDERR_FILENO);
    const std::string warning = paint("warning:", Paint::yellow, colorErr);
    const std::string error = paint("error:", Paint::red, colorErr);
    if (watch) {
        WatchRequest request;
        request.runA = runA;
        request.runB = runB;
        request.options = options;
        request.untilStep = untilStep;
        request.settleSeconds = settle;
        request.strict = strict;
        request.report = report;
        request.colorOut = colorOut;
        request.colorErr = colorErr;
        return runWatch(request, out, err);
    }

    std::vector<Analysis> floorPairs;
    if (!floorRuns.empty() && !analyzeFloorRuns(runA, floorRuns, options, err, floorPairs))
        return 2;
    Analysis an = analyzeWithProgress(runA, runB, options, err);
    if (!floorRuns.empty()) {
        std::vector<const Analysis*> reruns;
        for (const auto& p : floorPairs)
            reruns.push_back(&p);
        applyNoiseFloor(an, std::make_shared<const NoiseFloor>(buildNoiseFloor(reruns)));
    }
    writeProblems(an, err, warning, error);
    const int code = strict ? strictExitCode(an, err, error) : an.verdict.exitCode;
    an.verdict.exitCode = code; // the JSON and reports say what the process returns

    if (json) {
        out << reportJson(an) << "\n";
    } else {
        writeAlignmentText(an, quiet, out);
        writeTextReport(an, quiet, out, colorOut);
    }

    if (!report.empty()) {
        try {
            writeReport(an, report);
        } catch (const std::exception& e) {
            err << error << " " << shown(e.what()) << "\n";
            return 2;
        }
    }
    return code;
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

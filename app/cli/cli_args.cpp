#include "cli_args.h"

#include "cli_options.h"
#include "cli_terminal.h"

#include <CLI/CLI.hpp>

#include <string>
#include <string_view>

namespace dumpscope {

namespace {

// The description of a numeric option in --help, with the range its value is checked against.
std::string ranged(std::string description, std::string_view words) {
    return description + "; " + std::string(words);
}

} // namespace

void declareCliOptions(CLI::App& app, CliArgs& args) {
    app.description(
        "dumpscope-cli: compare two runs' buffer dumps (RUN_DIR/step_<N>_<group>_<name>.bin) "
        "bit for bit, name the first divergent step, group and buffer, and print the "
        "reference decision tree's verdict.\n\nExit codes: 0 all equal, 1 divergence, "
        "2 missing input or a buffer that could not be compared.");
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
    app.add_option("RUN_A", args.runA, "run A's dump directory");
    app.add_option("RUN_B", args.runB, "run B's dump directory");
    app.add_option(
        "MORE_RUNS", args.moreRuns,
        "further candidates: RUN_A is then the base, compared with RUN_B and each of these "
        "(one section per candidate, then a summary ranked by first divergent step)");
    app.add_option("--floor", args.floorRuns,
                   "reruns of RUN_A's build: buffers that differ by no more than their run-to-run "
                   "noise are within_floor, and the verdict and root cause are the divergences "
                   "beyond it (several runs: every candidate is read against these reruns)")
        ->option_text("RERUN…");
    app.add_flag("--json", args.json,
                 "write the whole report as JSON to stdout (nothing else on stdout)");
    app.add_option("--report", args.report,
                   "also write the verdict report to FILE: .json, .md or .html by extension")
        ->option_text("FILE");
    app.add_option("--schema", args.schemaFile,
                   "groups, buffers and dataflow from a JSON schema file "
                   "(default: the reference's groups G..K)")
        ->option_text("FILE");
    app.add_option("--layout", args.layout,
                   "where the runs' files are, as a pattern relative to each run with {rank}, "
                   "{step}, {group}, {file} and {name}, e.g. rank{rank}/iter_{step}/{name}.pt "
                   "(default: found by itself; see docs/reference/formats.md)")
        ->option_text("PATTERN");
    args.groupDepthOption =
        app.add_option("--group-depth", args.groupDepthText,
                       ranged("group buffers read without a schema by this many components of "
                              "their dotted names (layers.0.mlp at 2: layers.0; default: the "
                              "shallowest depth giving 8 groups or more, at most 64)",
                              kGroupDepthRange.words))
            ->option_text("N");
    args.stepsOption =
        app.add_option("--steps", args.steps,
                       "only these steps, e.g. 0-3,7 (default: every step found); at most " +
                           std::to_string(kMaxSelectedSteps) + " steps, each " +
                           std::string(kStepRange.words))
            ->option_text("LIST");
    args.alignOption =
        app.add_option("--align", args.alignText,
                       "how buffers named differently in the two runs pair: names (default: "
                       "by name, after --map) or auto (what is left, by production order, type "
                       "and shape); every pairing is listed")
            ->option_text("HOW");
    app.add_option("--map", args.mapFile,
                   "pair run A's names with run B's by a JSON or two-column file of rules, e.g. "
                   "'^model\\.layers\\.(\\d+)\\.  layers.\\1.' (see docs/alignment.md)")
        ->option_text("FILE");
    app.add_flag("--strict", args.strict,
                 "exit 2 when a buffer is in one run only or a file is unclassified");
    app.add_flag("-q,--quiet", args.quiet, "print only the verdict, not one line per buffer");
    app.add_flag("--reference-compat", args.compat,
                 "behave byte for byte as compare-backward-state.py (value equality, steps 0-3)");
    args.atolOption =
        app.add_option("--atol", args.atolText,
                       ranged("absolute tolerance: |A-B| <= atol + rtol*|B| is within_tolerance "
                              "(numpy's rule)",
                              kAtolRange.words))
            ->option_text("A");
    args.rtolOption =
        app.add_option("--rtol", args.rtolText,
                       ranged("relative tolerance, as in numpy.allclose", kRtolRange.words))
            ->option_text("R");
    args.ulpOption =
        app.add_option("--ulp", args.ulpText,
                       ranged("within_tolerance when at most N ULP apart (with --atol/--rtol: both "
                              "must hold)",
                              kUlpRange.words))
            ->option_text("N");
    app.add_flag("--verdict-tolerance", args.verdictTolerance,
                 "within_tolerance buffers do not count as divergent in the verdict (default: the "
                 "verdict is bitwise)");
    args.roundingOption =
        app.add_option("--rounding-threshold", args.roundingText,
                       ranged("max|Δ| / max(|A|,|B|) at or below which a float32 buffer's "
                              "divergence is 'rounding' "
                              "(at least 2 epsilons for f16 and bf16, 1 for f8; default 1e-4)",
                              kRoundingThresholdRange.words))
            ->option_text("R");
    app.add_option("--shape", args.shapeArgs,
                   "give buffer NAME a shape, e.g. --shape q_logits=batch,8 or --shape x=64x32 "
                   "(repeatable; "
                   "'*' takes the rest; names from the schema's dims)")
        ->option_text("NAME=DIMS");
    app.add_option("--shard", args.shardArgs,
                   "buffers whose whole name matches NAME_REGEX are split along AXIS across the "
                   "ranks: compare the joined shards, e.g. --shard 'layers\\.\\d+\\.mlp\\.w:1' "
                   "(repeatable)")
        ->option_text("NAME_REGEX:AXIS");
    app.add_option("--replicated", args.replicatedArgs,
                   "buffers whose whole name matches NAME_REGEX are the same on every rank of a "
                   "run: a rank that holds one otherwise is a cross_rank divergence, e.g. "
                   "--replicated '.*norm\\.weight' (repeatable)")
        ->option_text("NAME_REGEX");
    args.demoOption = app.add_option("--make-demo", args.demoDir,
                                     "write the demo pair DIR/a and DIR/b, then exit")
                          ->option_text("DIR");
    app.add_option(
           "--color", args.colorText,
           "colour the text output: diverging red, equal green, warnings yellow (default auto: "
           "when the output is a terminal, NO_COLOR is unset and TERM is not dumb)")
        ->check(CLI::IsMember({"auto", "always", "never"}))
        ->option_text("WHEN");
    auto* watchFlag =
        app.add_flag("--watch", args.watch,
                     "follow runs that are still dumping: one line per step as it completes, then "
                     "the verdict over those steps on Ctrl+C / SIGTERM or at --until-step");
    args.untilOption =
        app.add_option("--until-step", args.untilText,
                       ranged("with --watch: stop once step N is reported", kStepRange.words))
            ->option_text("N")
            ->needs(watchFlag);
    args.settleOption =
        app.add_option("--settle", args.settleText,
                       ranged("with --watch: the settle interval: a run that has not moved on "
                              "from a step is done with it once the step's files there have not "
                              "changed for this long (default 1)",
                              kSettleRange.words))
            ->option_text("SECONDS")
            ->needs(watchFlag);
    app.add_flag("-V,--version", args.showVersion, "print the version and exit");

    // CLI11's messages quote the arguments as typed, newlines and escape sequences included.
    app.failure_message([](const CLI::App*, const CLI::Error& e) {
        return "error: " + shown(e.what()) + " (see --help)\n";
    });
}

} // namespace dumpscope

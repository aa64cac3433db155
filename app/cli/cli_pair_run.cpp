#include "cli_pair_run.h"

#include "cli_alignment.h"
#include "cli_floor.h"
#include "cli_multi.h"
#include "cli_progress.h"
#include "cli_terminal.h"
#include "cli_text.h"
#include "dumpscope/noise_floor.h"
#include "dumpscope/report.h"

#include <memory>
#include <ostream>

namespace dumpscope {

int runPairCli(const PairCliRequest& request, std::ostream& out, std::ostream& err) {
    const std::string warning = paint("warning:", Paint::yellow, request.colorErr);
    const std::string error = paint("error:", Paint::red, request.colorErr);
    std::vector<Analysis> floorPairs;
    if (!request.floorRuns.empty() &&
        !analyzeFloorRuns(request.runA, request.floorRuns, request.options, err, floorPairs))
        return 2;
    Analysis an = analyzeWithProgress(request.runA, request.runB, request.options, err);
    if (!request.floorRuns.empty()) {
        std::vector<const Analysis*> reruns;
        for (const auto& p : floorPairs)
            reruns.push_back(&p);
        applyNoiseFloor(an, std::make_shared<const NoiseFloor>(buildNoiseFloor(reruns)));
    }
    writeProblems(an, err, warning, error);
    const int code = request.strict ? strictExitCode(an, err, error) : an.verdict.exitCode;
    an.verdict.exitCode = code; // the JSON and reports say what the process returns

    if (request.json) {
        out << reportJson(an) << "\n";
    } else {
        writeAlignmentText(an, request.quiet, out);
        writeTextReport(an, request.quiet, out, request.colorOut);
    }

    if (!request.report.empty()) {
        try {
            writeReport(an, request.report);
        } catch (const std::exception& e) {
            err << error << " " << shown(e.what()) << "\n";
            return 2;
        }
    }
    return code;
}

} // namespace dumpscope

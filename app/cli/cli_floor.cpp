#include "cli_floor.h"

#include "cli_multi.h"
#include "cli_terminal.h"

#include <ostream>

namespace dumpscope {

bool analyzeFloorRuns(const std::string& base, const std::vector<std::string>& reruns,
                      const AnalyzeOptions& options, std::ostream& err,
                      std::vector<Analysis>& pairs) {
    for (const auto& run : reruns) {
        pairs.push_back(analyze(base, run, options));
        const Analysis& an = pairs.back();
        const std::string label = "--floor " + shown(run) + ": ";
        if (!an.errorA.empty() || !an.errorB.empty()) {
            err << "error: " << label << shown(an.errorB.empty() ? an.errorA : an.errorB)
                << " (a rerun of the base's build is needed for the noise floor)\n";
            return false;
        }
        writeProblems(an, err, label + "warning:", label + "error:");
    }
    return true;
}

} // namespace dumpscope

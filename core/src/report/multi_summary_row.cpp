#include "dumpscope/multi_report.h"

namespace dumpscope {

namespace {

std::string joined(const std::vector<std::string>& list, const char* sep = ", ") {
    std::string out;
    for (const auto& s : list)
        out += (out.empty() ? "" : sep) + s;
    return out;
}

} // namespace

std::array<std::string, kMultiSummaryColumns.size()> multiSummaryRow(const MultiRunSummary& summary,
                                                                     std::size_t k) {
    const CandidateSummary& c = summary.candidates[k];
    const std::string none = "—";
    std::string cause = none, kind = none;
    if (!c.rootCause.groups.empty())
        cause = joined(c.rootCause.groups, "+") + ": " + joined(c.rootCause.buffers);
    else if (!c.rootCause.undecidedGroups.empty()) // an input could not be judged: say which
        cause = "not determined (" + joined(c.rootCause.unjudgedInputs, "+") + " not judged)";
    if (!c.rootCause.kinds.empty()) kind = std::string(kindName(c.rootCause.kinds.front()));
    std::string step = c.firstDivergentStep ? std::to_string(*c.firstDivergentStep) : none;
    if (!c.error.empty()) step = "not compared";
    return {c.rank ? std::to_string(c.rank) : none,
            std::to_string(k + 1) + ": " + c.run.string(),
            step,
            c.divergedGroups.empty() ? none : joined(c.divergedGroups),
            cause,
            kind,
            std::to_string(c.divergentCells),
            std::to_string(c.divergentBuffers),
            std::to_string(c.exitCode)};
}

std::string noiseFloorIntro(const MultiRunSummary& summary) {
    if (!summary.floorReruns.empty()) {
        std::string runs;
        for (const auto& r : summary.floorReruns)
            runs += (runs.empty() ? "" : ", ") + r.string();
        return "the noise floor is the envelope of " + std::to_string(summary.floorReruns.size()) +
               " rerun(s) of the base's build (" + runs + ")";
    }
    return "the noise floor is candidate 1 (" + summary.candidates.front().run.string() +
           "), taken as a rerun of the base's build";
}

} // namespace dumpscope

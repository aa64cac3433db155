#pragma once

// dumpscope-cli BASE RUN1 RUN2 …: the base against each candidate, one section per pair, then
// the cross-candidate summary. Kept apart from cli.cpp, which calls it with the parsed options.

#include "dumpscope/analyze.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace dumpscope {

struct MultiCliRequest {
    std::string base;
    std::vector<std::string> candidates;
    AnalyzeOptions options;
    bool json = false;
    bool quiet = false;
    bool strict = false;
    std::string report; // "" for none
    // --floor: reruns of the base's build read as the noise floor; none: the first candidate.
    std::vector<std::string> floorRuns;
};

// Returns the exit code: 0 every candidate equal to the base, 1 any diverges, 2 any error.
int runMultiCli(const MultiCliRequest& request, std::ostream& out, std::ostream& err);

// The analysis' warnings, run errors and buffer errors on `err`, one a line, each after its
// label ("warning:", "error:", possibly coloured or naming the candidate).
void writeProblems(const Analysis& an, std::ostream& err, const std::string& warningLabel,
                   const std::string& errorLabel);
// --strict: 2 (said on `err` after `errorLabel`) when a buffer is in one run only or a file is
// unclassified, else the verdict's exit code.
int strictExitCode(const Analysis& an, std::ostream& err, const std::string& errorLabel);

} // namespace dumpscope

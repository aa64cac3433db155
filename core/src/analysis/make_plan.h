#pragma once

// The plan of a pair: both runs listed, their buffers paired and put in the matrix's order, each
// with what it is to be compared as. Nothing is compared here; analyzePlanned does that.

#include "dumpscope/analyze.h"

#include "analysis/pair_identity.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>

namespace dumpscope::detail {

// Every (step, rank, name) in either run, in step order: each name's files in run A and run B.
using ByStep = std::map<std::uint64_t, std::map<std::pair<std::uint64_t, std::string>, FilePair>>;

// The pair's analysis before any buffer is read: the runs' errors and warnings, the schema it
// reads with, the steps and one pending BufferResult per buffer (an error already where the plan
// knows it cannot be compared). When a run cannot be read, holds no dumps or does not pair with
// the other, that is its error and nothing is listed.
Analysis makePlan(const std::filesystem::path& runA, const std::filesystem::path& runB,
                  const AnalyzeOptions& options);

} // namespace dumpscope::detail

#pragma once

// Production order: the place of each buffer of a run in the order it was produced, within its
// step and rank, and what that order was read from.
#include "dumpscope/result.h"
#include "dumpscope/scan.h"

#include <cstdint>
#include <map>
#include <utility>

namespace dumpscope::detail {

// What each (step, rank) of a run was ordered by.
using OrderSources = std::map<std::pair<std::uint64_t, std::uint64_t>, OrderSource>;

// Renumbers DumpFile::order of every file of `scan` in production order, per step and rank:
// the capture log's order when the log has every buffer there (the log's reader numbered
// them); else, when some file holds several buffers, the keys' order inside the files (files in
// name order), as the scan numbered them; else, one file per buffer, the files' modification
// times when they are all distinct, else the buffers' names. Returns what each step and rank
// went by.
OrderSources assignProductionOrder(RunScan& scan);

} // namespace dumpscope::detail

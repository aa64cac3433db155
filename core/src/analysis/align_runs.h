#pragma once
// Pairs two runs' buffers whose names differ, before the plan pairs them by name: run B's
// paired buffers are renamed to run A's names in its scan, so that the plan, the groups, the
// production order and the root cause all go by run A's names.
#include "dumpscope/name_alignment.h"
#include "dumpscope/scan.h"

#include <memory>
#include <string>

namespace dumpscope::detail {

struct AlignedRuns {
    std::shared_ptr<const NameAlignment> alignment; // null when names pair by name alone
    std::string error;                              // the map cannot pair the runs: why
};

// Pairs by `map` (when not null), then, in AlignMode::automatic, what is still unpaired at each
// step and rank by production order (DumpFile::order), type and shape. Only tensors of
// self-describing files and captured buffers are paired under another name: a raw dump's file
// is its name. Renames run B's paired buffers (keys, DumpFile::rest) to run A's names, and the
// names in both runs' recorded inputs to the names the buffers are reported under.
AlignedRuns alignRuns(RunScan& a, RunScan& b, AlignMode mode, const NameMap* map);

} // namespace dumpscope::detail

#pragma once

// From dumpscope-cli's arguments as typed (cli_args.h) to the analysis options, each value
// checked: a value refused is one message on `err` and exit 2, never a guess.

#include "cli_args.h"
#include "dumpscope/analyze.h"

#include <cstdint>
#include <iosfwd>
#include <optional>

namespace dumpscope {

// The numeric options, --steps and --align, parsed and checked against their ranges
// (cli_options.h), into `options` and --watch's `untilStep` and `settle`; an option not given
// leaves its value as it was. False after the message on `err`. Read before --version and
// --make-demo are acted on: a value refused is refused with them too.
bool readNumericOptions(const CliArgs& args, AnalyzeOptions& options,
                        std::optional<std::uint64_t>& untilStep, double& settle, std::ostream& err);

// The rest of `options`: --verdict-tolerance (which needs a tolerance), the --shard,
// --replicated and --shape rules, --layout, and the --schema and --map files loaded. False after
// the message on `err`.
bool readAnalyzeOptions(const CliArgs& args, AnalyzeOptions& options, std::ostream& err);

} // namespace dumpscope

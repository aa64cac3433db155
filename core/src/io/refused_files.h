#pragma once
// A file refused whole in one run is listed as one error buffer named after the file, while the
// other run's copy of the file may list its tensors under their own names. Paired by name, they
// would read as "only in A" and "only in B"; they are instead the same buffers, unreadable in
// one run. spreadRefusals gives the refusing run an error buffer for each tensor the other run
// lists from that file, and drops the placeholder that no buffer of the other run matches.
#include "dumpscope/scan.h"

namespace dumpscope::detail {

void spreadRefusals(RunScan& refusing, const RunScan& other);

} // namespace dumpscope::detail

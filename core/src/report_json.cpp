#include "dumpscope/report.h"

namespace dumpscope {

// Link stub so the CLI can call it while the writer is implemented.
std::string reportJson(const Analysis&) { return {}; }

} // namespace dumpscope

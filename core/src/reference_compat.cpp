// Reference-compatible mode: reproduces compare-backward-state.py byte for byte.
// Stub so that the CLI links; the real implementation follows.
#include "dumpscope/reference_compat.h"

#include <ostream>

namespace dumpscope {

int runReferenceCompat(const std::string&, const std::string&, std::ostream&, std::ostream& err) {
    err << "--reference-compat: not implemented yet\n";
    return 2;
}

std::string pythonFloatRepr(double) { return {}; }
std::string pythonFormatG6(double) { return {}; }
std::string pythonPathStr(const std::string& arg) { return arg; }

} // namespace dumpscope

#include "dumpscope/version.h"

namespace dumpscope {
std::string_view version() {
    return DUMPSCOPE_VERSION;
}
} // namespace dumpscope

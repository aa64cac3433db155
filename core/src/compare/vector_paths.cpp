// Which path the compare takes: whether the CPU runs AVX2 and whether the vector paths may run
// (a test can switch them off through the hooks in dense_f32.h).
#include "compare/dense_f32.h"

namespace dumpscope::detail {

bool cpuHasAvx2() {
#if DUMPSCOPE_HAVE_AVX2
    static const bool has = __builtin_cpu_supports("avx2");
    return has;
#else
    return false;
#endif
}

bool vectorPathsEnabled() {
    if (hooks::vectorPathsAllowed && !hooks::vectorPathsAllowed()) return false;
    return cpuHasAvx2(); // false where the compiler cannot build AVX2
}

} // namespace dumpscope::detail

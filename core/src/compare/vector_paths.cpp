// Whether the CPU runs AVX2 (dense_f32.h's vectorPathsEnabled() adds the tests' switch).
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

} // namespace dumpscope::detail

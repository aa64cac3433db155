#!/usr/bin/env bash
# The core's test hooks (the weak declarations in core/src/compare/dense_f32.h,
# core/src/formats/inflate_stream.h, core/src/analysis/lookup_count.h, count_plans.h and
# core/src/io/identity_stat_count.h) are defined in the
# core's tests alone: the binaries a user installs reference them weakly or not at all, so the
# hooks are null there, and the core's tests define every one of them.
#   check_test_hooks.sh CORE_TESTS BINARY...
set -euo pipefail
tests=${1:?usage: check_test_hooks.sh CORE_TESTS BINARY...}
shift
fail() { echo "FAILED: $*" >&2; exit 1; }
command -v nm >/dev/null || fail "nm not found (binutils, which g++ brings)"
hooks=(vectorPathsAllowed countDenseBlock countSingleBlock countThresholdBlock countInflatedBytes
    countNameLookups countPlan countIdentityStat)

# One line per hook symbol: "TYPE NAME", demangled (a name may hold spaces: "(unsigned long)").
symbols() { nm -C "$1" | sed -n 's/^.* \([A-Za-z]\) \(dumpscope::detail::hooks::.*\)$/\1 \2/p'; }

for binary in "$@"; do
    [ -x "$binary" ] || fail "$binary is not an executable"
    defined=$(symbols "$binary" | awk '$1 !~ /^[wU]$/')
    [ -z "$defined" ] || fail "$binary defines test hooks: $defined"
    echo "ok: $(basename "$binary") has no test hook"
done
for hook in "${hooks[@]}"; do
    symbols "$tests" | grep -Eq "^[TtWw] dumpscope::detail::hooks::$hook\(" ||
        fail "$tests does not define hooks::$hook"
done
echo "ok: $(basename "$tests") defines every test hook"

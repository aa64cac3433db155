#!/usr/bin/env bash
# The core's test hooks (DUMPSCOPE_TEST_HOOKS, core/src/compare/dense_f32.h) are compiled in
# exactly when the tests are built: a configure with the tests defines DUMPSCOPE_TEST_HOOKS for
# the core, and the same tree reconfigured as bench/run.sh configures its Release build
# (-DDUMPSCOPE_TESTS=OFF) no longer does, so no stale cache entry keeps them there.
#   check_test_hooks.sh SOURCE_DIR
set -euo pipefail
src=${1:?usage: check_test_hooks.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*" >&2; exit 1; }

configure() { # ARGS...: (re)configure $work/tree without the window, output in $work/log
    cmake -S "$src" -B "$work/tree" -G Ninja -DDUMPSCOPE_GUI=OFF "$@" >"$work/log" 2>&1 ||
        { cat "$work/log" >&2; fail "the configure with $* failed"; }
}
# Whether an object of dumpscope_core is compiled with DUMPSCOPE_TEST_HOOKS: the DEFINES line
# that follows each of its build statements in build.ninja.
core_has_hooks() {
    grep -A3 '^build core/CMakeFiles/dumpscope_core.dir/src/compare/dense_f32.cpp.o:' \
        "$work/tree/build.ninja" | grep -q -- '-DDUMPSCOPE_TEST_HOOKS=1'
}

configure -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDUMPSCOPE_TESTS=ON -DDUMPSCOPE_BENCH=OFF
grep -q '^build core/CMakeFiles/dumpscope_core.dir/src/compare/dense_f32.cpp.o:' \
    "$work/tree/build.ninja" || fail "no build statement for dense_f32.cpp in build.ninja"
core_has_hooks || fail "with the tests the core is compiled without DUMPSCOPE_TEST_HOOKS"
echo "ok: with the tests the core has its test hooks"

configure -DCMAKE_BUILD_TYPE=Release -DDUMPSCOPE_TESTS=OFF -DDUMPSCOPE_BENCH=ON
if core_has_hooks; then fail "without the tests the core is still compiled with DUMPSCOPE_TEST_HOOKS"; fi
echo "ok: reconfigured without the tests (bench/run.sh's Release build), the core has none"

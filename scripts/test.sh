#!/usr/bin/env bash
# README command 2: set up, build, and run every test (GUI tests run offscreen).
#   scripts/test.sh              the whole suite
#   scripts/test.sh --sanitize   the same, built with ASan + UBSan in build-sanitize/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
build_dir=${BUILD_DIR:-$root/build}
cmake_args=()
if [ "${1:-}" = "--sanitize" ]; then
    build_dir=${BUILD_DIR:-$root/build-sanitize}
    cmake_args+=(-DDUMPSCOPE_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DDUMPSCOPE_BENCH=OFF)
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
    shift
fi
# The tree stays formatted as .clang-format says: a file that is not fails before the build.
"$root/scripts/check_format.sh"
BUILD_DIR=$build_dir "$root/scripts/build.sh" "${cmake_args[@]}"
# A build that lost a part of the suite (no UI tests although the window is built, a test
# binary not built) fails here rather than passing on fewer tests.
"$root/scripts/check_suite.sh" "$build_dir"
export QT_QPA_PLATFORM=offscreen
cd "$build_dir"
ctest --output-on-failure -j "$(nproc)" "$@"

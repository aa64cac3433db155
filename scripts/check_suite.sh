#!/usr/bin/env bash
# Checks that a configured build's test suite holds every part it must: each label listed in
# BUILD_DIR/expected_test_labels.txt (written by tests/CMakeLists.txt: core, cli, install, and
# ui whenever the window is built) has at least one test, and no test binary that ctest expects
# is missing (gtest_discover_tests registers `<target>_NOT_BUILT` for those).
#   scripts/check_suite.sh BUILD_DIR
set -euo pipefail
build_dir=${1:?usage: check_suite.sh BUILD_DIR}
expected_file=$build_dir/expected_test_labels.txt
if [ ! -f "$expected_file" ]; then
    echo "check_suite: $expected_file is missing: the build was configured without tests" >&2
    exit 1
fi
listing=$(cd "$build_dir" && ctest -N)
failed=0
not_built=$(printf '%s\n' "$listing" | sed -n 's/^ *Test *#[0-9]*: *\(.*_NOT_BUILT\)$/\1/p')
if [ -n "$not_built" ]; then
    echo "check_suite: test binaries expected but not built: $(echo $not_built)" >&2
    failed=1
fi
while IFS= read -r label; do
    [ -n "$label" ] || continue
    count=$(cd "$build_dir" && ctest -N -L "^${label}\$" | sed -n 's/^Total Tests: *//p')
    if [ "${count:-0}" -eq 0 ]; then
        echo "check_suite: the build has no test labelled '$label': that part of the suite is missing" >&2
        failed=1
    else
        echo "check_suite: $label: $count tests" >&2
    fi
done <"$expected_file"
exit "$failed"

#!/usr/bin/env bash
# Drives scripts/check_suite.sh over fake ctest trees: a whole suite passes; a label with no
# test, a binary that was not built, or a tree configured without tests fails.
set -euo pipefail
check=${1:?usage: check_suite_test.sh CHECK_SUITE_SH}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A fake build tree: CTestTestfile.cmake with the given add_test lines, and the labels expected.
make_tree() {
    local dir=$1 labels=$2
    shift 2
    mkdir -p "$dir"
    printf '%b' "$labels" >"$dir/expected_test_labels.txt"
    : >"$dir/CTestTestfile.cmake"
    for line in "$@"; do
        printf '%s\n' "$line" >>"$dir/CTestTestfile.cmake"
    done
}
expect() {
    local want=$1 dir=$2 rc=0
    bash "$check" "$dir" >"$work/out" 2>&1 || rc=$?
    if { [ "$want" = pass ] && [ "$rc" -ne 0 ]; } || { [ "$want" = fail ] && [ "$rc" -eq 0 ]; }; then
        echo "FAILED: expected $want on $dir, exit $rc:" >&2
        cat "$work/out" >&2
        exit 1
    fi
    echo "ok: $want on $(basename "$dir")"
}

make_tree "$work/whole" 'core\nui\n' \
    'add_test(a true)' 'set_tests_properties(a PROPERTIES LABELS core)' \
    'add_test(b true)' 'set_tests_properties(b PROPERTIES LABELS ui)'
expect pass "$work/whole"

make_tree "$work/no_ui" 'core\nui\n' \
    'add_test(a true)' 'set_tests_properties(a PROPERTIES LABELS core)'
expect fail "$work/no_ui"
grep -q "no test labelled 'ui'" "$work/out" || { echo "FAILED: no_ui message" >&2; exit 1; }

make_tree "$work/not_built" 'core\n' \
    'add_test(a true)' 'set_tests_properties(a PROPERTIES LABELS core)' \
    'add_test(dumpscope_ui_tests_NOT_BUILT dumpscope_ui_tests_NOT_BUILT)'
expect fail "$work/not_built"
grep -q "expected but not built: dumpscope_ui_tests_NOT_BUILT" "$work/out" ||
    { echo "FAILED: not_built message" >&2; exit 1; }

mkdir -p "$work/unconfigured"
: >"$work/unconfigured/CTestTestfile.cmake"
expect fail "$work/unconfigured"
echo "check_suite catches every missing part"

#!/usr/bin/env bash
# scripts/launch_demo.sh on fake build trees: it starts the window binary with --demo; without
# one it prints the real CLI's report only when the build says DUMPSCOPE_GUI=OFF, and is an
# error (exit 2, saying why) otherwise.
#   check_launch_demo.sh LAUNCH_DEMO_SH DUMPSCOPE_CLI
set -euo pipefail
launch=${1:?usage: check_launch_demo.sh LAUNCH_DEMO_SH DUMPSCOPE_CLI}
cli=${2:?usage: check_launch_demo.sh LAUNCH_DEMO_SH DUMPSCOPE_CLI}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*" >&2; exit 1; }

tree() { # NAME GUI(ON|OFF): a build tree with a CMakeCache and the real CLI
    mkdir -p "$work/$1/app"
    echo "DUMPSCOPE_GUI:BOOL=$2" >"$work/$1/CMakeCache.txt"
    ln -s "$(realpath "$cli")" "$work/$1/app/dumpscope-cli"
}

tree window ON
printf '#!/bin/sh\necho "window $*"\n' >"$work/window/app/dumpscope"
chmod +x "$work/window/app/dumpscope"
out=$(bash "$launch" "$work/window" --schema x.json)
[ "$out" = "window --demo --schema x.json" ] || fail "the window was not started with --demo: $out"
echo "ok: the window binary is started on the demo"

tree lost_window ON
rc=0
bash "$launch" "$work/lost_window" >"$work/out" 2>"$work/err" || rc=$?
[ "$rc" -eq 2 ] || fail "a GUI build without its window exited $rc, not 2"
grep -q "was not built although the GUI is not switched off" "$work/err" ||
    fail "no reason given: $(cat "$work/err")"
[ ! -s "$work/out" ] || fail "it printed a report instead: $(cat "$work/out")"
echo "ok: a build that lost its window is an error, not the CLI's report"

tree cli_only OFF
rc=0
bash "$launch" "$work/cli_only" --quiet >"$work/out" 2>"$work/err" || rc=$?
[ "$rc" -eq 0 ] || fail "DUMPSCOPE_GUI=OFF: exit $rc: $(cat "$work/err")"
grep -q "the GUI is switched off" "$work/err" || fail "DUMPSCOPE_GUI=OFF: not said on stderr"
grep -q "^ROOT CAUSE by dataflow (step 1): group H" "$work/out" ||
    fail "DUMPSCOPE_GUI=OFF: no CLI report of the demo pair: $(cat "$work/out")"
echo "ok: DUMPSCOPE_GUI=OFF prints the CLI's report of the demo pair"

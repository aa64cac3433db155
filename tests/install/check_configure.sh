#!/usr/bin/env bash
# The default configure requires the window's Qt packages: with Qt6, or a dependency of Qt6Charts,
# hidden from find_package it must stop and name the Debian package to install and the way to
# build without the window; with -DDUMPSCOPE_GUI=OFF it must succeed without Qt.
#   check_configure.sh SOURCE_DIR
set -euo pipefail
src=${1:?usage: check_configure.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*" >&2; exit 1; }

configure() { # NAME ARGS...: configure into $work/NAME, output in $work/NAME.log, return cmake's status
    local name=$1
    shift
    cmake -S "$src" -B "$work/$name" -G Ninja -DDUMPSCOPE_TESTS=OFF -DDUMPSCOPE_BENCH=OFF "$@" \
        >"$work/$name.log" 2>&1
}
expect_in() { # NAME TEXT
    tr '\n' ' ' <"$work/$1.log" | tr -s ' ' | grep -qF -- "$2" ||
        { cat "$work/$1.log" >&2; fail "$1: the configure output does not say: $2"; }
}

if configure no_qt -DCMAKE_DISABLE_FIND_PACKAGE_Qt6=ON; then fail "no_qt: configured without Qt"; fi
expect_in no_qt "the CMake package Qt6 is missing"
expect_in no_qt "apt-get install qt6-base-dev"
expect_in no_qt "-DDUMPSCOPE_GUI=OFF"
echo "ok: without Qt6 the configure stops and says what to install"

# What a --no-install-recommends install of qt6-base-dev leaves out: Qt6Charts' dependency.
if configure no_opengl -DCMAKE_DISABLE_FIND_PACKAGE_Qt6OpenGL=ON; then
    fail "no_opengl: configured without Qt6OpenGL"
fi
expect_in no_opengl "the CMake package Qt6OpenGL is missing"
expect_in no_opengl "apt-get install libqt6opengl6-dev"
echo "ok: without Qt6OpenGL the configure names libqt6opengl6-dev"

configure cli_only -DDUMPSCOPE_GUI=OFF -DCMAKE_DISABLE_FIND_PACKAGE_Qt6=ON ||
    { cat "$work/cli_only.log" >&2; fail "cli_only: DUMPSCOPE_GUI=OFF did not configure without Qt"; }
expect_in cli_only "DUMPSCOPE_GUI=OFF: building the core, dumpscope-cli and their tests only"
grep -q 'dumpscope-cli' "$work/cli_only/build.ninja" || fail "cli_only: no dumpscope-cli target"
if grep -q 'app/dumpscope:' "$work/cli_only/build.ninja"; then fail "cli_only: a GUI target"; fi
echo "ok: DUMPSCOPE_GUI=OFF builds the core and the CLI without Qt"

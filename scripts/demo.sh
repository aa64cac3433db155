#!/usr/bin/env bash
# README command 1: set up, build, and start dumpscope on its built-in demo pair.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
build_dir=${BUILD_DIR:-$root/build}
if [ -x "$build_dir/app/dumpscope" ]; then
    exec "$build_dir/app/dumpscope" --demo "$@"
fi
# No GUI built (no Qt): the CLI's report of the demo pair.
demo=$(mktemp -d)
trap 'rm -rf "$demo"' EXIT
"$build_dir/app/dumpscope-cli" --make-demo "$demo"
"$build_dir/app/dumpscope-cli" "$demo/a" "$demo/b" "$@" || true

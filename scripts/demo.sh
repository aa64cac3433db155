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
# Only a build configured with -DDUMPSCOPE_GUI=OFF has no window; anything else is a broken build.
if ! grep -q '^DUMPSCOPE_GUI:BOOL=OFF$' "$build_dir/CMakeCache.txt" 2>/dev/null; then
    echo "demo.sh: $build_dir/app/dumpscope was not built although the GUI is not switched off;" \
        "see the configure output above" >&2
    exit 2
fi
echo "demo.sh: the GUI is switched off (DUMPSCOPE_GUI=OFF): the CLI's report of the demo pair" >&2
demo=$(mktemp -d)
trap 'rm -rf "$demo"' EXIT
"$build_dir/app/dumpscope-cli" --make-demo "$demo"
"$build_dir/app/dumpscope-cli" "$demo/a" "$demo/b" "$@" || true

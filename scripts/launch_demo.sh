#!/usr/bin/env bash
# Opens the window of a configured and built BUILD_DIR on the demo pair (what demo.sh does after
# setting up and building). Only a build configured with -DDUMPSCOPE_GUI=OFF has no window: it
# prints the CLI's report of the demo pair instead. Any other build without the window binary
# is broken, and says so rather than falling back.
#   scripts/launch_demo.sh BUILD_DIR [ARGS...]
set -euo pipefail
build_dir=${1:?usage: launch_demo.sh BUILD_DIR [ARGS...]}
shift
if [ -x "$build_dir/app/dumpscope" ]; then
    exec "$build_dir/app/dumpscope" --demo "$@"
fi
if ! grep -q '^DUMPSCOPE_GUI:BOOL=OFF$' "$build_dir/CMakeCache.txt" 2>/dev/null; then
    echo "demo.sh: $build_dir/app/dumpscope was not built although the GUI is not switched off" \
        "(DUMPSCOPE_GUI=OFF); see the configure and build output above" >&2
    exit 2
fi
echo "demo.sh: the GUI is switched off (DUMPSCOPE_GUI=OFF): the CLI's report of the demo pair" >&2
demo=$(mktemp -d)
trap 'rm -rf "$demo"' EXIT
"$build_dir/app/dumpscope-cli" --make-demo "$demo" >/dev/null
status=0
"$build_dir/app/dumpscope-cli" "$demo/a" "$demo/b" "$@" || status=$?
# The demo pair diverges by design: 1 is the expected answer, anything else a failure.
[ "$status" -le 1 ] || exit "$status"

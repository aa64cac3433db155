#!/usr/bin/env bash
# README command 1: set up, build, and start dumpscope on its built-in demo pair.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
exec "$root/scripts/launch_demo.sh" "${BUILD_DIR:-$root/build}" "$@"

#!/usr/bin/env bash
# Configures and builds dumpscope into BUILD_DIR (default: build/). Extra args go to cmake.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build_dir" -G Ninja -DDUMPSCOPE_WERROR=ON "$@" >&2
cmake --build "$build_dir" -j "$(nproc)" >&2

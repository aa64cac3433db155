#!/usr/bin/env bash
# Installs the Debian packages dumpscope needs, only those that are missing.
# One `apt-get update` before the first install; through sudo when not root.
set -euo pipefail

# python3-torch: the capture package (python/dumpscope_capture) and its tests.
packages=(cmake ninja-build g++ pkg-config
          qt6-base-dev qt6-charts-dev libqt6opengl6-dev libgl-dev
          libgtest-dev libgmock-dev libbenchmark-dev
          nlohmann-json3-dev zlib1g-dev libcli11-dev libxxhash-dev python3
          libqt6svg6 desktop-file-utils dpkg-dev file clang-format
          python3-torch)
# Extra packages for a given purpose: `setup.sh gui-shot` adds what headless screenshots need.
for extra in "$@"; do
    case "$extra" in
        gui-shot) packages+=(xvfb xauth) ;;
        fuzz) packages+=(clang libclang-rt-14-dev) ;;
        bench) packages+=(jq time python3-numpy python3-torch) ;;
        fixtures) packages+=(python3-numpy python3-torch) ;;
        *) echo "setup.sh: unknown extra '$extra'" >&2; exit 2 ;;
    esac
done

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
if ((${#missing[@]} == 0)); then
    exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
    sudo=(sudo)
fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q >&2
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >&2

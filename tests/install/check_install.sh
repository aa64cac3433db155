#!/usr/bin/env bash
# check_install.sh BUILD_DIR SOURCE_DIR VERSION HAVE_GUI(ON|OFF)
# Installs the build into a temporary prefix and checks every installed file, validates the
# .desktop file, then builds the .deb with CPack and checks its control fields and contents.
set -euo pipefail
build=$1 source=$2 version=$3 gui=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null || fail "$1 not found (scripts/setup.sh installs $2)"; }
need dpkg-deb dpkg
[ "$gui" = ON ] && need desktop-file-validate desktop-file-utils

# 1. cmake --install into a prefix.
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
check_file() { [ -f "$prefix/$1" ] || fail "not installed: $1"; echo "installed: $1"; }
check_file bin/dumpscope-cli
[ -x "$prefix/bin/dumpscope-cli" ] || fail "bin/dumpscope-cli is not executable"
check_file share/dumpscope/default_schema.json
cmp -s "$prefix/share/dumpscope/default_schema.json" "$source/resources/schema/default_schema.json" \
    || fail "installed schema differs from resources/schema/default_schema.json"
[ "$("$prefix/bin/dumpscope-cli" --version)" = "dumpscope-cli $version" ] \
    || fail "installed dumpscope-cli --version is not 'dumpscope-cli $version'"
# The installed CLI with the installed schema on the demo pair: the demo diverges (exit 1).
"$prefix/bin/dumpscope-cli" --make-demo "$work/demo" >/dev/null
rc=0
"$prefix/bin/dumpscope-cli" "$work/demo/a" "$work/demo/b" --quiet \
    --schema "$prefix/share/dumpscope/default_schema.json" >"$work/verdict.txt" || rc=$?
[ "$rc" = 1 ] || fail "installed dumpscope-cli on the demo pair exited $rc, expected 1"
grep -q "ROOT CAUSE" "$work/verdict.txt" || fail "no ROOT CAUSE line from the installed CLI"
# The capture package, importable from where it is installed; its fingerprint checked against
# the spec's vector when torch is there.
capture_py=share/dumpscope/python/dumpscope_capture
for f in __init__.py capture.py fingerprint.py; do check_file "$capture_py/$f"; done
[ ! -e "$prefix/$capture_py/__pycache__" ] || fail "$capture_py/__pycache__ installed"
if /usr/bin/python3 -c "import torch" 2>/dev/null; then
    fp=$(cd "$work" && PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$prefix/share/dumpscope/python" \
        /usr/bin/python3 -c "import torch; from dumpscope_capture import fingerprint_hex; print(fingerprint_hex(torch.tensor([1.0, 2.0, 3.0])))")
    [ "$fp" = f1448d0b1b7c9725 ] || fail "the installed dumpscope_capture's fingerprint: '$fp'"
    echo "installed dumpscope_capture imports and fingerprints"
else
    echo "torch not importable: the installed dumpscope_capture's import not checked"
fi
if [ "$gui" = ON ]; then
    check_file bin/dumpscope
    [ -x "$prefix/bin/dumpscope" ] || fail "bin/dumpscope is not executable"
    check_file share/applications/dumpscope.desktop
    check_file share/icons/hicolor/scalable/apps/dumpscope.svg
    desktop-file-validate "$prefix/share/applications/dumpscope.desktop" \
        || fail "desktop-file-validate refused the .desktop file"
    grep -qx "Exec=dumpscope" "$prefix/share/applications/dumpscope.desktop" || fail ".desktop Exec"
    grep -qx "Icon=dumpscope" "$prefix/share/applications/dumpscope.desktop" || fail ".desktop Icon"
    echo "desktop-file-validate: ok"
fi

# 2. cpack -G DEB from the same build tree.
cpack -G DEB -B "$work/pkg" --config "$build/CPackConfig.cmake" >"$work/cpack.log" 2>&1 \
    || { cat "$work/cpack.log" >&2; fail "cpack -G DEB failed"; }
deb=$(ls "$work"/pkg/*.deb)
[ "$(basename "$deb")" = "dumpscope_${version}_$(dpkg --print-architecture).deb" ] \
    || fail "unexpected package file name $(basename "$deb")"
dpkg-deb -I "$deb"
[ "$(dpkg-deb -f "$deb" Package)" = dumpscope ] || fail "Package field"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "Version field"
[ -n "$(dpkg-deb -f "$deb" Maintainer)" ] || fail "no Maintainer field"
depends=$(dpkg-deb -f "$deb" Depends)
has_dep() { [[ ", $depends," == *", $1"[\ ,]* ]] || fail "Depends lacks $1: $depends"; }
has_dep libc6
has_dep libstdc++6
if [ "$gui" = ON ]; then
    for p in libqt6core6 libqt6gui6 libqt6widgets6 libqt6charts6 qt6-qpa-plugins libqt6svg6; do
        has_dep "$p"
    done
fi
dpkg-deb -c "$deb" >"$work/contents.txt"
in_deb() { grep -q " \./usr/$1\$" "$work/contents.txt" || fail ".deb lacks /usr/$1"; }
in_deb bin/dumpscope-cli
in_deb share/dumpscope/default_schema.json
in_deb share/dumpscope/python/dumpscope_capture/capture.py
[ "$(dpkg-deb -f "$deb" Suggests)" = python3-torch ] || fail "Suggests field"
if [ "$gui" = ON ]; then
    in_deb bin/dumpscope
    in_deb share/applications/dumpscope.desktop
    in_deb share/icons/hicolor/scalable/apps/dumpscope.svg
fi
echo "PASS: installed files, .desktop and $(basename "$deb") (Depends: $depends)"

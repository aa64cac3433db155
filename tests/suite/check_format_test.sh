#!/usr/bin/env bash
# Drives scripts/check_format.sh over a small tree with the repository's .clang-format: a
# formatted file passes, a file formatted otherwise fails and is named.
set -euo pipefail
check=${1:?usage: check_format_test.sh CHECK_FORMAT_SH DOT_CLANG_FORMAT}
style=${2:?usage: check_format_test.sh CHECK_FORMAT_SH DOT_CLANG_FORMAT}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$style" "$work/.clang-format"
mkdir -p "$work/src"
printf 'int add(int a, int b) {\n    return a + b;\n}\n' >"$work/src/good.cpp"

bash "$check" "$work" >"$work/out" 2>&1 || { echo "FAILED: a formatted tree was refused:" >&2; cat "$work/out" >&2; exit 1; }
echo "ok: a formatted tree passes"

printf 'int  sub( int a,int b ){return a-b;}\n' >"$work/src/bad.h"
rc=0
bash "$check" "$work" >"$work/out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || { echo "FAILED: an unformatted file gave exit $rc:" >&2; cat "$work/out" >&2; exit 1; }
grep -q "src/bad.h" "$work/out" || { echo "FAILED: the unformatted file is not named:" >&2; cat "$work/out" >&2; exit 1; }
if grep -q "good.cpp" "$work/out"; then echo "FAILED: a formatted file was named" >&2; exit 1; fi
echo "ok: an unformatted file fails and is named"

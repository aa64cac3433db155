#!/usr/bin/env bash
# Fails when a C++ source or header under ROOT (default: the checkout) is not formatted as the
# repository's .clang-format says, and names each such file. scripts/test.sh runs it before the
# build, so the tree stays formatted: `clang-format -i FILE` fixes a file it names.
#   scripts/check_format.sh [ROOT]
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
command -v clang-format >/dev/null || { echo "check_format.sh: clang-format is not installed (scripts/setup.sh installs it)" >&2; exit 2; }
cd "$root"
# The files git tracks, or every file when ROOT is not a checkout (an unpacked tarball).
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files -- '*.cpp' '*.h')
else
    mapfile -t files < <(find . -type f \( -name '*.cpp' -o -name '*.h' \) -not -path './build*' | sort)
fi
unformatted=()
for f in "${files[@]}"; do
    [ -f "$f" ] || continue # deleted in the working tree
    clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || unformatted+=("$f")
done
if ((${#unformatted[@]} > 0)); then
    echo "check_format.sh: ${#unformatted[@]} file(s) not formatted as .clang-format says (clang-format -i FILE fixes one):" >&2
    printf '  %s\n' "${unformatted[@]}" >&2
    exit 1
fi
echo "check_format.sh: ${#files[@]} files formatted"

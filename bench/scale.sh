#!/usr/bin/env bash
# How the CLI's and the window's costs grow with the run: for each axis a pair at n and at 10n
# (bench/make_many.py), the time to the final verdict and the peak memory of each, and the
# growth exponent log10(cost(10n) / cost(n)): 1 is linear, 2 quadratic. One Markdown table.
#   steps    n steps of one buffer, with a schema                         10,000 -> 100,000
#   schema   one step of n buffers, with a schema                         10,000 -> 100,000
#   npy      one step of n one-tensor .npy files, no schema               10,000 -> 100,000
#   roots    a capture log of n buffers, all divergent and independent      1,000 ->  10,000
#   ranks    n rank folders of 500 buffers each (4 steps), with a schema         8 ->      64
# Usage: bench/scale.sh    (env: BUILD_DIR, TMPDIR, SMALL=1 for n/10 on every axis but ranks, whose
#                          folders then hold 50 buffers; RUNS=3 CLI runs per pair, the median;
#                          GUI_RUNS=RUNS window runs per pair; SKIP_GUI=1; GUI_LIMIT=120
#                          seconds a window run may take, past which
#                          its figures read "> GUI_LIMIT"; AXES="steps schema npy roots ranks")
# CLI: wall time of the whole process (from just before its fork to its wait) after one warm-up run, and its CPU
# seconds (user + system from wait4()'s rusage, to the microsecond: the steadier figure on a busy
# machine, where wall time also counts the wait for a core; GNU time's hundredths made the
# exponent of a pair compared in 0.01 s noise), the medians; peak RSS (ru_maxrss, the worst run).
# Window: dumpscope-bench-gui --open, offscreen, GUI_RUNS runs per pair: the medians of the time
# from openPair to the first verdict painted and to the last step compared (one run of a 0.3 s
# pair varied by a third), the longest GUI-thread stall of any run, and the worst peak RSS.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build-release}
RUNS=${RUNS:-3}
GUI_RUNS=${GUI_RUNS:-$RUNS}
GUI_LIMIT=${GUI_LIMIT:-120}
AXES=${AXES:-steps schema npy roots ranks}
PY=/usr/bin/python3

die() { echo "scale.sh: $*" >&2; exit 2; }
[ -x "$PY" ] || die "$PY is needed to write the pairs"

if [ ! -f "$BUILD/CMakeCache.txt" ]; then
    cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDUMPSCOPE_GUI=ON \
        -DDUMPSCOPE_TESTS=OFF -DDUMPSCOPE_BENCH=ON >/dev/null
fi
targets=(dumpscope-cli)
have_gui=0
# grep without -q reads all of the list: under pipefail, cmake killed by SIGPIPE would read as
# "no such target".
if [ -z "${SKIP_GUI:-}" ] && cmake --build "$BUILD" --target help | grep dumpscope-bench-gui >/dev/null; then
    targets+=(dumpscope-bench-gui)
    have_gui=1
fi
cmake --build "$BUILD" --target "${targets[@]}" >/dev/null
CLI=$BUILD/app/dumpscope-cli
GUI=$BUILD/bench/dumpscope-bench-gui

# A pair of 10n is 200,000 small files: on a busy disk writing and removing them takes minutes,
# in a tmpfs (TMPDIR=/dev/shm, about 1 GB at a time) seconds. The timings are of warm files.
WORK=$(mktemp -d "${TMPDIR:-/tmp}/dumpscope-scale.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

div=1
[ -n "${SMALL:-}" ] && div=10
# 500 a folder: at 200 the pair of 8 ranks took the CLI 0.02 s of CPU, too little for a steady
# exponent.
per_rank=$((500 / div))

# sizes AXIS: "n 10n" of the axis
sizes() {
    case $1 in
    steps | schema | npy) echo "$((10000 / div)) $((100000 / div))" ;;
    roots) echo "$((1000 / div)) $((10000 / div))" ;;
    ranks) echo "8 64" ;;
    *) die "unknown axis $1" ;;
    esac
}
# make AXIS N DIR
make_pair() {
    case $1 in
    steps) "$PY" "$ROOT/bench/make_many.py" "$3" --steps "$2" ;;
    schema) "$PY" "$ROOT/bench/make_many.py" "$3" --files "$2" ;;
    npy) "$PY" "$ROOT/bench/make_many.py" "$3" --npy "$2" ;;
    roots) "$PY" "$ROOT/bench/make_many.py" "$3" --roots "$2" ;;
    ranks) "$PY" "$ROOT/bench/make_many.py" "$3" --ranks "$2" --per-rank "$per_rank" ;;
    esac
}

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
# rusage FILE CMD...: runs CMD and writes "wall_s peak_rss_kib cpu_s" of it to FILE: the monotonic
# clock from just before the fork to the wait, and wait4()'s rusage (user + system); exits with
# CMD's status.
rusage() {
    "$PY" -c '
import os, sys, time
t0 = time.monotonic()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
wall = time.monotonic() - t0
with open(sys.argv[1], "w") as f:
    f.write("%.4f %d %.4f\n" % (wall, ru.ru_maxrss, ru.ru_utime + ru.ru_stime))
sys.exit(os.waitstatus_to_exitcode(status))' "$@"
}
# timed OUT CMD...: appends "wall_s rss_kib cpu_s" to OUT; exit 0 or 1 accepted (1: a divergence).
timed() {
    local out=$1 rc=0
    shift
    rusage "$WORK/time" "$@" >"$WORK/stdout" 2>"$WORK/stderr" || rc=$?
    [ "$rc" -le 1 ] || { tail -5 "$WORK/stderr" >&2; echo "scale.sh: $* exited $rc" >&2; return 1; }
    cat "$WORK/time" >>"$out"
}
# A figure ">L" (a window run stopped at GUI_LIMIT) gives a lower bound: "> exponent".
exponent() {
    awk -v a="$1" -v b="$2" 'BEGIN {more = sub(/^>/, "", b); if (a > 0 && b > 0) printf "%s%.2f", (more ? "> " : ""), log(b / a) / log(10); else printf "-"}'
}
mib() { awk -v k="$1" 'BEGIN {if (k ~ /^[0-9]+$/) printf "%.0f", k / 1024; else printf "-"}'; }

# measure AXIS N: sets cli_s cli_cpu cli_kib gui_first gui_last gui_stall gui_kib
measure() {
    local dir=$WORK/$1-$2 schema=() r
    make_pair "$1" "$2" "$dir" >/dev/null
    [ -f "$dir/schema.json" ] && schema=(--schema "$dir/schema.json")
    : >"$WORK/cli"
    : >"$WORK/gui"
    : >"$WORK/gui-times"
    "$CLI" --quiet "$dir/a" "$dir/b" "${schema[@]}" >/dev/null 2>&1 || true # warms the page cache
    # The CLI's runs and the window's alternate, so that both sample the same minutes of a
    # machine whose speed moves from one minute to the next: the ratio compares like with like.
    local gui_runs=0 timed_out=0
    [ "$have_gui" = 1 ] && gui_runs=$GUI_RUNS
    for ((r = 0; r < RUNS || r < gui_runs; r++)); do
        if ((r < RUNS)); then
            timed "$WORK/cli" "$CLI" --quiet "$dir/a" "$dir/b" "${schema[@]}" || exit 2
        fi
        if ((r < gui_runs && !timed_out)); then
            if ! timed "$WORK/gui" timeout "$GUI_LIMIT" "$GUI" --open "$dir/a" "$dir/b" "${schema[@]}" 2>/dev/null; then
                timed_out=1
                continue
            fi
            awk '$1 == "first_verdict_painted_s" {f = $2} $1 == "last_step_compared_s" {l = $2}
                 $1 == "stall_max_s" {s = $2} END {print f, l, s}' "$WORK/stdout" >>"$WORK/gui-times"
        fi
    done
    cli_s=$(cut -d' ' -f1 "$WORK/cli" | median)
    cli_kib=$(cut -d' ' -f2 "$WORK/cli" | sort -n | tail -1)
    cli_cpu=$(cut -d' ' -f3 "$WORK/cli" | median)
    gui_first=- gui_last=- gui_stall=- gui_kib=-
    if ((timed_out)); then
        gui_first=">$GUI_LIMIT" gui_last=">$GUI_LIMIT"
    elif ((gui_runs > 0)); then
        gui_kib=$(cut -d' ' -f2 "$WORK/gui" | sort -n | tail -1)
        gui_first=$(cut -d' ' -f1 "$WORK/gui-times" | median)
        gui_last=$(cut -d' ' -f2 "$WORK/gui-times" | median)
        gui_stall=$(cut -d' ' -f3 "$WORK/gui-times" | sort -n | tail -1)
    fi
    rm -rf "$dir"
}

ROWS=()
for axis in $AXES; do
    read -r n1 n10 < <(sizes "$axis")
    echo "scale.sh: $axis, $n1 and $n10" >&2
    measure "$axis" "$n1"
    c1=$cli_s u1=$cli_cpu m1=$cli_kib f1=$gui_first l1=$gui_last s1=$gui_stall g1=$gui_kib
    measure "$axis" "$n10"
    c10=$cli_s u10=$cli_cpu m10=$cli_kib f10=$gui_first l10=$gui_last s10=$gui_stall g10=$gui_kib
    cli="$c1 → $c10 s ($(exponent "$c1" "$c10")); CPU $u1 → $u10 s (**$(exponent "$u1" "$u10")**); $(mib "$m1") → $(mib "$m10") MiB (**$(exponent "$m1" "$m10")**)"
    win="-"
    if [ "$have_gui" = 1 ]; then
        win="first verdict $f1 → $f10 s ($(exponent "$f1" "$f10")); last step $l1 → $l10 s (**$(exponent "$l1" "$l10")**); $(mib "$g1") → $(mib "$g10") MiB (**$(exponent "$g1" "$g10")**); stall $(awk -v a="$s1" -v b="$s10" 'BEGIN {printf "%.0f ms", 1000 * (a > b ? a : b)}')"
        ratio=$(awk -v w="$l10" -v c="$c10" 'BEGIN {more = sub(/^>/, "", w); printf "%s%.2f×", (more ? "> " : ""), w / c}')
    fi
    ROWS+=("| $axis | $n1 → $n10 | $cli | $win | ${ratio:--} |")
done

echo
echo "| axis | n → 10n | CLI: wall (exponent); CPU (exponent); peak RSS (exponent) | window: first verdict, last step compared (exponents); peak RSS (exponent); longest stall | window / CLI at 10n (wall) |"
echo "|---|---|---|---|---|"
printf '%s\n' "${ROWS[@]}"
echo
echo "- CLI: median of $RUNS runs after a warm-up; window: median of $GUI_RUNS runs, the longest stall and peak RSS of any, the two alternating; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; $(date -u '+%Y-%m-%d %H:%M UTC')"

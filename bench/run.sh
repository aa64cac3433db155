#!/usr/bin/env bash
# The whole benchmark (speed and memory) in one run, printing one Markdown table:
#   1. equal-heavy pair, 2 x SIZE_MIB MiB, page cache warm: dumpscope-cli vs the mmap baseline
#      vs the reference script (median of RUNS runs; the script runs once: it is slow);
#   2. a pair whose largest files are SPARSE_GIB GiB each (sparse): dumpscope-cli's peak RSS, and
#      its results checked against a small pair with the same differences and the baseline;
#   3. Google Benchmark of the core's compare routine on in-memory float32 (per core);
#   4. the GUI, offscreen (when Qt is found): open -> finished matrix on the pair of 1., the
#      longest GUI-thread stall meanwhile, "only differing" on a 100M-element buffer, scrolling.
# Usage: bench/run.sh           (env: BUILD_DIR, RUNS=5, SIZE_MIB=256, SPARSE_GIB=4,
#                                REFERENCE=path/to/compare-backward-state.py, SKIP_REFERENCE=1,
#                                SKIP_GBENCH=1, SKIP_GUI=1, GUI_ELEMENTS=100000000)
# Wall times come from `date +%s%N` around each process (includes fork+exec, ~1 ms); peak
# RSS and CPU seconds (user + system) from GNU time (%M, %U, %S); medians, RSS the worst run.
# MB/s is 10^6 bytes of input (both runs) per wall second. On a loaded machine the CPU-second
# ratio is the steadier one: wall time there also counts time spent waiting for a core.
# How the costs grow with the number of steps, buffers, files, divergent roots and ranks (not
# their bytes) is bench/scale.sh's table, apart from this one.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build-release}
RUNS=${RUNS:-5}
SIZE_MIB=${SIZE_MIB:-256}
SPARSE_GIB=${SPARSE_GIB:-4}
REFERENCE=${REFERENCE:-$ROOT/../shared/reference/compare-backward-state.py}
TIME=/usr/bin/time

die() { echo "run.sh: $*" >&2; exit 2; }
"$ROOT/scripts/setup.sh" bench # GNU time (peak RSS) and jq (reads dumpscope's JSON)
[ -x "$TIME" ] || die "GNU time ($TIME) is needed for peak RSS"
command -v jq >/dev/null || die "jq is needed to read dumpscope's JSON"

# --- build (Release) if needed ---------------------------------------------------------------
# The GUI is on (it is built when Qt is found) for the GUI bench; an existing tree keeps its
# build type.
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
    cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDUMPSCOPE_GUI=ON \
        -DDUMPSCOPE_TESTS=OFF -DDUMPSCOPE_BENCH=ON >/dev/null
else
    cmake -S "$ROOT" -B "$BUILD" -DDUMPSCOPE_GUI=ON -DDUMPSCOPE_BENCH=ON >/dev/null
fi
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$BUILD/CMakeCache.txt")
[ "$build_type" = Release ] || echo "run.sh: warning: $BUILD is a '$build_type' build, not Release" >&2
targets=(dumpscope-cli dumpscope-make-pair dumpscope-baseline dumpscope-bench-cycles)
have_gbench=0
if cmake --build "$BUILD" --target help | grep dumpscope-bench-compare >/dev/null; then
    targets+=(dumpscope-bench-compare)
    have_gbench=1
fi
have_gui=0
# grep without -q reads all of the list: under pipefail, cmake killed by SIGPIPE would read as
# "no such target".
if [ -z "${SKIP_GUI:-}" ] && cmake --build "$BUILD" --target help | grep dumpscope-bench-gui >/dev/null; then
    targets+=(dumpscope-bench-gui)
    have_gui=1
fi
cmake --build "$BUILD" --target "${targets[@]}" >/dev/null
CLI=$BUILD/app/dumpscope-cli
MAKE_PAIR=$BUILD/bench/dumpscope-make-pair
BASELINE=$BUILD/bench/dumpscope-baseline

WORK=$(mktemp -d "${TMPDIR:-/tmp}/dumpscope-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# --- helpers ---------------------------------------------------------------------------------
# measure NAME N CMD...: runs CMD N times (exit 0 or 1 accepted: 1 is "divergence found"),
# appending "wall_s rss_kib cpu_s" (cpu_s = user + system seconds) per run to $WORK/NAME.
measure() {
    local name=$1 n=$2 i t0 t1 rc
    shift 2
    : >"$WORK/$name"
    for ((i = 0; i < n; i++)); do
        rc=0
        t0=$(date +%s%N)
        "$TIME" -f '%M %U %S' -o "$WORK/time" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" || rc=$?
        t1=$(date +%s%N)
        [ "$rc" -le 1 ] || { cat "$WORK/$name.err" >&2; die "$* exited $rc"; }
        # GNU time puts "Command exited with non-zero status 1" on a line of its own first.
        read -r rss user sys < <(tail -1 "$WORK/time")
        echo "$(( (t1 - t0) / 1000 )) $rss $user $sys" | awk '{printf "%.6f %s %.2f\n", $1 / 1e6, $2, $3 + $4}' >>"$WORK/$name"
    done
}
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
wall() { cut -d' ' -f1 "$WORK/$1" | median; }
rss_mib() { cut -d' ' -f2 "$WORK/$1" | sort -n | tail -1 | awk '{printf "%.1f", $1 / 1024}'; } # worst run
cpu() { cut -d' ' -f3 "$WORK/$1" | median; }
input_bytes() { du -s --apparent-size -B1 "$1/a" "$1/b" | awk '{s += $1} END {printf "%.0f", s}'; }
warm() { cat "$1"/a/* "$1"/b/* >/dev/null; }

ROWS=()
# row CASE TOOL NAME BYTES BASE_NAME REF_WALL
row() {
    local w m r c vb vc vr bw bc
    w=$(wall "$3")
    m=$(awk -v b="$4" -v w="$w" 'BEGIN {printf "%.0f", b / 1e6 / w}')
    r=$(rss_mib "$3")
    c=$(cpu "$3")
    bw=$(wall "$5")
    bc=$(cpu "$5")
    vb=$(awk -v w="$w" -v b="$bw" 'BEGIN {printf "%.2fx", w / b}')
    vc=$(awk -v c="$c" -v b="$bc" 'BEGIN {if (b > 0 && c > 0) printf "%.1fx", c / b; else printf "-"}')
    vr=$([ -n "$6" ] && awk -v w="$w" -v f="$6" 'BEGIN {printf "%.0fx faster", f / w}' || echo "-")
    ROWS+=("| $1 | $2 | $(awk -v w="$w" 'BEGIN {printf "%.3f", w}') | $m | $r | $c | $vb | $vc | $vr |")
}

# --- 1. equal-heavy pair, page cache warm ----------------------------------------------------
PAIR=$WORK/pair
"$MAKE_PAIR" "$PAIR" --size-mib "$SIZE_MIB" --pattern equal-heavy >/dev/null
BYTES=$(input_bytes "$PAIR")
warm "$PAIR"
echo "run.sh: equal-heavy pair: $BYTES bytes of input; $RUNS runs each" >&2
measure baseline "$RUNS" "$BASELINE" "$PAIR/a" "$PAIR/b"
measure baseline2 "$RUNS" "$BASELINE" "$PAIR/a" "$PAIR/b" --threads 2
measure cli "$RUNS" "$CLI" --quiet "$PAIR/a" "$PAIR/b"
measure cli_compat "$RUNS" "$CLI" --reference-compat "$PAIR/a" "$PAIR/b"
cp "$WORK/cli_compat.out" "$WORK/compat.txt"
measure cli_json 1 "$CLI" --json "$PAIR/a" "$PAIR/b"
# dumpscope must find every differing word the baseline finds.
base_count=$(awk '{print $1; exit}' "$WORK/baseline.out")
cli_count=$(jq '[.steps[].groups[].buffers[].n_diff] | add' "$WORK/cli_json.out")
[ "$base_count" = "$cli_count" ] || die "dumpscope counts $cli_count differences, the baseline $base_count"

REF_WALL=""
ref_note="reference script: not run"
if [ -z "${SKIP_REFERENCE:-}" ] && command -v python3 >/dev/null && [ -f "$REFERENCE" ]; then
    echo "run.sh: running the reference script once (about 20-40 s)" >&2
    measure reference 1 python3 "$REFERENCE" "$PAIR/a" "$PAIR/b"
    REF_WALL=$(wall reference)
    if cmp -s "$WORK/reference.out" "$WORK/compat.txt"; then
        ref_note="reference script: 1 run; dumpscope-cli --reference-compat printed the same stdout byte for byte"
    else
        ref_note="reference script: 1 run; WARNING: --reference-compat stdout DIFFERS from the script's"
    fi
fi
CASE="equal-heavy 2x${SIZE_MIB} MiB, warm"
row "$CASE" "baseline (mmap, 1 thread)" baseline "$BYTES" baseline "$REF_WALL"
row "$CASE" "baseline (mmap, 2 threads)" baseline2 "$BYTES" baseline "$REF_WALL"
row "$CASE" "dumpscope-cli --quiet" cli "$BYTES" baseline "$REF_WALL"
row "$CASE" "dumpscope-cli --reference-compat" cli_compat "$BYTES" baseline "$REF_WALL"
[ -n "$REF_WALL" ] && row "$CASE" "compare-backward-state.py (1 run)" reference "$BYTES" baseline "$REF_WALL"

# --- 1b. the same pair as .npy files and as stored torch.save files, page cache warm --------
# The tensors are read by offset like raw files: the formats should cost no throughput.
formats_note="formats: not measured (needs /usr/bin/python3 with python3-numpy: setup.sh bench)"
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
    FORMATS=$WORK/formats
    /usr/bin/python3 "$(dirname "$0")/to_formats.py" "$PAIR" "$FORMATS" \
        "$(dirname "$0")/../resources/schema/default_schema.json"
    formats_note="formats: n_diff total raw $cli_count"
    for format in npy pt; do
        [ -d "$FORMATS/$format/a" ] || { formats_note+=", $format not written (no torch)"; continue; }
        warm "$FORMATS/$format"
        measure "cli_$format" "$RUNS" "$CLI" --quiet "$FORMATS/$format/a" "$FORMATS/$format/b"
        measure "json_$format" 1 "$CLI" --json "$FORMATS/$format/a" "$FORMATS/$format/b"
        count=$(jq '[.steps[].groups[].buffers[].n_diff] | add' "$WORK/json_$format.out")
        formats_note+=", $format $count"
        [ "$count" = "$cli_count" ] || formats_note+=" (MISMATCH)"
        row "$CASE" "dumpscope-cli --quiet, as .$format files" "cli_$format" \
            "$(input_bytes "$FORMATS/$format")" baseline "$REF_WALL"
    done
    rm -rf "$FORMATS"
fi

# --- 4 (run here, printed last). the GUI offscreen, on the same pair -------------------------
GUI_ROWS=()
gui_note="GUI: not measured (no Qt, or SKIP_GUI)"
if [ "$have_gui" = 1 ]; then
    GUI_ELEMENTS=${GUI_ELEMENTS:-100000000}
    echo "run.sh: GUI bench ($RUNS runs; writes a ${GUI_ELEMENTS}-element float32 pair first)" >&2
    warm "$PAIR"
    "$BUILD/bench/dumpscope-bench-gui" "$PAIR" "$WORK/big" --runs "$RUNS" --elements "$GUI_ELEMENTS" \
        >"$WORK/gui.out" 2>"$WORK/gui.err" || { cat "$WORK/gui.err" >&2; die "dumpscope-bench-gui failed"; }
    gui() { awk -v k="$1" '$1 == k {print $2}' "$WORK/gui.out"; }
    gui_row() { # CASE WHAT SECONDS
        GUI_ROWS+=("| $1 | $2 | $(awk -v t="$3" 'BEGIN {printf "%.3f", t}') | - | - | - | - | - | - |")
    }
    big_case="GUI, ${GUI_ELEMENTS}-element f32 buffer"
    gui_row "GUI, $CASE" "open -> matrix complete (median; target < 1 s)" "$(gui matrix_complete_s)"
    gui_row "GUI, $CASE" "longest GUI-thread stall meanwhile (5 ms timer; target < 0.05 s)" "$(gui matrix_stall_max_s)"
    gui_row "$big_case" "select -> \"only differing\" shown (median; target < 1 s)" "$(gui filter_ready_s)"
    gui_row "$big_case" "longest GUI-thread stall meanwhile (target < 0.05 s)" "$(gui filter_stall_max_s)"
    gui_row "$big_case" "longest of 100 scroll jumps, repainted" "$(gui scroll_jump_max_s)"
    gui_note="GUI: dumpscope-bench-gui, offscreen, $RUNS runs each, a fresh window per run; the big buffer has $(gui differences) differing elements; longest stall of each matrix run (ms): $(gui matrix_stall_runs_ms)"
    rm -rf "$WORK/big"
fi
rm -rf "$PAIR"

# --- 2. sparse pair: largest files SPARSE_GIB GiB each ---------------------------------------
SPARSE=$WORK/sparse SMALL=$WORK/small
"$MAKE_PAIR" "$SPARSE" --size-mib 16 --sparse-gib "$SPARSE_GIB" --pattern equal-heavy >/dev/null
"$MAKE_PAIR" "$SMALL" --size-mib 16 --sparse-mib 16 --pattern equal-heavy >/dev/null
SPARSE_BYTES=$(input_bytes "$SPARSE")
echo "run.sh: sparse pair: $SPARSE_BYTES bytes of input (mostly holes)" >&2
measure sparse_cli 3 "$CLI" --quiet "$SPARSE/a" "$SPARSE/b"
measure sparse_json 1 "$CLI" --json "$SPARSE/a" "$SPARSE/b"
measure small_json 1 "$CLI" --json "$SMALL/a" "$SMALL/b"
measure sparse_base 3 "$BASELINE" "$SPARSE/a" "$SPARSE/b"
# Same results as on small files: per buffer the status, kind and every count and extreme;
# only element counts, indices and hashes may differ (the regions sit at other offsets).
summary='[.steps[] | .step as $s | .groups[].buffers[] |
          {step: $s, name, status, kind, n_diff, max_abs_delta, max_rel_delta, max_ulp}],
         {decision, root_cause, diverged_groups, first_divergent_step, exit_code}'
jq -S "$summary" "$WORK/sparse_json.out" >"$WORK/sparse.sum"
jq -S "$summary" "$WORK/small_json.out" >"$WORK/small.sum"
sparse_note="sparse pair: per-buffer status, kind, n_diff, max|Δ|, max rel Δ, max ULP and the verdict"
if cmp -s "$WORK/sparse.sum" "$WORK/small.sum"; then
    sparse_note+=" equal to the small pair's"
else
    sparse_note+=" DIFFER from the small pair's: $(diff "$WORK/small.sum" "$WORK/sparse.sum" | head -5 | tr '\n' ' ')"
fi
sparse_cli_count=$(jq '[.steps[].groups[].buffers[].n_diff] | add' "$WORK/sparse_json.out")
sparse_base_count=$(awk '{print $1; exit}' "$WORK/sparse_base.out")
sparse_note+="; n_diff total $sparse_cli_count, baseline $sparse_base_count"
[ "$sparse_cli_count" = "$sparse_base_count" ] || sparse_note+=" (MISMATCH)"
CASE="sparse ${SPARSE_GIB} GiB files (+16 MiB dense)"
row "$CASE" "baseline (mmap, 1 thread)" sparse_base "$SPARSE_BYTES" sparse_base ""
row "$CASE" "dumpscope-cli --quiet" sparse_cli "$SPARSE_BYTES" sparse_base ""
rm -rf "$SPARSE" "$SMALL"

# --- 3. the core's compare routine, in memory ------------------------------------------------
# Pinned to one core (the process otherwise migrates between the two vCPUs, and runs whose
# pages were touched from the other one were 1.6x slower here), 10 repetitions: the median and
# the best (on a shared machine the best is the closest to what the code costs).
pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)
if [ "$have_gbench" = 1 ] && [ -z "${SKIP_GBENCH:-}" ]; then
    echo "run.sh: Google Benchmark (10 repetitions each, pinned to CPU 0)" >&2
    "${pin[@]}" "$BUILD/bench/dumpscope-bench-compare" --benchmark_repetitions=10 \
        --benchmark_format=json >"$WORK/gbench.json" 2>/dev/null
    while IFS=$'\t' read -r name ms bps best_bps; do
        ROWS+=("| in-memory f32, 2x64 MiB | compareMemory ${name#BM_} (1 core, CPU time; best of 10: $(awk -v b="$best_bps" 'BEGIN {printf "%.0f", b / 1e6}') MB/s) | $(awk -v t="$ms" 'BEGIN {printf "%.3f", t / 1000}') | $(awk -v b="$bps" 'BEGIN {printf "%.0f", b / 1e6}') | - | $(awk -v t="$ms" 'BEGIN {printf "%.3f", t / 1000}') | - | - | - |")
    done < <(jq -r '.benchmarks as $all | $all[] | select(.aggregate_name == "median") | .run_name as $r |
                    [($r | split("/")[0]), .cpu_time, .bytes_per_second,
                     ([$all[] | select(.run_name == $r and .run_type == "iteration") | .bytes_per_second] | max)] |
                    @tsv' "$WORK/gbench.json")
fi

# Per element on data in L2, best of 300 calls, the best of 3 rounds per case: the figure to
# compare two builds by (run them alternately), as it moves less with the machine's minute.
cycles_note="compare in L2 (dumpscope-bench-cycles, 256 KiB per side, pinned to CPU 0, best of 3 x 300 calls), per element:$(
    "${pin[@]}" "$BUILD/bench/dumpscope-bench-cycles" --rounds 3 | awk 'NR == 1 {unit = ($0 ~ /TSC/) ? "TSC ticks" : "ns"; next}
        {for (i = 1; i < NF; i += 2) if (!($i in best) || $(i + 1) < best[$i]) best[$i] = $(i + 1); if (!n) for (i = 1; i < NF; i += 2) order[++n] = $i}
        END {for (k = 1; k <= n; k++) printf " %s %s%s", order[k], best[order[k]], (k < n ? "," : " " unit)}')"

# --- the table -------------------------------------------------------------------------------
echo
echo "| case | tool | median wall s | MB/s | peak RSS MiB | CPU s | vs baseline (wall) | vs baseline (CPU s) | vs reference (wall) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${ROWS[@]}"
[ "${#GUI_ROWS[@]}" -gt 0 ] && printf '%s\n' "${GUI_ROWS[@]}"
echo
echo "- $ref_note"
echo "- $formats_note"
echo "- $gui_note"
echo "- $sparse_note"
echo "- $cycles_note"
echo "- $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; $(date -u '+%Y-%m-%d %H:%M UTC')"

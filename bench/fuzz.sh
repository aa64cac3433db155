#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, clang, ASan + UBSan) and runs each for SECONDS,
# then prints one Markdown table: target, executions, exec/s, crashes, new corpus entries.
# Usage: bench/fuzz.sh SECONDS [TARGET...]     (targets: schema dump_name compare names options npy pickle safetensors scan)
# env: BUILD_DIR (default build-fuzz), JOBS (targets run at once, default 1).
# The committed seeds (tests/fuzz/corpus/<target>, and resources/schema for the schema target)
# are only read: new inputs go to a fresh working corpus under BUILD_DIR/fuzz-work/<time>/,
# crash inputs to its artifacts/ directory. Everything runs under `nice -n 10`.
# libFuzzer stops a target at its first crash; the table then says so.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build-fuzz}
JOBS=${JOBS:-1}
die() { echo "fuzz.sh: $*" >&2; exit 2; }
[ $# -ge 1 ] && [[ $1 =~ ^[0-9]+$ ]] && [ "$1" -gt 0 ] || die "usage: bench/fuzz.sh SECONDS [TARGET...]"
DURATION=$1
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(schema dump_name compare names options npy pickle safetensors scan)

"$ROOT/scripts/setup.sh" fuzz # clang and its runtime (libFuzzer, sanitizers)

if [ ! -f "$BUILD/CMakeCache.txt" ]; then
    CC=clang CXX=clang++ cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DDUMPSCOPE_FUZZ=ON -DDUMPSCOPE_GUI=OFF -DDUMPSCOPE_TESTS=OFF -DDUMPSCOPE_BENCH=OFF >/dev/null
fi
grep -q '^DUMPSCOPE_FUZZ:BOOL=ON' "$BUILD/CMakeCache.txt" || die "$BUILD is not a DUMPSCOPE_FUZZ=ON build"
nice -n 10 cmake --build "$BUILD" -j2 --target "${targets[@]/#/fuzz_}" >&2

WORK=$BUILD/fuzz-work/$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$WORK"
echo "fuzz.sh: working corpus, logs and crash inputs in $WORK" >&2

run_one() {
    local t=$1
    local seeds=("$ROOT/tests/fuzz/corpus/$t") extra=()
    [ "$t" = schema ] && seeds+=("$ROOT/resources/schema")
    [ "$t" = scan ] && seeds=("$ROOT/tests/fuzz/corpus/npy" "$ROOT/tests/fuzz/corpus/safetensors"
                              "$ROOT/tests/data/formats/runs/torch/a/rank0")
    [ -f "$ROOT/tests/fuzz/$t.dict" ] && extra+=("-dict=$ROOT/tests/fuzz/$t.dict")
    mkdir -p "$WORK/corpus/$t" "$WORK/artifacts/$t"
    # The first directory receives new inputs; the seed directories after it are only read.
    nice -n 10 "$BUILD/tests/fuzz/fuzz_$t" -max_total_time="$DURATION" -timeout=10 \
        -print_final_stats=1 -artifact_prefix="$WORK/artifacts/$t/" "${extra[@]}" \
        "$WORK/corpus/$t" "${seeds[@]}" >"$WORK/$t.log" 2>&1 || true
}

running=0
for t in "${targets[@]}"; do
    echo "fuzz.sh: fuzz_$t for ${DURATION} s" >&2
    run_one "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait

echo "| target | executions | exec/s | crashes | new corpus entries |"
echo "| --- | ---: | ---: | ---: | ---: |"
for t in "${targets[@]}"; do
    log=$WORK/$t.log
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    crashes=$(find "$WORK/artifacts/$t" -type f | wc -l)
    newinputs=$(find "$WORK/corpus/$t" -type f | wc -l)
    note=""
    [ "$crashes" -gt 0 ] && note=" (stopped at the first; input in $WORK/artifacts/$t)"
    echo "| fuzz_$t | ${execs:-?} | ${rate:-?} | $crashes$note | $newinputs |"
done

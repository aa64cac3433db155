#!/usr/bin/env bash
# check_capture_header.sh BUILD_DIR CXX
# Installs the build into a temporary prefix; compiles each installed capture header alone, with
# every warning an error; builds a small trainer against the prefix's include/ alone that
# captures run A in full and run B as fingerprints, one buffer changed from step 2 in a third;
# and checks what the installed dumpscope-cli says of them.
set -euo pipefail
build=$1 cxx=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
flags=(-std=c++20 -Wall -Wextra -Wpedantic -Werror -I "$prefix/include")
for h in fingerprint.h capture.h; do
    [ -f "$prefix/include/dumpscope/$h" ] || fail "not installed: include/dumpscope/$h"
    printf '#include "dumpscope/%s"\n' "$h" >"$work/only_$h.cpp"
    "$cxx" "${flags[@]}" -c "$work/only_$h.cpp" -o "$work/only_$h.o" || fail "$h does not compile alone"
    echo "compiles alone: include/dumpscope/$h"
done

cat >"$work/trainer.cpp" <<'CPP'
#include <dumpscope/capture.h>

#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    if (argc != 4) return 2;
    const auto mode = std::string(argv[2]) == "hash" ? dumpscope::CaptureMode::hash
                                                      : dumpscope::CaptureMode::full;
    const int changedAt = std::atoi(argv[3]);
    dumpscope::Capture cap(argv[1], {mode, 0, "check_capture_header"});
    for (int step = 0; step < 4; ++step) {
        std::vector<float> w(64), y(64);
        for (int i = 0; i < 64; ++i) {
            w[i] = static_cast<float>(i * step) / 7.0f;
            y[i] = w[i] * w[i];
        }
        if (changedAt >= 0 && step >= changedAt) y[17] += 1.0f;
        const auto in = cap.add("layer1.weight", w.data(), {8, 8});
        cap.add("layer1.out", y.data(), "f32", {8, 8}, {{in}});
        cap.step(static_cast<std::uint64_t>(step));
    }
}
CPP
"$cxx" "${flags[@]}" "$work/trainer.cpp" -o "$work/trainer" || fail "the trainer does not build"
"$work/trainer" "$work/a" full -1
"$work/trainer" "$work/b" hash -1
"$work/trainer" "$work/c" hash 2
[ -f "$work/a/rank0/step_3.safetensors" ] || fail "full mode wrote no rank0/step_3.safetensors"
[ -f "$work/b/rank0/dumpscope-fingerprints.jsonl" ] || fail "hash mode wrote no log"
ls "$work/b/rank0" | grep -q safetensors && fail "hash mode wrote tensors"

cli=$prefix/bin/dumpscope-cli
rc=0
"$cli" "$work/a" "$work/b" --quiet >"$work/same.txt" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$work/same.txt"; fail "full against hash of the same run exited $rc"; }
rc=0
"$cli" "$work/a" "$work/c" --json >"$work/diff.json" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$work/diff.json"; fail "full against a changed hash run exited $rc"; }
grep -q '"first_divergent_step": *2' "$work/diff.json" || fail "the first divergent step is not 2"
grep -q '"kind": *"fingerprint_only"' "$work/diff.json" || fail "no fingerprint_only kind"
echo "PASS: installed capture headers compile alone; a trainer's runs read by dumpscope-cli"

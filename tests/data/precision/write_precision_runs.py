#!/usr/bin/python3
"""Writes pairs of runs that hold the same tensors at two float precisions, with torch.save, for
tests/cli/test_cli_precision.cpp (which runs it at test time into a temporary directory):

    /usr/bin/python3 tests/data/precision/write_precision_runs.py OUT

Each case is OUT/<case>/a and OUT/<case>/b, one step_<n>.pt per step holding {"x": tensor}. The
narrow side is torch's own rounding (round to nearest even) of the wide side's values, so a
pair is within the rounding of the narrow type unless a case changes an element after rounding.
"""
import os
import sys

import torch

N = 100_000  # more than one chunk of the compare, so chunk edges are crossed
FAR = 70_000  # the element a "beyond" case changes: past the first chunks


def values(seed):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(N, generator=g, dtype=torch.float64) * 3
    # Specials both sides agree on once rounded: NaN, ±Inf, -0, tiny and huge numbers.
    w[3] = float("nan")
    w[4] = float("inf")
    w[5] = -float("inf")
    w[6] = -0.0
    w[7] = 1e-45  # an f32 subnormal
    w[8] = 1e-30
    return w


def save(path, tensor):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    torch.save({"x": tensor}, path)


def pair(out, case, narrow_type, wide_type, narrow_in="a", change=None, steps=2):
    for step in range(1, steps + 1):
        # f32 values even in f64: the narrow side is then one rounding of them, whichever way
        # torch converts f64 to a 16-bit type.
        wide = values(step).to(torch.float32).to(wide_type)
        if wide_type == torch.float32:
            wide[9] = 3.4e38  # rounds to bf16's Inf (past its largest finite + half an ULP)
        narrow = wide.to(narrow_type)
        if change and step == steps:
            change(narrow)
        sides = {"a": narrow, "b": wide} if narrow_in == "a" else {"a": wide, "b": narrow}
        for run, t in sides.items():
            save(os.path.join(out, case, run, "step_%d.pt" % step), t)


def beyond(narrow):
    # Eight ULPs of the narrow type away from its rounding: beyond it.
    bits = narrow.view(torch.int16)
    bits[FAR] += 8


def nan_at(narrow):
    narrow[11] = float("nan")


def main():
    out = sys.argv[1]
    pair(out, "bf16_within", torch.bfloat16, torch.float32)
    pair(out, "bf16_beyond", torch.bfloat16, torch.float32, change=beyond)
    pair(out, "f16_within", torch.float16, torch.float32)
    pair(out, "f16_beyond", torch.float16, torch.float32, change=beyond)
    pair(out, "bf16_nan", torch.bfloat16, torch.float32, change=nan_at)
    pair(out, "f64_against_bf16", torch.bfloat16, torch.float64, narrow_in="b")
    # Another shape is another tensor, whatever the precision.
    save(os.path.join(out, "shape", "a", "step_1.pt"), torch.zeros(4, 2, dtype=torch.bfloat16))
    save(os.path.join(out, "shape", "b", "step_1.pt"), torch.zeros(8, dtype=torch.float32))
    # An integer against a float is never compared.
    save(os.path.join(out, "int", "a", "step_1.pt"), torch.zeros(8, dtype=torch.int16))
    save(os.path.join(out, "int", "b", "step_1.pt"), torch.zeros(8, dtype=torch.float32))


if __name__ == "__main__":
    main()

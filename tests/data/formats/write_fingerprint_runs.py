#!/usr/bin/python3
"""Writes tests/data/formats/runs/fingerprint/: the same tensors as full tensors saved by
torch.save (run "torch", step_0.pt) and as a fingerprint log only (run "log"), whose
fingerprints are computed here with Python's own integers from docs/reference/fingerprint.md,
over each tensor's bytes in C order. dumpscope computes its fingerprints of the .pt tensors in
C++ (reading views through their strides), so the pair compares equal only if both agree.

The tensors cover every element type that torch 1.13 and dumpscope share, views (a transpose,
a slice with a storage offset, a strided slice), NaNs with payloads, +0 and -0, and sizes that
end inside an 8-byte word.

Run with Debian's interpreter, which has python3-torch:
    /usr/bin/python3 tests/data/formats/write_fingerprint_runs.py
The output is committed, so the test suite needs no torch.
"""
import collections
import json
import os
import shutil
import struct

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "runs", "fingerprint")

MASK = (1 << 64) - 1
G = 0x9E3779B97F4A7C15
C0 = 0x632BE59BD9B4E019
M1 = 0xBF58476D1CE4E5B9
M2 = 0x94D049BB133111EB


def mix(z):
    z = ((z ^ (z >> 30)) * M1) & MASK
    z = ((z ^ (z >> 27)) * M2) & MASK
    return z ^ (z >> 31)


def dsfp1(data):
    length = len(data)
    padded = data + b"\0" * (-length % 8)
    total = 0
    for i in range(len(padded) // 8):
        word = int.from_bytes(padded[8 * i : 8 * i + 8], "little")
        total = (total + mix(word ^ ((i * G + C0) & MASK))) & MASK
    return mix((total + (length + 1) * G) & MASK)


# The page's vectors, so that this reference is the page's definition.
assert "%016x" % dsfp1(b"") == "e220a8397b1dcdaf"
assert "%016x" % dsfp1(struct.pack("<3f", 1.0, 2.0, 3.0)) == "f1448d0b1b7c9725"
assert "%016x" % dsfp1(bytes(range(256))) == "5e57f44cebd0dfd9"

SAME_SIZE_INT = {
    torch.float16: torch.int16,
    torch.bfloat16: torch.int16,
    torch.float32: torch.int32,
    torch.float64: torch.int64,
}
NAMES = {
    torch.float16: "f16",
    torch.bfloat16: "bf16",
    torch.float32: "f32",
    torch.float64: "f64",
    torch.int8: "i8",
    torch.uint8: "u8",
    torch.int16: "i16",
    torch.int32: "i32",
    torch.int64: "i64",
}


def c_order_bytes(t):
    c = t.contiguous()
    if c.dtype in SAME_SIZE_INT:
        c = c.view(SAME_SIZE_INT[c.dtype])
    return c.numpy().tobytes()


def tensors():
    g = torch.Generator().manual_seed(30)
    out = collections.OrderedDict()
    base = torch.randn(5, 7, generator=g)
    for dtype in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
        out["float.%s" % NAMES[dtype]] = (base * 3).to(dtype)
    for dtype in (torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64):
        out["int.%s" % NAMES[dtype]] = torch.arange(-11, 12).to(dtype).reshape(23)
    special = torch.tensor([0.0, -0.0, float("nan"), float("inf"), -float("inf"), 1.0, -1.0])
    bits = special.view(torch.int32).clone()
    bits[5] = 0x7FC00123  # a NaN with a payload
    bits[6] = -0x00400001  # and a negative one
    out["special.f32"] = bits.view(torch.float32)
    out["special.f16"] = torch.tensor([0.0, -0.0, float("nan"), 5.0], dtype=torch.float16)
    storage = torch.randn(6, 9, generator=g)
    out["view.transpose"] = storage.t()  # strides (1, 9)
    out["view.slice"] = storage[2:5, 1:8]  # a storage offset and a row stride of 9
    out["view.step"] = storage[:, ::2]  # every other column
    out["view.bf16_transpose"] = storage.to(torch.bfloat16).t()
    out["odd.u8"] = torch.arange(13, dtype=torch.uint8)  # ends inside a word
    out["scalar.f64"] = torch.tensor(2.5, dtype=torch.float64)
    return out


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(os.path.join(OUT, "torch"))
    os.makedirs(os.path.join(OUT, "log"))
    named = tensors()
    torch.save(named, os.path.join(OUT, "torch", "step_0.pt"))
    header = {
        "format": "dumpscope-fingerprints",
        "version": 1,
        "fingerprint": "dsfp1",
        "mode": "hash",
        "rank": None,
        "writer": "write_fingerprint_runs.py torch %s" % torch.__version__,
    }
    buffers = []
    for name, t in named.items():
        fp = "%016x" % dsfp1(c_order_bytes(t))
        buffers.append([name, NAMES[t.dtype], list(t.shape), fp, None])
    with open(os.path.join(OUT, "log", "dumpscope-fingerprints.jsonl"), "w") as f:
        f.write(json.dumps(header, separators=(",", ":")) + "\n")
        step = {"step": 0, "file": None, "buffers": buffers}
        f.write(json.dumps(step, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Writes the pairs of runs under tests/data/formats/runs/ that the end-to-end tests read: the
same tensors dumped by torch.save, safetensors, numpy's .npz and a directory of .npy files per
step, each run with two ranks and two steps.

Run B differs from run A only on rank 1 at step 2: "layer1.out" by one unit in the last place of
one element (rounding), then "head.logits" (dumped after it) by a lot. In name order head.logits
comes first; in dump order (execution order) layer1.out does: the tests check that dumpscope
names layer1.out as the earliest divergence.

Run with Debian's interpreter, which has python3-numpy and python3-torch:
    /usr/bin/python3 tests/data/formats/write_runs.py
The output is committed, so the test suite needs neither library.
"""
import collections
import json
import os
import shutil
import struct

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "runs")


def tensors(run, rank, step):
    g = torch.Generator().manual_seed(1000 * rank + step)
    embed = torch.randn(4, 8, generator=g)
    attn = torch.randn(4, 8, generator=g).to(torch.bfloat16)
    out = torch.randn(4, 8, generator=g)
    logits = torch.randn(4, 3, generator=g)
    tokens = torch.arange(12, dtype=torch.int64).reshape(3, 4) + step
    mask = (torch.arange(6) % 2 == 0).reshape(2, 3)
    storage = torch.randn(40, generator=g)
    if run == "b" and rank == 1 and step == 2:
        bits = out.view(torch.int32)
        bits[2, 5] += 1  # one ulp: rounding
        logits[1] += 0.25  # downstream of it, much larger
    # Execution order, not name order: layer1.out is computed before head.logits.
    return collections.OrderedDict(
        [
            ("embed.out", embed),
            ("layer1.attn", attn),
            ("layer1.out", out),
            ("head.logits", logits),
            ("tokens", tokens),
            ("mask", mask),
            ("grads.slice", storage[10:20]),  # a view with a storage offset
            ("grads.t", storage[:12].view(3, 4).t()),  # a non-contiguous view
        ]
    )


def numpy_of(t):
    if t.dtype == torch.bfloat16:
        return t.contiguous().view(torch.int16).numpy()  # numpy has no bf16: the bits
    return t.contiguous().numpy()


ST_DTYPES = {torch.float32: "F32", torch.bfloat16: "BF16", torch.int64: "I64", torch.bool: "BOOL"}


def write_safetensors(path, named):
    header, blobs, offset = {}, [], 0
    for name, t in named.items():
        data = numpy_of(t).tobytes()
        header[name] = {"dtype": ST_DTYPES[t.dtype], "shape": list(t.shape),
                        "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    header["__metadata__"] = {"format": "pt"}
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    for run in ("a", "b"):
        for rank in (0, 1):
            for step in (1, 2):
                named = tensors(run, rank, step)
                for fmt in ("torch", "safetensors", "npz", "npy"):
                    d = os.path.join(OUT, fmt, run, "rank%d" % rank)
                    os.makedirs(d, exist_ok=True)
                    if fmt == "torch":
                        torch.save(named, os.path.join(d, "step_%d.pt" % step))
                    elif fmt == "safetensors":
                        write_safetensors(os.path.join(d, "step_%d.safetensors" % step), named)
                    elif fmt == "npz":
                        arrays = {k: numpy_of(v) for k, v in named.items() if v.dtype != torch.bfloat16}
                        np.savez_compressed(os.path.join(d, "step_%d.npz" % step), **arrays)
                    else:
                        sd = os.path.join(d, "step_%d" % step)
                        os.makedirs(sd, exist_ok=True)
                        for k, v in named.items():
                            if v.dtype != torch.bfloat16:
                                np.save(os.path.join(sd, k + ".npy"), numpy_of(v))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Rewrites a raw pair (make_pair's step_<N>_<file>.bin files) as the same buffers in .npy files
(OUT/npy/{a,b}/step_<N>_<file>.npy) and in stored torch.save files holding a step each
(OUT/pt/{a,b}/step_<N>.pt, keyed by the file names), with the default schema's element types:
bench/run.sh compares them to show what the formats cost against raw files.

Needs Debian's python3-numpy, and python3-torch for the .pt files (skipped without it).
Usage: /usr/bin/python3 bench/to_formats.py PAIR OUT SCHEMA.json
"""
import collections
import json
import os
import re
import sys

import numpy as np

NUMPY = {"f16": "<f2", "bf16": "<i2", "f32": "<f4", "f64": "<f8", "i8": "i1", "u8": "u1",
         "i16": "<i2", "u16": "<u2", "i32": "<i4", "u32": "<u4", "i64": "<i8", "u64": "<u8"}


def main():
    pair, out, schema_file = sys.argv[1:4]
    schema = json.load(open(schema_file))
    dtype_of = {b["file"]: b["dtype"] for g in schema["groups"] for b in g["buffers"]}
    try:
        import torch
    except ImportError:
        torch = None
        print("to_formats.py: no torch: .pt files not written", file=sys.stderr)
    for run in ("a", "b"):
        steps = collections.defaultdict(collections.OrderedDict)
        for name in sorted(os.listdir(os.path.join(pair, run))):
            m = re.fullmatch(r"step_(\d+)_(.+)\.bin", name)
            if not m:
                continue
            step, rest = int(m.group(1)), m.group(2)
            data = np.fromfile(os.path.join(pair, run, name), dtype=NUMPY[dtype_of.get(rest, "u8")])
            npy = os.path.join(out, "npy", run)
            os.makedirs(npy, exist_ok=True)
            # numpy has no bf16: raw 2-byte elements (<V2), whose type the schema names.
            saved = data.view("V2") if dtype_of.get(rest) == "bf16" else data
            np.save(os.path.join(npy, name[:-4] + ".npy"), saved)
            if dtype_of.get(rest) == "bf16" and torch is not None:
                steps[step][rest] = torch.from_numpy(data).view(torch.bfloat16)
            elif torch is not None:
                steps[step][rest] = torch.from_numpy(data)
        if torch is None:
            continue
        pt = os.path.join(out, "pt", run)
        os.makedirs(pt, exist_ok=True)
        for step, named in steps.items():
            torch.save(named, os.path.join(pt, "step_%d.pt" % step))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Writes runs/types/ beside this script (Debian's /usr/bin/python3, with python3-numpy and
python3-torch): one step-1 dump of a tensor "x" of 16 elements (the values -3, -2.5, ... 4.5, or
-3 ... 12 for integer types: exact in every type written) per format and element type, for
tests/cli/test_cli_type_pairs.cpp, which pairs every format with every other under two element
types and checks that they are never read as one type.

runs/types/FORMAT_TYPE/ holds step_1_x.npy (numpy.save), step_1.npz (numpy.savez, key x),
step_1.safetensors (written by hand as write_safetensors.py does, bytes from torch), step_1.pt
(torch.save of {"x": tensor}) or step_1_x.bin (the raw little-endian bytes, typed by a schema).
numpy has no bfloat16, so there is no npy_bf16 or npz_bf16.
"""
import json
import os

import numpy as np
import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "runs", "types")

# dumpscope's name: (torch dtype, numpy dtype or None, safetensors name)
TYPES = {
    "bf16": (torch.bfloat16, None, "BF16"),
    "f16": (torch.float16, "<f2", "F16"),
    "f32": (torch.float32, "<f4", "F32"),
    "f64": (torch.float64, "<f8", "F64"),
    "i32": (torch.int32, "<i4", "I32"),
    "i64": (torch.int64, "<i8", "I64"),
}


def values(name):
    torch_type = TYPES[name][0]
    if torch_type.is_floating_point:
        return torch.arange(16, dtype=torch.float64).mul(0.5).sub(3).to(torch_type)
    return torch.arange(16, dtype=torch.int64).sub(3).to(torch_type)


def raw(tensor):
    """The tensor's little-endian bytes (bfloat16 through its 16-bit pattern)."""
    if tensor.dtype == torch.bfloat16:
        return tensor.view(torch.int16).numpy().astype("<i2").tobytes()
    return tensor.numpy().tobytes()


def write_safetensors(path, key, dtype, tensor):
    data = raw(tensor)
    header = {key: {"dtype": dtype, "shape": list(tensor.shape), "data_offsets": [0, len(data)]}}
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(len(text).to_bytes(8, "little") + text + data)


def main():
    for name, (torch_type, numpy_type, safetensors_type) in TYPES.items():
        t = values(name)
        runs = {"safetensors": "step_1.safetensors", "pt": "step_1.pt", "bin": "step_1_x.bin"}
        if numpy_type:
            runs.update({"npy": "step_1_x.npy", "npz": "step_1.npz"})
        for fmt, file in runs.items():
            folder = os.path.join(OUT, fmt + "_" + name)
            os.makedirs(folder, exist_ok=True)
            path = os.path.join(folder, file)
            if fmt == "npy":
                np.save(path, t.numpy().astype(numpy_type))
            elif fmt == "npz":
                np.savez(path, x=t.numpy().astype(numpy_type))
            elif fmt == "safetensors":
                write_safetensors(path, "x", safetensors_type, t)
            elif fmt == "pt":
                torch.save({"x": t}, path)
            else:
                with open(path, "wb") as f:
                    f.write(raw(t))


if __name__ == "__main__":
    main()

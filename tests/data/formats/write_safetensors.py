#!/usr/bin/python3
"""Writes the safetensors fixtures in safetensors/ beside this script (run it from anywhere with
/usr/bin/python3, which has numpy). safetensors is an 8-byte little-endian header length, a JSON
header and the data; it is written here by hand as the reference writer does: tensors laid out
by descending element size, then by name, the header padded with spaces to a multiple of 8
bytes. The header's keys are sorted by name ("__metadata__" first), an order that differs from
the data's, as in the files of older writers (hash order). Beside each file, NAME.expected.json lists its tensors in
data order with the exact bytes written (hex), for the tests to compare with what dumpscope reads.
"""
import json
import os

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "safetensors")


def bf16(values):
    """bfloat16 bit patterns of float32 values, rounded to nearest even."""
    bits = np.asarray(values, dtype="<f4").view("<u4").astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype("<u2")


def write(name, tensors, metadata=None):
    """tensors: {key: (safetensors dtype, shape, little-endian bytes)}."""
    size = {"F64": 8, "I64": 8, "U64": 8, "F32": 4, "I32": 4, "U32": 4, "F16": 2, "BF16": 2,
            "I16": 2, "U16": 2, "I8": 1, "U8": 1, "BOOL": 1, "F8_E4M3": 1, "F8_E5M2": 1}
    order = sorted(tensors, key=lambda k: (-size[tensors[k][0]], k))
    header, data, expected = {}, b"", []
    for key in order:
        dtype, shape, raw = tensors[key]
        count = int(np.prod(shape, dtype=np.int64)) if shape else 1
        assert len(raw) == count * size[dtype], key
        header[key] = {"dtype": dtype, "shape": list(shape),
                       "data_offsets": [len(data), len(data) + len(raw)]}
        expected.append({"key": key, "dtype": dtype, "shape": list(shape),
                         "begin": len(data), "hex": raw.hex()})
        data += raw
    ordered = {}
    if metadata is not None:
        ordered["__metadata__"] = metadata
    for key in sorted(header):
        ordered[key] = header[key]
    text = json.dumps(ordered, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(os.path.join(OUT, name + ".safetensors"), "wb") as f:
        f.write(len(text).to_bytes(8, "little") + text + data)
    with open(os.path.join(OUT, name + ".expected.json"), "w") as f:
        json.dump({"data_start": 8 + len(text), "tensors": expected}, f, indent=1)
        f.write("\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(20261202)
    normal = rng.standard_normal(64).astype(np.float32)
    t = {
        "f64.weight": ("F64", (2, 3), rng.standard_normal(6).astype("<f8").tobytes()),
        "f32.act": ("F32", (4, 2), normal[:8].astype("<f4").tobytes()),
        "f16.act": ("F16", (3, 2), normal[8:14].astype("<f2").tobytes()),
        "bf16.act": ("BF16", (5,), bf16(normal[14:19]).tobytes()),
        "i64.index": ("I64", (3,), np.array([-(2**63), 7, 2**63 - 1], "<i8").tobytes()),
        "i32.index": ("I32", (2, 2), np.array([-1, 0, 1, 2**31 - 1], "<i4").tobytes()),
        "i16.index": ("I16", (3,), np.array([-32768, 5, 32767], "<i2").tobytes()),
        "i8.index": ("I8", (4,), np.array([-128, -1, 0, 127], "i1").tobytes()),
        "u64.count": ("U64", (2,), np.array([0, 2**64 - 1], "<u8").tobytes()),
        "u32.count": ("U32", (2,), np.array([1, 2**32 - 1], "<u4").tobytes()),
        "u16.count": ("U16", (2,), np.array([3, 65535], "<u2").tobytes()),
        "u8.count": ("U8", (3,), np.array([0, 128, 255], "u1").tobytes()),
        "mask": ("BOOL", (2, 3), np.array([1, 0, 0, 1, 1, 0], "?").tobytes()),
        # Every bit pattern of each FP8 type, as bytes (torch 1.13 has no float8).
        "f8.e4m3": ("F8_E4M3", (16, 16), np.arange(256, dtype=np.uint8).tobytes()),
        "f8.e5m2": ("F8_E5M2", (16, 16), np.arange(255, -1, -1, dtype=np.uint8).tobytes()),
        "scalar": ("F32", (), np.array(2.5, "<f4").tobytes()),
        "empty": ("F32", (0, 3), b""),
    }
    write("all_dtypes", t, {"format": "pt", "written_by": "write_safetensors.py"})
    write("no_metadata", {"x": ("F32", (2,), np.array([1.0, -0.0], "<f4").tobytes())})


if __name__ == "__main__":
    main()

"""What the capture's tests share: a pure-Python (int) fingerprint written straight from
docs/reference/fingerprint.md, independent of the package's torch one, and readers of the files
the capture writes (the log, safetensors) that rely on nothing of the package."""

import ctypes
import json
import os
import shutil
import struct
import tempfile
import unittest

MASK = (1 << 64) - 1
G = 0x9E3779B97F4A7C15
C0 = 0x632BE59BD9B4E019
M1 = 0xBF58476D1CE4E5B9
M2 = 0x94D049BB133111EB

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def _mix(z):
    z = ((z ^ (z >> 30)) * M1) & MASK
    z = ((z ^ (z >> 27)) * M2) & MASK
    return z ^ (z >> 31)


def reference_fp(data):
    """dsfp1 of bytes, with Python ints: the spec's definition, line for line."""
    length = len(data)
    n = (length + 7) // 8
    data = bytes(data) + b"\0" * (8 * n - length)
    s = 0
    for i in range(n):
        w = int.from_bytes(data[8 * i : 8 * i + 8], "little")
        s = (s + _mix(w ^ ((i * G + C0) & MASK))) & MASK
    return "%016x" % _mix((s + (length + 1) * G) & MASK)


def tensor_bytes(t):
    """t's bytes in C order, read through its address: no torch byte view, no numpy."""
    t = t.detach().cpu().contiguous()
    n = t.numel() * t.element_size()
    return ctypes.string_at(t.data_ptr(), n) if n else b""


def read_log(path):
    with open(path, "rb") as f:
        raw = f.read()
    assert raw.endswith(b"\n"), path
    lines = [json.loads(line) for line in raw.decode("utf-8").split("\n")[:-1]]
    return lines[0], lines[1:]


def read_safetensors(path):
    """[(name, dtype, shape, bytes)] in the header's key order, and the metadata."""
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n].decode("utf-8"))  # dicts keep the file's key order
    data = raw[8 + n :]
    metadata = header.pop("__metadata__", {})
    out = []
    end = 0
    for name, e in header.items():
        b, e_ = e["data_offsets"]
        assert b == end, "tensors are back to back in key order"
        end = e_
        out.append((name, e["dtype"], e["shape"], data[b:e_]))
    assert end == len(data), "no bytes past the last tensor"
    return out, metadata


class TempDirTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="dumpscope-capture-")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def path(self, *parts):
        return os.path.join(self.tmp, *parts)

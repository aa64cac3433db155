#!/usr/bin/python3
"""Writes the .npy, .npz and zip fixtures of tests/core/test_format_{npy,npz,zip}.cpp.

Run with Debian's python3 (numpy, torch): /usr/bin/python3 tests/data/formats/write_npy.py
Every file is written by numpy (np.save, np.savez, np.savez_compressed, np.lib.format), by
Python's zipfile or by torch.save; manifest.json records, for each tensor, what numpy says it is
(descr, shape) and its elements' bytes in C order, which the tests compare with what the readers
list and what is read at the listed location.
"""
import io
import json
import os
import shutil
import zipfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
NPY = os.path.join(HERE, "npy")
NPZ = os.path.join(HERE, "npz")
ZIP = os.path.join(HERE, "zip")
manifest = {}


def record(path, key, arr, bytes_too=True):
    rel = os.path.relpath(path, HERE)
    entry = {"descr": np.lib.format.dtype_to_descr(arr.dtype), "shape": list(arr.shape)}
    if bytes_too:
        entry["hex"] = np.ascontiguousarray(arr).tobytes().hex()
    manifest.setdefault(rel, {})[key] = entry


def save(name, arr, version=None):
    path = os.path.join(NPY, name)
    with open(path, "wb") as f:
        np.lib.format.write_array(f, arr, version=version, allow_pickle=False)
    record(path, "", arr)


def values(dtype, n=8):
    a = np.arange(-3, n - 3)
    if np.dtype(dtype).kind == "u":
        a = np.arange(250, 250 + n) if np.dtype(dtype).itemsize > 1 else np.arange(n) * 31
    if np.dtype(dtype).kind == "f":
        a = a * 0.75
    if np.dtype(dtype).kind == "b":
        a = a % 3 == 0
    return a.astype(dtype)


def write_npy():
    for d in ["<f2", "<f4", "<f8", "|i1", "<i2", "<i4", "<i8", "|u1", "<u2", "<u4", "<u8",
              "|b1"]:
        save("dtype_%s.npy" % np.dtype(d).name, values(d))
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, 3.4e38, -1.5], "<f4")
    save("special_f4.npy", special)
    save("scalar_f8.npy", np.array(2.5, "<f8"))
    save("cube_f4.npy", (np.arange(24) * 0.5).astype("<f4").reshape(2, 3, 4))
    save("empty_f4.npy", np.zeros((0, 3), "<f4"))
    save("fortran_i4.npy", np.asfortranarray(np.arange(24, dtype="<i4").reshape(2, 3, 4)))
    save("fortran_f2.npy", np.asfortranarray(values("<f2", 6).reshape(2, 3)))
    save("fortran_row_f4.npy", np.asfortranarray(values("<f4", 5).reshape(1, 5)))
    save("v1_i2.npy", values("<i2"), version=(1, 0))
    save("v2_f4.npy", values("<f4"), version=(2, 0))
    save("v3_u8.npy", values("<u8"), version=(3, 0))
    save("void_v2.npy", np.arange(4, dtype="<u2").view("V2"))
    save("complex_c8.npy", np.array([1 + 2j, -3j], "<c8"))
    # Refused: what dumpscope cannot compare byte for byte, or would misread.
    save("bigendian_f4.npy", values(">f4"))
    save("structured.npy", np.zeros(3, dtype=[("a", "<f4"), ("b", "<i2")]))
    save("unicode.npy", np.array(["ab", "c"]))
    with open(os.path.join(NPY, "object.npy"), "wb") as f:
        np.lib.format.write_array(f, np.array([1, "x"], dtype=object), allow_pickle=True)


def npz_arrays():
    return {
        "a": (np.arange(6) * 0.5).astype("<f4").reshape(2, 3),
        "b": values("<i8", 5),
        "c": values("|b1", 7),
        "d": values("<f2", 4),
        "s": np.array(7, "<i4"),
        "t": np.asfortranarray(np.arange(6, dtype="<u2").reshape(3, 2)),
    }


def write_npz():
    arrays = npz_arrays()
    for name, fn in [("stored.npz", np.savez), ("deflated.npz", np.savez_compressed)]:
        path = os.path.join(NPZ, name)
        fn(path, **arrays)
        for k, a in arrays.items():
            record(path, k, a)
    # A member of a few hundred KiB that deflates small: inflated across many output chunks.
    # Its bytes are not in the manifest (the tests compute i % 251 for element i).
    big = {"big": (np.arange(120000) % 251).astype("<u4"), "after": values("<f4", 3)}
    path = os.path.join(NPZ, "big_deflated.npz")
    np.savez_compressed(path, **big)
    record(path, "big", big["big"], bytes_too=False)
    record(path, "after", big["after"])
    # Keys with a '/' (members in a folder) and a member that is not an array.
    path = os.path.join(NPZ, "folders.npz")
    nested = {"enc/layer0/out": values("<f4", 4), "top": values("<i2", 2)}
    np.savez(path, **nested)
    with zipfile.ZipFile(path, "a") as z:
        z.writestr("notes.txt", "not an array")
    for k, a in nested.items():
        record(path, k.replace("/", "."), a)
    # Zip64 everywhere: numpy's savez always writes zip64 local headers; lowering zipfile's
    # limits makes it write zip64 central entries and the zip64 end records too.
    path = os.path.join(NPZ, "zip64.npz")
    saved = (zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT)
    zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT = 1, 1
    try:
        np.savez(path, first=values("<f8", 3), second=values("<u1", 9))
    finally:
        zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT = saved
    record(path, "first", values("<f8", 3))
    record(path, "second", values("<u1", 9))


def write_zip():
    import torch  # only here: the .npy and .npz fixtures need numpy alone

    # torch.save's own zip writer (miniz): zip64 end records, padded local extra fields.
    path = os.path.join(ZIP, "torch_dict.pt")
    torch.save({"w": torch.arange(6, dtype=torch.float32)}, path)
    path = os.path.join(ZIP, "mixed.zip")
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("stored.bin"), bytes(range(200)), zipfile.ZIP_STORED)
        z.writestr(zipfile.ZipInfo("deflated.txt"), b"dumpscope " * 300, zipfile.ZIP_DEFLATED)
        z.writestr(zipfile.ZipInfo("empty"), b"", zipfile.ZIP_STORED)
        z.comment = b"a comment after the end record"


def main():
    for d in (NPY, NPZ, ZIP):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    write_npy()
    write_npz()
    write_zip()
    with open(os.path.join(HERE, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")


main()

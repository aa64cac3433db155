#!/usr/bin/python3
"""Writes the torch.save fixtures of tests/core/test_format_torch.cpp into torch/.

Run with Debian's python3 (torch): /usr/bin/python3 tests/data/formats/write_torch.py
Every .pt is written by torch.save (one re-zipped with deflate by Python's zipfile, one by
torch.jit.save); torch/expected.json records, for each tensor listed, its dotted key, its dtype
as torch prints it, its shape and its elements' bytes in C order, which the tests compare with
what listTorchSave lists and with what is read at the listed location. The data.pkl of each
file is also copied into tests/fuzz/corpus/pickle/ as a seed for fuzz_pickle.
"""
import collections
import json
import os
import shutil
import zipfile

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "torch")
SEEDS = os.path.join(HERE, "..", "..", "fuzz", "corpus", "pickle")
expected = {}


def c_order_bytes(t):
    t = t.detach().contiguous()
    if t.dtype == torch.bfloat16:
        t = t.view(torch.int16)  # numpy has no bfloat16: the same two bytes as an int16
    return t.numpy().tobytes()


def walk(obj, key, out):
    """The tensors of obj in insertion order, named the way dumpscope names them."""
    join = lambda k: str(k) if key == "" else key + "." + str(k)
    if isinstance(obj, torch.Tensor):
        out.append((key, obj))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            walk(v, join(k), out)
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            walk(v, join(i), out)


def save(name, obj, listed=True):
    path = os.path.join(OUT, name)
    torch.save(obj, path)
    if listed:
        tensors = []
        walk(obj, "", tensors)
        expected[name] = [
            {"key": k, "type": str(t.dtype), "shape": list(t.shape),
             "contiguous": t.is_contiguous(), "hex": c_order_bytes(t).hex()}
            for k, t in tensors
        ]
    return path


def values(dtype, n):
    a = torch.arange(-3, n - 3, dtype=torch.float64) * 0.75
    if dtype == torch.bool:
        return torch.arange(n) % 3 == 0
    if dtype == torch.uint8:
        return (torch.arange(n) * 31 % 256).to(torch.uint8)
    if not dtype.is_floating_point:
        return torch.arange(-3, n - 3).to(dtype)
    return a.to(dtype)


def write_all():
    torch.manual_seed(23)
    save("dict.pt", {"x": torch.randn(2, 3), "y": torch.arange(5), "note": "hello",
                     "lr": 0.1, "none": None})
    save("nested.pt", {"layer1": {"attn": {"out": torch.randn(3, 2)}},
                       "grads": [torch.randn(4), torch.randn(2, 2)], "meta": (1, "a", 2.5)})
    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2))
    save("state_dict.pt", model.state_dict())
    save("parameter.pt", {"w": torch.nn.Parameter(torch.randn(2, 2)), "step": 7})
    save("tensor.pt", torch.arange(6, dtype=torch.int32).reshape(2, 3))

    # Views of one storage: a slice with an offset, transposes and strided columns.
    big = torch.arange(60, dtype=torch.float32).reshape(6, 10)
    views = collections.OrderedDict()
    views["slice"] = big.view(-1)[10:20]
    views["t"] = big.t()
    views["every_other"] = big[:, ::2]
    views["row"] = big[2]
    views["block"] = big[1:4, 2:5]
    views["column"] = big[:, 7:8]
    save("views.pt", views)

    dtypes = collections.OrderedDict()
    for dt in [torch.bfloat16, torch.float16, torch.float32, torch.float64, torch.int64,
               torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool]:
        dtypes[str(dt).replace("torch.", "")] = values(dt, 7)
    dtypes["scalar"] = torch.tensor(-2.5, dtype=torch.float32)
    dtypes["empty"] = torch.zeros(0, 3)
    dtypes["complex"] = torch.tensor([1 + 2j, -0.5j], dtype=torch.complex64)
    save("dtypes.pt", dtypes)

    # A deflated copy of views.pt, as a zip tool that recompresses would write it.
    rezip("views.pt", "deflated.pt", method=zipfile.ZIP_DEFLATED)
    # Only its contiguous views can be read from a deflate stream.
    expected["deflated.pt"] = [e for e in expected["views.pt"] if e["contiguous"]]

    torch.save({"x": torch.ones(2)}, os.path.join(OUT, "legacy.pt"),
               _use_new_zipfile_serialization=False)
    # Globals torch.save writes for what is not a tensor: refused by name.
    save("refused_counter.pt", {"x": torch.ones(2), "c": collections.Counter("ab")}, False)
    save("refused_eval.pt", {"x": torch.ones(2), "f": eval}, False)
    save("refused_reduce.pt", {"x": torch.ones(2), "r": Shell()}, False)

    torch.jit.save(torch.jit.script(torch.nn.Linear(2, 2)), os.path.join(OUT, "script.pt"))

    # Protocol 4: frames, MEMOIZE, SHORT_BINUNICODE and STACK_GLOBAL around the same tensors.
    path = save("protocol4.pt", {"a": torch.arange(4, dtype=torch.int16),
                                 "b": [torch.ones(2, 2, dtype=torch.float64)]})
    torch.save(torch.load(path), path, pickle_protocol=4)

    # torch >= 2.1 adds a byteorder record; a big-endian one cannot be read as it is.
    rezip("views.pt", "byteorder.pt", extra=("byteorder", b"little"))
    rezip("views.pt", "bigendian.pt", extra=("byteorder", b"big"))
    expected["byteorder.pt"] = expected["views.pt"]
    # A storage cut short, so that a view reaches past its end; a zip that is no torch.save.
    rezip("views.pt", "short_storage.pt", cut=("data/0", 160))
    with zipfile.ZipFile(os.path.join(OUT, "nodata.pt"), "w") as z:
        z.writestr(zipfile.ZipInfo("nodata/readme.txt", date_time=(1980, 1, 1, 0, 0, 0)), b"hi")


def rezip(src_name, dst_name, extra=None, cut=None, method=zipfile.ZIP_STORED):
    """A copy of a torch.save file, member by member, with a member added or cut short."""
    with zipfile.ZipFile(os.path.join(OUT, src_name)) as src, \
            zipfile.ZipFile(os.path.join(OUT, dst_name), "w") as dst:
        prefix = src.namelist()[0].split("/")[0] + "/"
        for info in src.infolist():  # a fixed date, so that writing again changes nothing
            data = src.read(info.filename)
            if cut and info.filename == prefix + cut[0]:
                data = data[:cut[1]]
            member = zipfile.ZipInfo(info.filename, date_time=(1980, 1, 1, 0, 0, 0))
            dst.writestr(member, data, method)
        if extra:
            member = zipfile.ZipInfo(prefix + extra[0], date_time=(1980, 1, 1, 0, 0, 0))
            dst.writestr(member, extra[1], method)


class Shell:
    """An object whose unpickling would run a shell command."""

    def __reduce__(self):
        return (os.system, ("true",))


def rebuild_v3_pickle():
    """What torch >= 2.1 writes for dtypes without a storage type (torch 1.13 cannot): an
    UntypedStorage and _rebuild_tensor_v3 with the dtype. {"u": uint16 [3] at element 1, "f":
    float8_e4m3fn [4]}, both on storage "0" of 8 bytes."""
    def v3(dtype, tail):
        return (b"ctorch._utils\n_rebuild_tensor_v3\n((X\x07\0\0\0storagectorch\nUntypedStorage\n"
                b"X\x01\0\0\0" b"0X\x03\0\0\0cpuK\x08tQ" + tail + b"\x89}ctorch\n" + dtype +
                b"\ntR")
    return (b"\x80\x02}(X\x01\0\0\0u" + v3(b"uint16", b"K\x01K\x03\x85K\x01\x85") +
            b"X\x01\0\0\0f" + v3(b"float8_e4m3fn", b"K\0K\x04\x85K\x01\x85") + b"u.")


def write_seeds():
    shutil.rmtree(SEEDS, ignore_errors=True)
    os.makedirs(SEEDS)
    for name in sorted(os.listdir(OUT)):
        path = os.path.join(OUT, name)
        if not zipfile.is_zipfile(path) or name.endswith("_storage.pt") or \
                name in ("deflated.pt", "byteorder.pt", "bigendian.pt"):  # views.pt's pickle
            continue
        with zipfile.ZipFile(path) as z:
            for member in z.namelist():
                if member.endswith("data.pkl"):
                    with open(os.path.join(SEEDS, name.replace(".pt", ".pkl")), "wb") as f:
                        f.write(z.read(member))
    with open(os.path.join(SEEDS, "rebuild_v3.pkl"), "wb") as f:
        f.write(rebuild_v3_pickle())


if __name__ == "__main__":
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    write_all()
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")
    write_seeds()

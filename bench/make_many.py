#!/usr/bin/env python3
"""Writes a pair whose cost is in the number of buffer pairs, not their bytes.

  make_many.py DIR --steps N          N steps of one 16-byte buffer (one group "T"):
                                      the window's per-snapshot cost against the run's length
  make_many.py DIR --files N          one step of N 16-byte buffers (all in group "T"):
                                      the per-pair bookkeeping of the CLI
  make_many.py DIR --npy N            one step of N one-tensor .npy files and no schema: the
                                      runs in their own terms, each tensor's type from its file
  make_many.py DIR --roots N          a capture's fingerprint log per run (no tensor files), one
                                      step of N buffers that all diverge and whose recorded
                                      inputs are empty: N independent root buffers
  make_many.py DIR --ranks R          R rank folders (rank0/ ...), each --per-rank buffers over
                                      4 steps, with the schema: the rank views and overview

Writes DIR/a, DIR/b and, but for --npy and --roots, DIR/schema.json. B differs from A in every
10th buffer (--every K: every K-th; --roots: every buffer), so the matrix has divergent cells,
statistics and histograms as a real run would. bench/scale.sh times the CLI and the window on
each at n and 10n; by hand:

  QT_QPA_PLATFORM=offscreen /usr/bin/time -f '%e s %M KB' \\
      build/app/dumpscope DIR/a DIR/b --schema DIR/schema.json --screenshot /tmp/x.png
  /usr/bin/time -f '%e s %M KB' build/app/dumpscope-cli DIR/a DIR/b --schema DIR/schema.json
"""
import argparse
import json
import os
import struct

EQUAL = struct.pack("<4f", 1.0, 2.0, 3.0, 4.0)
OTHER = struct.pack("<4f", 1.0, 2.0, 3.0, 4.5)
STEPS_PER_RANK = 4


DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def short_name(i):
    """Buffer i's name in base 62: a schema of 100,000 entries in under 4 MiB, quick to parse."""
    name = ""
    while True:
        name = DIGITS[i % 62] + name
        i //= 62
        if i == 0:
            return name


def write_schema(directory, names):
    """Group "T" of `names`, each buffer's file basename its name: step_<N>_<name>.bin."""
    schema = {
        "name": "many pairs",
        "version": 1,
        "groups": [{
            "id": "T",
            "label": "T (tiny buffers)",
            "buffers": [{"name": k, "file": k, "dtype": "f32"} for k in names],
        }],
    }
    with open(os.path.join(directory, "schema.json"), "w") as f:
        json.dump(schema, f, separators=(",", ":"))


def write_pair(directory, relative, differs, a_bytes=EQUAL, b_bytes=OTHER):
    for side, data in (("a", a_bytes), ("b", b_bytes if differs else a_bytes)):
        path = os.path.join(directory, side, relative)
        with open(path, "wb") as f:
            f.write(data)


def npy(payload):
    """A version 1.0 .npy file of float32 [4], its header padded to 64 bytes as numpy does."""
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }"
    header += " " * (64 - 10 - len(header) - 1) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + payload


def fingerprint_log(directory, side, n):
    """The log of a hash-mode capture: step 0 only, every buffer fed by nothing captured."""
    buffers = []
    for i in range(n):
        fp = (i * 0x9E3779B97F4A7C15 + (1 if side == "b" else 0)) % (1 << 64)
        buffers.append(["x%d" % i, "f32", [4], "%016x" % fp, []])
    header = {"format": "dumpscope-fingerprints", "version": 1, "fingerprint": "dsfp1",
              "mode": "hash", "rank": None, "writer": "make_many.py"}
    with open(os.path.join(directory, side, "dumpscope-fingerprints.jsonl"), "w") as f:
        f.write(json.dumps(header) + "\n")
        f.write(json.dumps({"step": 0, "file": None, "buffers": buffers}) + "\n")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dir")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--steps", type=int)
    g.add_argument("--files", type=int)
    g.add_argument("--npy", type=int)
    g.add_argument("--roots", type=int)
    g.add_argument("--ranks", type=int)
    p.add_argument("--every", type=int, default=10)
    p.add_argument("--per-rank", type=int, default=200, help="buffers per rank (--ranks)")
    args = p.parse_args()
    for side in ("a", "b"):
        os.makedirs(os.path.join(args.dir, side), exist_ok=True)
    every = args.every

    def differs(i):
        return i % every == every - 1

    if args.roots:
        for side in ("a", "b"):
            fingerprint_log(args.dir, side, args.roots)
    elif args.npy:
        for i in range(args.npy):
            write_pair(args.dir, "step_0_x%d.npy" % i, differs(i), npy(EQUAL), npy(OTHER))
    elif args.ranks:
        per_step = max(1, args.per_rank // STEPS_PER_RANK)
        names = [short_name(k) for k in range(per_step)]
        write_schema(args.dir, names)
        i = 0
        for rank in range(args.ranks):
            for side in ("a", "b"):
                os.makedirs(os.path.join(args.dir, side, "rank%d" % rank), exist_ok=True)
            for step in range(STEPS_PER_RANK):
                for name in names:
                    write_pair(args.dir, "rank%d/step_%d_%s.bin" % (rank, step, name), differs(i))
                    i += 1
    else:
        n = args.steps or args.files
        names = ["x"] if args.steps else [short_name(i) for i in range(n)]
        write_schema(args.dir, names)
        for i in range(n):
            step, name = (i, "x") if args.steps else (0, names[i])
            write_pair(args.dir, "step_%d_%s.bin" % (step, name), differs(i))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes a pair whose cost is in the number of buffer pairs, not their bytes.

  make_many.py DIR --steps N          N steps of one 16-byte buffer (one group "T"):
                                      the window's per-snapshot cost against the run's length
  make_many.py DIR --files N          one step of N 16-byte buffers (all in group "T"):
                                      the per-pair bookkeeping of the CLI

Writes DIR/a, DIR/b and DIR/schema.json. B differs from A in every 10th file (--every K: every
K-th), so the matrix has divergent cells, statistics and histograms as a real run would. Measure with, e.g.:

  QT_QPA_PLATFORM=offscreen /usr/bin/time -f '%e s %M KB' \\
      build/app/dumpscope DIR/a DIR/b --schema DIR/schema.json --screenshot /tmp/x.png
  /usr/bin/time -f '%e s %M KB' build/app/dumpscope-cli DIR/a DIR/b --schema DIR/schema.json
"""
import argparse
import json
import os
import struct


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dir")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--steps", type=int)
    g.add_argument("--files", type=int)
    p.add_argument("--every", type=int, default=10)
    args = p.parse_args()
    n = args.steps or args.files
    names = ["x"] if args.steps else ["x%d" % i for i in range(n)]
    schema = {
        "name": "many pairs",
        "version": 1,
        "groups": [{
            "id": "T",
            "label": "T (tiny buffers)",
            "buffers": [{"name": k, "file": "t_" + k, "dtype": "f32"} for k in names],
        }],
    }
    for side in ("a", "b"):
        os.makedirs(os.path.join(args.dir, side), exist_ok=True)
    with open(os.path.join(args.dir, "schema.json"), "w") as f:
        json.dump(schema, f)
    equal = struct.pack("<4f", 1.0, 2.0, 3.0, 4.0)
    other = struct.pack("<4f", 1.0, 2.0, 3.0, 4.5)
    for i in range(n):
        step, name = (i, "x") if args.steps else (0, names[i])
        file = "step_%d_t_%s.bin" % (step, name)
        with open(os.path.join(args.dir, "a", file), "wb") as f:
            f.write(equal)
        with open(os.path.join(args.dir, "b", file), "wb") as f:
            f.write(other if i % args.every == args.every - 1 else equal)


if __name__ == "__main__":
    main()

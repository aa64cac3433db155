#!/usr/bin/python3
"""Writes a tensor-parallel run (TP=2: rank0/ and rank1/) and its TP=1 twin (rank0/ alone) with
torch.save, for tests/cli/test_cli_shards.cpp (which runs it at test time into a temporary
directory):

    /usr/bin/python3 tests/data/shards/write_shard_runs.py OUT

OUT/tp2 holds each step's "mlp.w" [4, 16] split along axis 1 and "attn.qkv" [12000, 8] split along
axis 0 (the second larger than one chunk of the compare); OUT/tp1 holds them whole. OUT/tp2_bad
is tp2 with one element changed in rank 1's shard of each at step 2: mlp.w at (2, 3) of the shard,
(2, 11) of the whole tensor, flat index 43; attn.qkv at (100, 5) of the shard, (6100, 5) of the
whole, flat index 48805.
"""
import os
import sys

import torch


def tensors(step):
    g = torch.Generator().manual_seed(step)
    return torch.randn(4, 16, generator=g), torch.randn(12000, 8, generator=g)


def save(out, run, rank, step, named):
    d = os.path.join(out, run, "rank%d" % rank)
    os.makedirs(d, exist_ok=True)
    torch.save(named, os.path.join(d, "step_%d.pt" % step))


def main():
    out = sys.argv[1]
    for step in (1, 2):
        w, qkv = tensors(step)
        save(out, "tp1", 0, step, {"mlp.w": w, "attn.qkv": qkv})
        for run in ("tp2", "tp2_bad"):
            for rank in (0, 1):
                # .clone(): a slice saved alone would carry its whole storage.
                w_shard = w[:, 8 * rank:8 * (rank + 1)].clone()
                qkv_shard = qkv[6000 * rank:6000 * (rank + 1)].clone()
                if run == "tp2_bad" and rank == 1 and step == 2:
                    w_shard[2, 3] += 1.0
                    qkv_shard[100, 5] += 1.0
                save(out, run, rank, step, {"mlp.w": w_shard, "attn.qkv": qkv_shard})


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Writes tensor-parallel runs with a replicated tensor, for tests/cli/test_cli_replicated.cpp
(which runs it at test time into a temporary directory):

    /usr/bin/python3 tests/data/replicated/write_replicated_runs.py OUT

Each step of each run holds "ln.weight" [64], a LayerNorm weight every rank holds whole and
alike, and "mlp.w" [4, 16], split along axis 1 across the ranks of a TP run.

OUT/tp1    rank0/ alone, the whole tensors.
OUT/tp2    rank0/ and rank1/, ln.weight the same on both.
OUT/tp2_bad  tp2 with ln.weight on rank 1 at step 2 changed at indices 37 and 50.
OUT/tp3_bad0 rank0/ to rank2/ holding ln.weight alone, rank 0's changed at index 5 at step 1.
"""
import os
import sys

import torch


def tensors(step):
    g = torch.Generator().manual_seed(step)
    return torch.randn(64, generator=g), torch.randn(4, 16, generator=g)


def save(out, run, rank, step, named):
    d = os.path.join(out, run, "rank%d" % rank)
    os.makedirs(d, exist_ok=True)
    torch.save(named, os.path.join(d, "step_%d.pt" % step))


def main():
    out = sys.argv[1]
    for step in (1, 2):
        ln, w = tensors(step)
        save(out, "tp1", 0, step, {"ln.weight": ln, "mlp.w": w})
        for run in ("tp2", "tp2_bad"):
            for rank in (0, 1):
                ln_rank = ln.clone()
                if run == "tp2_bad" and rank == 1 and step == 2:
                    ln_rank[37] += 0.5
                    ln_rank[50] -= 0.25
                w_shard = w[:, 8 * rank:8 * (rank + 1)].clone()
                save(out, run, rank, step, {"ln.weight": ln_rank, "mlp.w": w_shard})
        for rank in (0, 1, 2):
            ln_rank = ln.clone()
            if rank == 0 and step == 1:
                ln_rank[5] = 7.0
            save(out, "tp3_bad0", rank, step, {"ln.weight": ln_rank})


if __name__ == "__main__":
    main()

"""What dumpscope_capture costs a training step: a small GPT-style transformer trained on the CPU
with no capture, then with each mode, the median step time of each (the step includes
cap.step(): fingerprints read back, log line, tensors written), and the disk each step takes.

    PYTHONPATH=python /usr/bin/python3 bench/capture_overhead.py [--steps 20] [--threads 2]
        [--device cpu|cuda] [--dim 128] [--layers 4] [--seq 64] [--batch 4]

auto runs against the hash run's log, with the same seed: every step matches, so it pays the
fingerprints, the copies it keeps until the step is decided, and the comparison, but writes no
tensors (a divergent step costs what a full step does).
"""

import argparse
import json
import math
import os
import shutil
import statistics
import sys
import tempfile
import time

import torch
from torch import nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from dumpscope_capture import Capture  # noqa: E402

VOCAB, HEADS = 512, 4
DIM, SEQ, BATCH, LAYERS = 128, 64, 4, 4  # set from the command line


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(DIM, 3 * DIM)
        self.proj = nn.Linear(DIM, DIM)

    def forward(self, x):
        b, s, _ = x.shape
        q, k, v = self.qkv(x).view(b, s, 3, HEADS, DIM // HEADS).permute(2, 0, 3, 1, 4)
        att = (q @ k.transpose(-1, -2) / math.sqrt(DIM // HEADS))
        causal = torch.ones(s, s, dtype=torch.bool, device=x.device).triu(1)
        att = att.masked_fill(causal, float("-inf")).softmax(-1)
        return self.proj((att @ v).transpose(1, 2).reshape(b, s, DIM))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.attn = nn.LayerNorm(DIM), Attention()
        self.ln2 = nn.LayerNorm(DIM)
        self.mlp = nn.Sequential(nn.Linear(DIM, 4 * DIM), nn.GELU(), nn.Linear(4 * DIM, DIM))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Parameter(torch.zeros(SEQ, DIM))
        self.layers = nn.ModuleList([Block() for _ in range(LAYERS)])
        self.norm, self.head = nn.LayerNorm(DIM), nn.Linear(DIM, VOCAB)

    def forward(self, tokens):
        x = self.embed(tokens) + self.pos
        for layer in self.layers:
            x = layer(x)
        return self.head(self.norm(x))


def run(mode, run_dir, steps, device, reference=None):
    """Trains steps steps, yielding each one's time (its cap.step() included)."""
    torch.manual_seed(0)
    model = GPT().to(device)
    sync = torch.cuda.synchronize if device.startswith("cuda") else (lambda: None)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(1)
    cap = None
    if mode:
        cap = Capture(run_dir, mode=mode, reference=reference).watch(model)
    for step in range(steps):
        batch = torch.randint(0, VOCAB, (BATCH, SEQ + 1), generator=g).to(device)
        sync()
        t0 = time.perf_counter()
        opt.zero_grad(set_to_none=True)
        logits = model(batch[:, :-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), batch[:, 1:].reshape(-1))
        loss.backward()
        opt.step()
        if cap:
            cap.step(step, loss=loss)
        sync()
        yield time.perf_counter() - t0
    if cap:
        cap.close()


def disk_and_buffers(run_dir, steps):
    disk = sum(os.path.getsize(os.path.join(run_dir, f)) for f in os.listdir(run_dir))
    with open(os.path.join(run_dir, "dumpscope-fingerprints.jsonl")) as f:
        f.readline()
        return disk / steps, len(json.loads(f.readline())["buffers"])


def main():
    global DIM, LAYERS, SEQ, BATCH
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--device", default="cpu")
    p.add_argument("--dim", type=int, default=DIM)
    p.add_argument("--layers", type=int, default=LAYERS)
    p.add_argument("--seq", type=int, default=SEQ)
    p.add_argument("--batch", type=int, default=BATCH)
    a = p.parse_args()
    DIM, LAYERS, SEQ, BATCH = a.dim, a.layers, a.seq, a.batch
    torch.set_num_threads(a.threads)
    work = tempfile.mkdtemp(prefix="dumpscope-capture-bench-")
    try:
        # auto's reference, written first; then the four runs a step each in turn, so that a
        # change in the machine's load reaches them all alike.
        for _ in run("hash", os.path.join(work, "reference"), a.steps, a.device):
            pass
        modes = [None, "hash", "full", "auto"]
        runs = [run(m, os.path.join(work, m or "none"), a.steps, a.device,
                    os.path.join(work, "reference") if m == "auto" else None) for m in modes]
        times = [[] for _ in modes]
        for _ in range(a.steps):
            for t, r in zip(times, runs):
                t.append(next(r))
        for r in runs:
            for _ in r:  # closes the captures
                pass
        base = statistics.median(times[0][2:])  # the first steps warm the allocator up
        params = sum(p.numel() for p in GPT().parameters())
        print("torch %s on %s (%d threads), %d-layer transformer, width %d (%.2f M parameters), "
              "batch %d x %d tokens, median of steps 2..%d" % (
                  torch.__version__, a.device, a.threads, LAYERS, DIM, params / 1e6, BATCH, SEQ,
                  a.steps - 1))
        print("| mode | buffers/step | step (ms) | overhead | disk/step |")
        print("|---|---|---|---|---|")
        for m, t in zip(modes, times):
            med = statistics.median(t[2:])
            if m is None:
                print("| no capture | - | %.1f | - | - |" % (med * 1e3))
                continue
            disk, buffers = disk_and_buffers(os.path.join(work, m), a.steps)
            size = "%.1f MB" % (disk / 1e6) if disk > 1e6 else "%.1f KB" % (disk / 1e3)
            print("| %s | %d | %.1f | %+.0f%% | %s |" % (m, buffers, med * 1e3,
                                                        (med / base - 1) * 100, size))
    finally:
        shutil.rmtree(work, True)


if __name__ == "__main__":
    main()

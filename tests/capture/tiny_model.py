"""A tiny transformer trained a few steps on the CPU, captured with dumpscope_capture: the
fixture of the capture's tests, and of end-to-end tests against dumpscope-cli.

    train(run_dir, mode, reference=None, inject_from_step=None, module="layers.1.mlp",
          steps=6, seed=0, **capture_options)

trains the same model on the same data every time (seed), capturing into run_dir with mode
("full", "hash", "auto" with reference=; None: no capture). With inject_from_step=K, the output
of `module` gets, from step K on, the difference between a sum over its last dimension taken
in a random order and the same sum in the natural order: float32 rounding, a few ULP, so that
run differs from a run without injection first at step K, first in that module's output.

From a shell (the end-to-end tests): /usr/bin/python3 tests/capture/tiny_model.py RUN_DIR
--mode hash [--reference RUN] [--inject-from-step K] [--module NAME] [--steps N] [--seed S]
(PYTHONPATH must reach the project's python/ directory).
"""

import argparse
import math
import os
import sys

import torch
from torch import nn

VOCAB, DIM, HEADS, SEQ, BATCH, LAYERS = 64, 32, 2, 16, 4, 2


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_proj = nn.Linear(DIM, DIM)
        self.k_proj = nn.Linear(DIM, DIM)
        self.v_proj = nn.Linear(DIM, DIM)
        self.o_proj = nn.Linear(DIM, DIM)

    def forward(self, x):
        b, s, _ = x.shape
        heads = lambda t: t.view(b, s, HEADS, DIM // HEADS).transpose(1, 2)  # noqa: E731
        q, k, v = heads(self.q_proj(x)), heads(self.k_proj(x)), heads(self.v_proj(x))
        scores = q @ k.transpose(-1, -2) / math.sqrt(DIM // HEADS)
        causal = torch.ones(s, s, dtype=torch.bool).triu(1)
        att = scores.masked_fill(causal, float("-inf")).softmax(-1)
        return self.o_proj((att @ v).transpose(1, 2).reshape(b, s, DIM))


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(DIM, 4 * DIM)
        self.act = nn.GELU()
        self.down = nn.Linear(4 * DIM, DIM)

    def forward(self, x):
        return self.down(self.act(self.up(x)))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1 = nn.LayerNorm(DIM)
        self.attn = Attention()
        self.ln2 = nn.LayerNorm(DIM)
        self.mlp = MLP()

    def forward(self, x):
        x = x + self.attn(self.ln1(x))  # the residual sums are outside any module
        return x + self.mlp(self.ln2(x))


class TinyTransformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Parameter(torch.zeros(SEQ, DIM))
        self.layers = nn.ModuleList([Block() for _ in range(LAYERS)])
        self.norm = nn.LayerNorm(DIM)
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, tokens):
        x = self.embed(tokens) + self.pos
        for layer in self.layers:
            x = layer(x)
        return self.head(self.norm(x))


def batches(seed, steps):
    g = torch.Generator().manual_seed(seed + 1)
    return [torch.randint(0, VOCAB, (BATCH, SEQ + 1), generator=g) for _ in range(steps)]


class Injection:
    """From step K on, adds to a module's output (sum in a random order - sum in order): the
    same value but for float32 rounding. The permutation has its own generator, so that the
    model's own random state is the same with and without it."""

    def __init__(self, from_step, seed):
        self.from_step, self.step = from_step, 0
        self.gen = torch.Generator().manual_seed(seed + 2)

    def __call__(self, _module, _args, out):
        if self.step < self.from_step:
            return None
        with torch.no_grad():
            perm = torch.randperm(out.shape[-1], generator=self.gen)
            delta = out[..., perm].sum(-1, keepdim=True) - out.sum(-1, keepdim=True)
        return out + delta


def train(run_dir, mode, reference=None, inject_from_step=None, module="layers.1.mlp",
          steps=6, seed=0, optimizer="adam", capture_steps=None, **capture_options):
    """Trains steps steps, capturing into run_dir with mode (None: no capture); capture_steps
    is the Capture's steps= (the steps written in full); returns the final parameters."""
    from dumpscope_capture import Capture

    torch.manual_seed(seed)
    model = TinyTransformer()
    opt = (torch.optim.Adam(model.parameters(), lr=1e-2) if optimizer == "adam"
           else torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9))
    injection = None
    if inject_from_step is not None:
        injection = Injection(inject_from_step, seed)
        # Registered before the capture's hooks, so the capture sees the injected output, as
        # it would see a module whose forward computed it.
        dict(model.named_modules())[module].register_forward_hook(injection)
    cap = None
    if mode is not None:
        if capture_steps is not None:
            capture_options["steps"] = capture_steps
        cap = Capture(run_dir, mode=mode, reference=reference, **capture_options)
        cap.watch(model)
    for step, batch in enumerate(batches(seed, steps)):
        if injection is not None:
            injection.step = step
        opt.zero_grad()
        logits = model(batch[:, :-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), batch[:, 1:].reshape(-1))
        loss.backward()
        opt.step()
        if cap is not None:
            cap.step(step, loss=loss)
    if cap is not None:
        cap.close()
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


def main(argv):
    p = argparse.ArgumentParser(description="Train the tiny transformer and capture it.")
    p.add_argument("run_dir")
    p.add_argument("--mode", choices=["full", "hash", "auto"], required=True)
    p.add_argument("--reference")
    p.add_argument("--inject-from-step", type=int)
    p.add_argument("--module", default="layers.1.mlp")
    p.add_argument("--steps", type=int, default=6)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rank", type=int)
    a = p.parse_args(argv)
    extra = {} if a.rank is None else {"rank": a.rank}
    train(a.run_dir, a.mode, a.reference, a.inject_from_step, a.module, a.steps, a.seed, **extra)
    return 0


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "..", "python"))
    sys.exit(main(sys.argv[1:]))

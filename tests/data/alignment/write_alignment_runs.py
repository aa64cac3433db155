#!/usr/bin/python3
"""Writes tests/data/alignment/: one tiny model run twice under two module trees, for the name
alignment's tests (docs/alignment.md).

Run A's module tree is model.embed, model.layers.N.{attn.q_proj, mlp.up, mlp.down}, model.norm
and lm_head; run B is the same computation after a refactor that renamed every module: embed,
layers.N.{attention.q, ffn.w1, ffn.w2}, norm and head. Each step's activations are saved by
torch.save as one dict per step (step_<N>.pt), in the order they were computed, so the order of
the keys in the file is the production order. Several activations share type and shape, so only
the order tells them apart.

    a/            run A's names
    b_same/       run B's names, the same values: bit for bit run A's
    b_perturbed/  run B's names; from step 1, the largest element of layers.1.ffn.w1's output
                  is 0.1 % larger, and everything computed after it differs with it
    b_inserted/   run B's names and b_perturbed's values, with one more buffer after the
                  embedding (extra.cast, f32 [2, 2]): every later buffer is one place further
    b_wrapped/    run A's names under a wrapping module ("module.", as DistributedDataParallel
                  names them) and b_perturbed's values, with one more buffer first
                  (module.loss_scale, f32 [4, 8], the type and shape of four others); its own
                  buffer, module.model.rotary.cache, has run B's shape: it pairs with nothing
    b_bf16/       run B's names, b_same's values rounded to bf16
    map.txt, map.json, map_bad_*.txt|json   name maps from run A's names to run B's

Each run also holds a buffer the other does not have (run A: model.rotary.cache, run B:
extra.scratch), of shapes nothing else has: left unpaired.

Run with Debian's interpreter, which has python3-torch:
    /usr/bin/python3 tests/data/alignment/write_alignment_runs.py
The output is committed, so the test suite needs no torch.
"""
import collections
import os
import shutil

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS, LAYERS, DIM, TOKENS = 3, 2, 8, 4

NAMES_A = {
    "embed": "model.embed.out",
    "q": "model.layers.{}.attn.q_proj.out",
    "up": "model.layers.{}.mlp.up.out",
    "down": "model.layers.{}.mlp.down.out",
    "norm": "model.norm.out",
    "head": "lm_head.out",
    "own": "model.rotary.cache",
}
NAMES_B = {
    "embed": "embed.out",
    "q": "layers.{}.attention.q.out",
    "up": "layers.{}.ffn.w1.out",
    "down": "layers.{}.ffn.w2.out",
    "norm": "norm.out",
    "head": "head.out",
    "own": "extra.scratch",
}


def run(names, perturb_from_step=None, first=None, after_embed=None):
    torch.manual_seed(0)
    embed = torch.randn(16, DIM)
    layers = [(torch.randn(DIM, DIM), torch.randn(DIM, 2 * DIM), torch.randn(2 * DIM, DIM))
              for _ in range(LAYERS)]
    head = torch.randn(DIM, 16)
    steps = []
    for step in range(STEPS):
        out = collections.OrderedDict()
        if first:
            out[first] = torch.full((TOKENS, DIM), 2.0)
        tokens = torch.arange(TOKENS) * (step + 1) % 16
        x = embed[tokens]
        out[names["embed"]] = x.clone()
        if after_embed:
            out[after_embed] = torch.eye(2)
        for i, (wq, wup, wdown) in enumerate(layers):
            q = x @ wq
            out[names["q"].format(i)] = q.clone()
            up = torch.relu(q @ wup)
            if perturb_from_step is not None and step >= perturb_from_step and i == 1:
                up.view(-1)[up.argmax()] *= 1.001  # its largest element, by 0.1 %
            out[names["up"].format(i)] = up.clone()
            x = x + (up @ wdown) * 0.01
            out[names["down"].format(i)] = x.clone()
        x = x / x.norm(dim=-1, keepdim=True)
        out[names["norm"]] = x.clone()
        out[names["head"]] = (x @ head).clone()
        if names["own"] == NAMES_A["own"]:
            out[names["own"]] = torch.ones(3, 3)
        else:
            out[names["own"]] = torch.zeros(5)
        steps.append(out)
    return steps


def write(name, steps):
    path = os.path.join(HERE, name)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    for step, tensors in enumerate(steps):
        torch.save(tensors, os.path.join(path, "step_{}.pt".format(step)))


def text(name, body):
    with open(os.path.join(HERE, name), "w") as f:
        f.write(body)


write("a", run(NAMES_A))
write("b_same", run(NAMES_B))
write("b_perturbed", run(NAMES_B, perturb_from_step=1))
write("b_inserted", run(NAMES_B, perturb_from_step=1, after_embed="extra.cast"))
write("b_bf16", [collections.OrderedDict((k, v.to(torch.bfloat16)) for k, v in step.items())
                 for step in run(NAMES_B)])
write("b_wrapped", run({k: "module." + v for k, v in NAMES_A.items()}, perturb_from_step=1,
                       first="module.loss_scale"))

text("map.txt", "# run A's name (a pattern)      run B's name\n"
     "^model\\.layers\\.(\\d+)\\.attn\\.q_proj\\.   layers.\\1.attention.q.\n"
     "^model\\.layers\\.(\\d+)\\.mlp\\.up\\.        layers.\\1.ffn.w1.\n"
     "^model\\.layers\\.(\\d+)\\.mlp\\.down\\.      layers.\\1.ffn.w2.\n"
     "^model\\.embed\\.out$                    embed.out\n"
     "^model\\.norm\\.                          norm.\n"
     "^lm_head\\.out$                          head.out\n")
text("map.json", '{"rules": [\n'
     '  ["^model\\\\.layers\\\\.(\\\\d+)\\\\.attn\\\\.q_proj\\\\.", "layers.\\\\1.attention.q."],\n'
     '  ["^model\\\\.layers\\\\.(\\\\d+)\\\\.mlp\\\\.up\\\\.", "layers.\\\\1.ffn.w1."],\n'
     '  ["^model\\\\.layers\\\\.(\\\\d+)\\\\.mlp\\\\.down\\\\.", "layers.\\\\1.ffn.w2."],\n'
     '  ["^model\\\\.embed\\\\.out$", "embed.out"],\n'
     '  ["^model\\\\.norm\\\\.", "norm."],\n'
     '  ["^lm_head\\\\.out$", "head.out"]\n'
     ']}\n')
# A pattern that is not a regular expression: line 3, column 1.
text("map_bad_regex.txt", "# bad\n^model\\.embed\\.out$  embed.out\n^model\\.layers\\.(\\d+\\.  x\n")
# A line of one column: line 2, column 18 (where the second column should start).
text("map_bad_columns.txt", "^lm_head\\.out$  head.out\n^model\\.norm\\.out\n")
# Two of run A's names to one of run B's: refused naming the rule at line 2, column 1.
text("map_bad_two_to_one.txt", "^model\\.norm\\.out$  head.out\n^lm_head\\.out$  head.out\n")
# Not JSON: line 2, column 16.
text("map_bad_json.json", '{"rules": [\n  ["^a$", "b"],,\n]}\n')

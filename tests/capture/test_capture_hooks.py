"""What the hooks do to the training (nothing) and what they see: a training loop with and
without the capture ends bit-identical, an in-place module cannot change what was recorded, no
autograd graph outlives its step, close() removes every hook; names of repeated calls and of
tuple and dict outputs; record(), paused() and keyword tensors."""

import gc
import unittest
import weakref

import torch
from torch import nn

from dumpscope_capture import Capture, fingerprint_hex
from support import TempDirTest, read_log
from tiny_model import train

LOG = "dumpscope-fingerprints.jsonl"


def step_of(path, i=0):
    return read_log(path)[1][i]


class TrainingUnchanged(TempDirTest):
    def test_parameters_bit_identical_in_every_mode(self):
        for optimizer in ("adam", "sgd"):
            plain = train(None, None, steps=4, optimizer=optimizer)
            ref = self.path(optimizer + "hash")
            for mode in ("hash", "full", "auto"):
                got = train(self.path(optimizer + mode), mode, steps=4, optimizer=optimizer,
                            reference=ref if mode == "auto" else None)
                self.assertEqual(plain.keys(), got.keys())
                for k in plain:  # bits, not values: -0.0 == 0.0 and NaN != NaN would hide one
                    self.assertTrue(torch.equal(plain[k].view(torch.int32),
                                                got[k].view(torch.int32)),
                                    "%s %s %s" % (optimizer, mode, k))


class Model(nn.Module):
    """A Linear read by an in-place ReLU; a module called twice; tuple and dict outputs."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.relu = nn.ReLU(inplace=True)
        self.shared = nn.Linear(4, 4)
        self.split = Split()
        self.named = Named()

    def forward(self, x):
        h = self.relu(self.lin(x))
        h = self.shared(self.shared(h))
        a, b = self.split(h)
        return self.named(a, b)["sum"]


class Split(nn.Module):
    def forward(self, h):
        return h[:, :2] * 1.0, h[:, 2:] * 1.0


class Named(nn.Module):
    def forward(self, a, b):
        return {"sum": a + b, "diff": a - b, "note": "not a tensor"}


class WhatTheHooksSee(TempDirTest):
    def run_model(self, mode="hash", **kw):
        torch.manual_seed(0)
        model = Model()
        x = torch.randn(3, 4)
        with Capture(self.path(mode), mode=mode, **kw) as cap:
            cap.watch(model)
            out = model(x)
            out.sum().backward()
            cap.step(0, total=out.sum().detach())
        return model, x, step_of(self.path(mode, LOG))

    def test_names_of_calls_tuples_and_dicts(self):
        _, _, step = self.run_model()
        forward = [b[0] for b in step["buffers"] if not b[0].endswith(".grad")]
        self.assertEqual(forward, ["lin", "relu", "shared", "shared#2", "split.0", "split.1",
                                   "named.sum", "named.diff", "Model", "total"])

    def test_an_in_place_module_does_not_change_what_was_recorded(self):
        model, x, step = self.run_model()
        at = {b[0]: (i, b) for i, b in enumerate(step["buffers"])}
        with torch.no_grad():
            before_relu = model.lin(x)
        self.assertTrue((before_relu < 0).any())  # the ReLU did change it in place
        # lin's parameters were not stepped: its recorded output is the pre-ReLU tensor.
        self.assertEqual(at["lin"][1][3], fingerprint_hex(before_relu))
        self.assertEqual(at["relu"][1][3], fingerprint_hex(before_relu.clamp(min=0)))
        self.assertEqual(at["relu"][1][4], [at["lin"][0]])  # read before it was overwritten
        self.assertEqual(at["shared"][1][4], [at["relu"][0]])
        self.assertEqual(at["shared#2"][1][4], [at["shared"][0]])
        self.assertEqual(at["named.sum"][1][4], [at["split.0"][0], at["split.1"][0]])
        self.assertEqual(at["split.0"][1][4], [at["shared#2"][0]])
        self.assertIsNone(at["total"][1][4])

    def test_a_tensor_changed_in_place_outside_any_module_is_no_known_input(self):
        lin, norm = nn.Linear(3, 3), nn.LayerNorm(3)
        with Capture(self.path("a"), mode="hash") as cap:
            cap.watch(lin, prefix="lin")
            cap.watch(norm, prefix="norm")
            h = lin(torch.ones(2, 3))
            norm(h)
            with torch.no_grad():
                h += 1.0  # the residual written in place: no longer the buffer captured
            norm(h)
            cap.step(0)
        at = {b[0]: b for b in step_of(self.path("a", LOG))["buffers"]}
        self.assertEqual(at["norm"][4], [0])
        self.assertIsNone(at["norm#2"][4])

    def test_inference_mode(self):
        lin, act = nn.Linear(3, 3), nn.Tanh()
        with Capture(self.path("a"), mode="hash") as cap:
            cap.watch(lin, prefix="lin")
            cap.watch(act, prefix="act")
            with torch.inference_mode():
                act(lin(torch.ones(2, 3)))
            cap.step(0)
        at = {b[0]: b for b in step_of(self.path("a", LOG))["buffers"]}
        self.assertEqual(at["act"][4], [0])

    def test_record_paused_and_full_copies_taken_at_hook_time(self):
        lin = nn.Linear(3, 3)
        x = torch.randn(2, 3)
        with Capture(self.path("a"), mode="full") as cap:
            cap.watch(lin, prefix="lin")
            cap.record("batch", x)
            out = lin(x)
            want = fingerprint_hex(out)
            with torch.no_grad():
                out.mul_(0)  # after the hook: neither the fingerprint nor the copy see it
            with cap.paused():
                lin(x)  # an evaluation pass: not captured
            cap.step(0)
        step = step_of(self.path("a", LOG))
        self.assertEqual([b[0] for b in step["buffers"]], ["batch", "lin"])
        self.assertEqual(step["buffers"][1][3], want)
        self.assertEqual(step["buffers"][1][4], [0])
        from support import read_safetensors, reference_fp
        tensors, _ = read_safetensors(self.path("a", "step_0.safetensors"))
        self.assertEqual(reference_fp(tensors[1][3]), want)


class NothingKept(TempDirTest):
    def test_no_graph_outlives_its_step_and_close_removes_the_hooks(self):
        torch.manual_seed(0)
        model = Model()
        cap = Capture(self.path("a"), mode="auto", reference=self._reference())
        cap.watch(model)
        outputs = []  # every module's output, weakly: the graph holds them while it lives
        mine = []
        for m in model.modules():
            mine.append(m.register_forward_hook(lambda _m, _i, o: outputs.extend(
                weakref.ref(t) for t in (o.values() if isinstance(o, dict) else
                                         o if isinstance(o, tuple) else [o])
                if isinstance(t, torch.Tensor))))
        out = model(torch.randn(3, 4))
        del out  # no backward: the graph dies with the output, as if the capture were not there
        gc.collect()
        self.assertEqual(len(outputs), 9)
        self.assertEqual([r for r in outputs if r() is not None], [])
        cap.step(0)  # the step is written from what the hooks took: fingerprints and copies
        for h in mine:
            h.remove()
        cap.close()
        for m in model.modules():
            self.assertEqual((len(m._forward_hooks), len(m._forward_pre_hooks)), (0, 0), m)
        for p in model.parameters():
            self.assertFalse(getattr(p, "_post_accumulate_grad_hooks", None))
        with open(self.path("a", LOG), "rb") as f:
            before = f.read()
        model(torch.randn(3, 4)).sum().backward()  # after close: nothing captured, nothing kept
        self.assertEqual(len(cap._records), 0)
        with open(self.path("a", LOG), "rb") as f:
            self.assertEqual(f.read(), before)

    def _reference(self):
        torch.manual_seed(0)
        model = Model()
        with Capture(self.path("ref"), mode="hash") as cap:
            cap.watch(model)
            model(torch.randn(3, 4))
            cap.step(0)
        return self.path("ref")

    def test_buffers_after_the_last_step_are_dropped_with_a_warning(self):
        lin = nn.Linear(2, 2)
        cap = Capture(self.path("a"), mode="hash")
        cap.watch(lin)
        lin(torch.ones(1, 2))
        with self.assertWarns(UserWarning):
            cap.close()
        self.assertEqual(read_log(self.path("a", LOG))[1], [])


if __name__ == "__main__":
    unittest.main()

"""The capture on real training loops (torch on the CPU): names and capture order, dataflow,
the full files against the log, each mode, the reference re-run at one step, and that the
hooks change nothing in the training and keep no graph alive."""

import os
import unittest

import torch
from torch import nn

from dumpscope_capture import Capture, CaptureError
from support import TempDirTest, read_log, read_safetensors, reference_fp, tensor_bytes
from tiny_model import TinyTransformer, train

LOG = "dumpscope-fingerprints.jsonl"


def names(step):
    return [b[0] for b in step["buffers"]]


def by_name(step):
    return {b[0]: (i, b) for i, b in enumerate(step["buffers"])}


class NamesOrderDataflow(TempDirTest):
    def setUp(self):
        super().setUp()
        train(self.path("a"), "hash", steps=2)
        self.step = read_log(self.path("a", LOG))[1][0]
        self.at = by_name(self.step)

    def test_forward_child_before_parent_then_grads_in_backward_order_then_keywords(self):
        n = names(self.step)
        self.assertEqual(n[0], "embed")
        for child, parent in [("layers.0.attn.q_proj", "layers.0.attn"),
                              ("layers.0.attn", "layers.0"), ("layers.0.mlp.down", "layers.0.mlp"),
                              ("layers.1", "TinyTransformer"), ("head", "TinyTransformer")]:
            self.assertLess(n.index(child), n.index(parent))
        first_grad = min(i for i, x in enumerate(n) if x.endswith(".grad"))
        self.assertEqual(n[first_grad - 1], "TinyTransformer")  # the root: the last forward
        grads = [x for x in n if x.endswith(".grad")]
        self.assertEqual(len(grads), sum(1 for _ in TinyTransformer().parameters()))
        # Backward produces the head's gradients first and the embedding's last: not the
        # parameters' registration order.
        self.assertLess(grads.index("head.weight.grad"), grads.index("layers.1.mlp.up.weight.grad"))
        self.assertLess(grads.index("layers.1.ln1.weight.grad"),
                        grads.index("layers.0.mlp.down.weight.grad"))
        self.assertEqual(grads[-1], "embed.weight.grad")
        self.assertEqual(n[-1], "loss")
        self.assertEqual(self.at["layers.0.attn.q_proj.weight.grad"][1][1:3], ["f32", [32, 32]])
        self.assertEqual(self.at["loss"][1][1:3], ["f32", []])

    def test_inputs_by_identity(self):
        ln1 = self.at["layers.0.ln1"][0]
        for proj in ("q_proj", "k_proj", "v_proj"):
            self.assertEqual(self.at["layers.0.attn." + proj][1][4], [ln1])
        self.assertEqual(self.at["layers.0.mlp.act"][1][4], [self.at["layers.0.mlp.up"][0]])
        self.assertEqual(self.at["head"][1][4], [self.at["norm"][0]])
        self.assertEqual(self.at["layers.1.ln1"][1][4], [self.at["layers.0"][0]])
        # Unknown: fed by something not captured (the embedding's tokens, a residual sum, the
        # attention's reshapes), or a module with children.
        for name in ("embed", "layers.0.ln1", "layers.0.ln2", "layers.0.attn.o_proj",
                     "layers.0.attn", "layers.0.mlp", "layers.0", "TinyTransformer",
                     "head.weight.grad", "loss"):
            self.assertIsNone(self.at[name][1][4], name)


class FullFiles(TempDirTest):
    def test_each_file_holds_the_logged_buffers_in_capture_order(self):
        train(self.path("a"), "full", steps=2)
        _, steps = read_log(self.path("a", LOG))
        self.assertEqual(sorted(os.listdir(self.path("a"))),
                         [LOG, "step_0.safetensors", "step_1.safetensors"])
        for step in steps:
            self.assertEqual(step["file"], "step_%d.safetensors" % step["step"])
            tensors, meta = read_safetensors(self.path("a", step["file"]))
            self.assertEqual(meta["dumpscope.step"], str(step["step"]))
            self.assertEqual([t[0] for t in tensors], names(step))
            for (name, dtype, shape, data), b in zip(tensors, step["buffers"]):
                self.assertEqual((dtype, shape), ("F32", b[2]), name)
                self.assertEqual(reference_fp(data), b[3], name)

    def test_every_element_type(self):
        class Many(nn.Module):
            def forward(self, x):
                out = {"f16": x.half(), "bf16": x.bfloat16(), "f64": x.double(),
                       "i8": x.to(torch.int8), "u8": x.to(torch.uint8), "i16": x.to(torch.int16),
                       "i32": x.int(), "i64": x.long(), "bool": x > 0,
                       "c64": torch.complex(x, -x), "c128": torch.complex(x.double(), x.double()),
                       "scalar": x.sum(), "empty": x[:0], "strided": x.t()[1:]}
                f8 = getattr(torch, "float8_e4m3fn", None)
                if f8 is not None:
                    out["f8"] = x.to(f8)
                return out

        x = torch.tensor([[1.5, -2.0, 0.0], [-0.0, 3.25, 7.0]])
        m = Many()
        with Capture(self.path("b"), mode="full") as cap:
            cap.watch(m, prefix="m")
            m(x)
            cap.step(0)
        _, (step,) = read_log(self.path("b", LOG))
        tensors, meta = read_safetensors(self.path("b", "step_0.safetensors"))
        got = {t[0]: t for t in tensors}
        want = {"m.f16": "F16", "m.bf16": "BF16", "m.f64": "F64", "m.i8": "I8", "m.u8": "U8",
                "m.i16": "I16", "m.i32": "I32", "m.i64": "I64", "m.bool": "BOOL",
                "m.c64": "F32", "m.c128": "F64", "m.scalar": "F32", "m.empty": "F32",
                "m.strided": "F32"}
        for name, st in want.items():
            self.assertEqual(got[name][1], st, name)
        self.assertEqual(got["m.c64"][2], [2, 3, 2])  # complex: (real, imaginary) pairs
        self.assertEqual(meta["dumpscope.torch_dtype.m.c64"], "complex64")
        self.assertEqual(got["m.scalar"][2], [])
        self.assertEqual(got["m.empty"][2], [0, 3])
        self.assertEqual(got["m.strided"][3], tensor_bytes(x.t()[1:]))
        self.assertEqual(got["m.c128"][3], tensor_bytes(torch.complex(x.double(), x.double())))
        for b in step["buffers"]:
            self.assertEqual(reference_fp(got[b[0]][3]), b[3], b[0])
            self.assertEqual(b[1:3], [{"F16": "f16", "BF16": "bf16", "F32": "f32", "F64": "f64",
                                       "I8": "i8", "U8": "u8", "I16": "i16", "I32": "i32",
                                       "I64": "i64", "BOOL": "bool",
                                       "F8_E4M3": "f8_e4m3"}[got[b[0]][1]], got[b[0]][2]])


class Modes(TempDirTest):
    def first_divergence(self, a, b):
        _, sa = read_log(self.path(a, LOG))
        _, sb = read_log(self.path(b, LOG))
        for x, y in zip(sa, sb):
            self.assertEqual(names(x), names(y))
            for bx, by in zip(x["buffers"], y["buffers"]):
                if bx[3] != by[3]:
                    return x["step"], bx[0]
        return None

    def test_injection_diverges_first_at_its_step_in_its_module(self):
        train(self.path("a"), "hash")
        train(self.path("b"), "hash", inject_from_step=3)
        self.assertEqual(self.first_divergence("a", "b"), (3, "layers.1.mlp"))
        train(self.path("c"), "hash", inject_from_step=2, module="layers.0.attn.v_proj")
        self.assertEqual(self.first_divergence("a", "c"), (2, "layers.0.attn.v_proj"))

    def test_same_fingerprints_in_every_mode(self):
        train(self.path("h"), "hash")
        train(self.path("f"), "full")
        train(self.path("x"), "auto", reference=self.path("h"))
        for run in ("f", "x"):
            self.assertIsNone(self.first_divergence("h", run))
        self.assertEqual(os.listdir(self.path("x")), [LOG])  # identical: no tensors

    def test_auto_writes_the_first_divergent_step(self):
        train(self.path("a"), "hash")
        train(self.path("b"), "auto", reference=self.path("a"), inject_from_step=3)
        _, steps = read_log(self.path("b", LOG))
        self.assertEqual([s["file"] for s in steps],
                         [None, None, None, "step_3.safetensors", None, None])
        self.assertEqual(sorted(os.listdir(self.path("b"))), [LOG, "step_3.safetensors"])
        tensors, _ = read_safetensors(self.path("b", "step_3.safetensors"))
        self.assertEqual([t[0] for t in tensors], names(steps[3]))
        for t, b in zip(tensors, steps[3]["buffers"]):
            self.assertEqual(reference_fp(t[3]), b[3])
        train(self.path("c"), "auto", reference=self.path("a"), inject_from_step=3,
              max_full_steps=None)
        self.assertEqual(sorted(f for f in os.listdir(self.path("c")) if f != LOG),
                         ["step_3.safetensors", "step_4.safetensors", "step_5.safetensors"])

    def test_the_reference_rerun_in_full_at_one_step(self):
        train(self.path("a"), "hash")
        train(self.path("a2"), "full", capture_steps={3})
        self.assertEqual(sorted(os.listdir(self.path("a2"))), [LOG, "step_3.safetensors"])
        self.assertIsNone(self.first_divergence("a", "a2"))
        _, steps = read_log(self.path("a2", LOG))
        self.assertEqual([s["file"] for s in steps],
                         [None] * 3 + ["step_3.safetensors"] + [None] * 2)
        tensors, _ = read_safetensors(self.path("a2", "step_3.safetensors"))
        for t, b in zip(tensors, steps[3]["buffers"]):
            self.assertEqual(reference_fp(t[3]), b[3])

    def test_steps_not_numbered_one_after_the_other(self):
        model = nn.Linear(3, 2)
        x = torch.ones(1, 3)
        with Capture(self.path("a"), mode="full", steps={20}) as cap:
            cap.watch(model)
            model(x)
            cap.step(0)
            model(x)
            with self.assertRaises(CaptureError) as e:
                cap.step(20)  # copies were kept for step 1
            self.assertIn("begin_step(20)", str(e.exception))
            cap.begin_step(30)
            model(x)
            cap.step(30)
        with Capture(self.path("b"), mode="full", steps={20}) as cap:
            cap.watch(model)
            model(x)
            cap.step(0)
            cap.begin_step(20)
            model(x)
            cap.step(20)
        self.assertTrue(os.path.exists(self.path("b", "step_20.safetensors")))


if __name__ == "__main__":
    unittest.main()

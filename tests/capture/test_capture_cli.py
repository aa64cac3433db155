"""End to end: the tiny transformer trained twice on the CPU, run B with an order-dependent sum
injected into one module's output from step K on, captured in each mode (and dumped by hand with
torch.save), then compared by the real dumpscope-cli (DUMPSCOPE_CLI). The verdict must name step
K and that module's output alone as the root, with everything after it downstream."""

import json
import os
import subprocess
import time
import unittest
from collections import OrderedDict

import torch

from support import TempDirTest
from tiny_model import TinyTransformer, batches, Injection, train

CLI = os.environ.get("DUMPSCOPE_CLI")
K = 3
STEPS = 5
MODULE = "layers.1.mlp.down"


def cli(*args):
    proc = subprocess.run([CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=120)
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode(
        "utf-8", "replace")


def verdict(a, b):
    """The exit code, the JSON report with a flat "buffers" list (each with its "step") added,
    and stderr."""
    code, out, err = cli(a, b, "--json")
    doc = json.loads(out)
    doc["buffers"] = [dict(buf, step=s["step"]) for s in doc["steps"] for g in s["groups"]
                      for buf in g["buffers"]]
    return code, doc, err


@unittest.skipUnless(CLI and os.path.exists(CLI), "DUMPSCOPE_CLI does not name the built CLI")
class RootInEveryMode(TempDirTest):
    """One training per run, shared by the tests: A and B in full and in hash, B in auto
    against A's log, and a second clean run in each mode for the identical pairs."""

    @classmethod
    def setUpClass(cls):
        import tempfile
        import shutil

        cls.dir = tempfile.mkdtemp(prefix="dumpscope-capture-cli-")
        cls.addClassCleanup(shutil.rmtree, cls.dir, True)
        p = lambda name: os.path.join(cls.dir, name)  # noqa: E731
        train(p("a_full"), "full", steps=STEPS)
        train(p("a_hash"), "hash", steps=STEPS)
        train(p("b_full"), "full", steps=STEPS, inject_from_step=K, module=MODULE)
        train(p("b_hash"), "hash", steps=STEPS, inject_from_step=K, module=MODULE)
        train(p("b_auto"), "auto", reference=p("a_hash"), steps=STEPS, inject_from_step=K,
              module=MODULE)
        train(p("c_hash"), "hash", steps=STEPS)
        train(p("c_auto"), "auto", reference=p("a_full"), steps=STEPS)
        cls.p = staticmethod(p)

    def assertRootIsTheModule(self, a, b):
        code, v, err = verdict(self.p(a), self.p(b))
        self.assertEqual(code, 1, err)
        self.assertEqual(v["terms"], "own")
        self.assertEqual(v["first_divergent_step"], K)
        rc = v["root_cause"]
        self.assertEqual(rc["step"], K)
        self.assertEqual(rc["buffers"], [MODULE], (a, b))
        self.assertNotIn(MODULE, rc["downstream"])
        # What the injected output feeds diverges after it: its parent, the head, the
        # gradients (a scalar loss may round the few ULP away).
        for later in ("layers.1.mlp", "layers.1", "head", "embed.weight.grad"):
            self.assertIn(later, rc["downstream"], (a, b))
        # Steps before K are equal in every buffer.
        for buf in v["buffers"]:
            if buf["step"] < K:
                self.assertEqual(buf["status"], "equal", (a, b, buf["name"], buf["step"]))
        return v

    def test_full_against_full(self):
        v = self.assertRootIsTheModule("a_full", "b_full")
        self.assertEqual(v["root_cause"]["order"], "capture_log")
        self.assertEqual(v["root_cause"]["kinds"], ["rounding"])

    def test_hash_against_hash(self):
        v = self.assertRootIsTheModule("a_hash", "b_hash")
        self.assertEqual(v["root_cause"]["kinds"], ["fingerprint_only"])

    def test_full_against_hash(self):
        self.assertRootIsTheModule("a_full", "b_hash")
        self.assertRootIsTheModule("b_hash", "a_full")

    def test_auto_holds_full_tensors_at_the_first_divergent_step_only(self):
        files = sorted(f for f in os.listdir(self.p("b_auto")) if f.endswith(".safetensors"))
        self.assertEqual(files, ["step_%d.safetensors" % K])
        v = self.assertRootIsTheModule("a_full", "b_auto")
        # With full tensors on both sides at step K the kind is read from the elements.
        self.assertEqual(v["root_cause"]["kinds"], ["rounding"])
        self.assertRootIsTheModule("a_hash", "b_auto")

    def test_identical_runs_are_identical_in_every_mode(self):
        self.assertEqual(
            [f for f in os.listdir(self.p("c_auto")) if f.endswith(".safetensors")], [])
        for a, b in [("a_full", "c_hash"), ("a_hash", "c_hash"), ("a_full", "c_auto"),
                     ("a_hash", "c_auto")]:
            code, v, err = verdict(self.p(a), self.p(b))
            self.assertEqual(code, 0, (a, b, err))
            self.assertIsNone(v["first_divergent_step"])
            code, out, _ = cli(self.p(a), self.p(b), "--quiet")
            self.assertEqual(code, 0)
            self.assertNotIn("DIVERGE", out)

    def test_a_root_fed_by_uncaptured_code_points_at_its_enclosing_module(self):
        # o_proj reads the attention's reshape, computed in layers.0.attn's own forward: no
        # hook saw it, so the note names that code as a place to look too.
        module = "layers.0.attn.o_proj"
        b = os.path.join(self.dir, "b_o_proj")
        train(b, "hash", steps=STEPS, inject_from_step=K, module=module)
        code, v, err = verdict(self.p("a_hash"), b)
        self.assertEqual(code, 1, err)
        self.assertEqual(v["root_cause"]["buffers"], [module])
        notes = [n for n in v["root_cause"]["notes"] if "did not see" in n]
        self.assertEqual(len(notes), 1, v["root_cause"]["notes"])
        self.assertIn("computed in layers.0.attn's own code", notes[0])
        # A root whose captured inputs are all equal needs no such note.
        code, v, _ = verdict(self.p("a_hash"), self.p("b_hash"))
        self.assertFalse([n for n in v["root_cause"]["notes"] if "did not see" in n])

    def test_the_quiet_verdict_fits_a_screen(self):
        code, out, _ = cli(self.p("a_hash"), self.p("b_hash"), "--quiet")
        self.assertEqual(code, 1)
        lines = out.splitlines()
        self.assertLessEqual(len(lines), 30, out)
        self.assertIn(MODULE, out)

    def test_a_log_cut_mid_line_is_refused_by_file_and_line(self):
        import shutil

        cut = os.path.join(self.dir, "cut")
        shutil.copytree(self.p("b_hash"), cut)
        log = os.path.join(cut, "dumpscope-fingerprints.jsonl")
        with open(log, "rb") as f:
            data = f.read()
        with open(log, "wb") as f:
            f.write(data[: len(data) - 40])
        code, _, err = cli(self.p("a_hash"), cut)
        self.assertEqual(code, 2)
        self.assertIn("dumpscope-fingerprints.jsonl", err)
        self.assertIn("line %d" % (STEPS + 1), err)


def train_dumping_by_hand(run_dir, per_tensor, inject_from_step=None, steps=STEPS):
    """The same training as tiny_model.train, dumped as a user writes it without the capture:
    forward hooks keep each module's output and the gradients are read after backward, in the
    order they were produced; then torch.save, a dict per step or one file per tensor."""
    torch.manual_seed(0)
    model = TinyTransformer()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    modules = dict(model.named_modules())
    injection = None
    if inject_from_step is not None:
        injection = Injection(inject_from_step, 0)
        modules[MODULE].register_forward_hook(injection)
    dumped = OrderedDict()

    def keep(name):
        def hook(_m, _args, out):
            dumped[name] = out.detach().clone()
        return hook

    for name, m in modules.items():
        if name:
            m.register_forward_hook(keep(name))
    grad_order = []
    for name, p in model.named_parameters():
        p.register_hook(lambda g, name=name: grad_order.append(name))
    for step, batch in enumerate(batches(0, steps)):
        if injection is not None:
            injection.step = step
        dumped.clear()
        grad_order.clear()
        opt.zero_grad()
        logits = model(batch[:, :-1])
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]),
                                                 batch[:, 1:].reshape(-1))
        loss.backward()
        params = dict(model.named_parameters())
        for name in grad_order:
            dumped[name + ".grad"] = params[name].grad.detach().clone()
        opt.step()
        if per_tensor:
            folder = os.path.join(run_dir, "step_%d" % step)
            os.makedirs(folder)
            for name, t in dumped.items():
                torch.save(t, os.path.join(folder, name + ".pt"))
                # A real model's kernels separate the writes; this tiny one writes faster than
                # the file system's clock ticks, and names would order a tie.
                time.sleep(0.003)
        else:
            os.makedirs(run_dir, exist_ok=True)
            torch.save(dict(dumped), os.path.join(run_dir, "step_%d.pt" % step))


@unittest.skipUnless(CLI and os.path.exists(CLI), "DUMPSCOPE_CLI does not name the built CLI")
class RootOfHandDumps(TempDirTest):
    def check(self, per_tensor):
        train_dumping_by_hand(self.path("a"), per_tensor)
        train_dumping_by_hand(self.path("b"), per_tensor, inject_from_step=K)
        code, v, err = verdict(self.path("a"), self.path("b"))
        self.assertEqual(code, 1, err)
        self.assertEqual(v["first_divergent_step"], K)
        self.assertEqual(v["root_cause"]["buffers"], [MODULE])
        self.assertIn("layers.1.mlp", v["root_cause"]["downstream"])
        return v

    def test_a_dict_per_step(self):
        v = self.check(per_tensor=False)
        self.assertEqual(v["root_cause"]["order"], "file_keys")

    def test_one_file_per_tensor_in_step_folders(self):
        # Written one after another: their modification times order them (names within a
        # tick), not their names, which would put a gradient of blocks.0 first.
        v = self.check(per_tensor=True)
        self.assertEqual(v["root_cause"]["order"], "mtime")


if __name__ == "__main__":
    unittest.main()


def odd_tensors(flip_nan_payload=False):
    """A tensor of every element type the capture writes, views among them, NaN payloads, ±0."""
    g = torch.Generator().manual_seed(7)
    base = torch.randn(6, 10, generator=g)
    nan = torch.tensor([float("nan"), 0.0, -0.0, float("inf"), -float("inf"), 1.5])
    bits = nan.view(torch.int32).clone()
    bits[0] = 0x7FC00001 if flip_nan_payload else 0x7FC00000  # two NaNs of other payloads
    specials = bits.view(torch.float32)
    out = [("f32", base), ("f64", base.double()), ("f16", base.half()),
           ("bf16", base.bfloat16()), ("i8", (base * 20).to(torch.int8)),
           ("u8", (base.abs() * 20).to(torch.uint8)), ("i16", (base * 300).to(torch.int16)),
           ("i32", (base * 1e5).to(torch.int32)), ("i64", (base * 1e9).to(torch.int64)),
           ("bool", base > 0), ("c64", torch.complex(base, -base)),
           ("c128", torch.complex(base.double(), base.double() * 2)),
           ("transposed", base.t()), ("sliced", base[1:5, 2:9:3]), ("offset", base[3]),
           ("scalar", base[2, 2]), ("empty", base[:0]), ("specials", specials),
           ("specials.f16", specials.half()), ("odd_length", torch.arange(7, dtype=torch.int8))]
    return out


def capture_tensors(run, mode, tensors):
    from dumpscope_capture import Capture

    with Capture(run, mode=mode) as cap:
        for name, t in tensors:
            cap.record(name, t)
        cap.step(0)


@unittest.skipUnless(CLI and os.path.exists(CLI), "DUMPSCOPE_CLI does not name the built CLI")
class FingerprintsAgreeAcrossLanguages(TempDirTest):
    """Run A in full (dumpscope computes each fingerprint in C++ from the file's bytes) against
    run B in hash (torch computed them on its device): equal exactly when the bytes are."""

    def test_every_element_type_view_and_special_value(self):
        capture_tensors(self.path("a"), "full", odd_tensors())
        capture_tensors(self.path("b"), "hash", odd_tensors())
        code, v, err = verdict(self.path("a"), self.path("b"))
        self.assertEqual(code, 0, err + json.dumps(v["buffers"], indent=1)[:3000])
        self.assertEqual(len(v["buffers"]), len(odd_tensors()))
        for buf in v["buffers"]:
            self.assertEqual(buf["status"], "equal", buf)

    def test_one_nan_payload_differs(self):
        capture_tensors(self.path("a"), "full", odd_tensors())
        capture_tensors(self.path("b"), "hash", odd_tensors(flip_nan_payload=True))
        code, v, err = verdict(self.path("a"), self.path("b"))
        self.assertEqual(code, 1, err)
        differing = sorted(b["name"] for b in v["buffers"] if b["status"] != "equal")
        # The f16 copy of a NaN is a NaN whatever its f32 payload: only the f32 one differs.
        self.assertEqual(differing, ["specials"])
        self.assertEqual(v["root_cause"]["buffers"], ["specials"])

"""The files a capture writes and the errors it gives: the log's lines, ranks, a directory that
already holds a capture, steps numbered wrong, and every way a reference can be bad."""

import os
import unittest

import torch

from dumpscope_capture import Capture, CaptureError, LogError, LogReader
from support import TempDirTest, read_log
from tiny_model import train

LOG = "dumpscope-fingerprints.jsonl"


def small_model():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Tanh(), torch.nn.Linear(3, 2))


def one_step(model, cap, step):
    loss = model(torch.ones(2, 4)).square().sum()
    loss.backward()
    cap.step(step, loss=loss)


class LogLines(TempDirTest):
    def test_header_and_one_whole_line_per_step(self):
        train(self.path("a"), "hash", steps=3)
        with open(self.path("a", LOG), "rb") as f:
            raw = f.read()
        self.assertTrue(raw.endswith(b"\n"))
        header, steps = read_log(self.path("a", LOG))
        self.assertEqual(header["format"], "dumpscope-fingerprints")
        self.assertEqual((header["version"], header["fingerprint"]), (1, "dsfp1"))
        self.assertEqual((header["mode"], header["rank"]), ("hash", None))
        self.assertTrue(header["writer"].startswith("dumpscope_capture 1 torch "))
        self.assertEqual([s["step"] for s in steps], [0, 1, 2])
        self.assertTrue(all(s["file"] is None for s in steps))
        self.assertEqual(os.listdir(self.path("a")), [LOG])  # hash: the log alone
        reader = LogReader(self.path("a", LOG))  # the package's reader accepts its own log
        self.assertEqual(sorted(reader.steps), [0, 1, 2])

    def test_rank_goes_under_its_folder_and_in_the_header(self):
        train(self.path("a"), "hash", steps=2, rank=1)
        self.assertEqual(os.listdir(self.path("a")), ["rank1"])
        header, _ = read_log(self.path("a", "rank1", LOG))
        self.assertEqual(header["rank"], 1)
        # auto with the same rank reads the reference's rank1/.
        train(self.path("b"), "auto", reference=self.path("a"), steps=2, rank=1)
        _, steps = read_log(self.path("b", "rank1", LOG))
        self.assertEqual(len(steps), 2)


class Refusals(TempDirTest):
    def test_a_directory_with_a_capture_is_refused_unless_overwrite(self):
        train(self.path("a"), "full", steps=2)
        with self.assertRaises(CaptureError) as e:
            Capture(self.path("a"), mode="hash")
        self.assertIn(self.path("a", LOG), str(e.exception))
        self.assertIn("overwrite=True", str(e.exception))
        os.unlink(self.path("a", LOG))  # step files alone are a capture too
        with self.assertRaises(CaptureError) as e:
            Capture(self.path("a"), mode="hash")
        self.assertIn("step_0.safetensors", str(e.exception))
        train(self.path("a"), "hash", steps=1, overwrite=True)
        self.assertEqual(os.listdir(self.path("a")), [LOG])  # the old step files are gone

    def test_a_step_written_twice_or_backwards(self):
        model = small_model()
        with Capture(self.path("a"), mode="hash") as cap:
            cap.watch(model)
            one_step(model, cap, 3)
            with self.assertRaises(LogError) as e:
                one_step(model, cap, 3)
            self.assertIn(self.path("a", LOG) + ":2:", str(e.exception))
            self.assertIn("step 3 was already written", str(e.exception))
            one_step(model, cap, 4)
            with self.assertRaises(LogError) as e:
                one_step(model, cap, 2)
            self.assertIn(self.path("a", LOG) + ":3:", str(e.exception))
            self.assertIn("step 2 after step 4", str(e.exception))
            one_step(model, cap, 5)  # the refused steps left nothing behind
        _, steps = read_log(self.path("a", LOG))
        self.assertEqual([s["step"] for s in steps], [3, 4, 5])
        self.assertEqual(len(steps[2]["buffers"]), len(steps[0]["buffers"]))

    def test_bad_arguments(self):
        with self.assertRaises(ValueError):
            Capture(self.path("a"), mode="fast")
        with self.assertRaises(ValueError):
            Capture(self.path("a"), mode="auto")  # no reference
        with self.assertRaises(ValueError):
            Capture(self.path("a"), mode="hash", steps={1})
        with Capture(self.path("a"), mode="hash") as cap:
            with self.assertRaises(TypeError):
                cap.step(0, loss=1.5)
            model = small_model()
            cap.watch(model)
            with self.assertRaises(ValueError):
                cap.watch(model)
        with self.assertRaises(CaptureError):
            cap.step(1)  # closed


class BadReferences(TempDirTest):
    def reference(self, text):
        os.makedirs(self.path("ref"))
        with open(self.path("ref", LOG), "wb") as f:
            f.write(text)
        return self.path("ref")

    def assertRefused(self, ref, line, words):
        with self.assertRaises(LogError) as e:
            train(self.path("b"), "auto", reference=ref, steps=3)
        msg = str(e.exception)
        where = ref if ref.endswith(".jsonl") else os.path.join(ref, LOG)
        self.assertIn(where + (":%d:" % line if line else ":"), msg)
        for w in words:
            self.assertIn(w, msg)
        return msg

    def test_missing(self):
        self.assertRefused(self.path("nowhere"), 0, ["no fingerprint log"])
        self.assertFalse(os.path.exists(self.path("b")))  # refused before writing anything

    def test_missing_rank(self):
        train(self.path("a"), "hash", steps=1, rank=0)
        self.assertRefused(self.path("a"), 0, ["has ranks", "rank0", "rank="])

    def test_cut_mid_line(self):
        train(self.path("a"), "hash", steps=3)
        with open(self.path("a", LOG), "rb") as f:
            raw = f.read()
        ref = self.reference(raw[: len(raw) - 40])
        self.assertRefused(ref, 4, ["cut short"])

    def test_not_json(self):
        train(self.path("a"), "hash", steps=3)
        with open(self.path("a", LOG), "rb") as f:
            lines = f.read().split(b"\n")
        lines[2] = b'{"step":1,"file":null,"buffers":[oops'
        self.assertRefused(self.reference(b"\n".join(lines)), 3, ["not a JSON line"])

    def test_not_a_log(self):
        self.assertRefused(self.reference(b'{"format":"something else"}\n'), 1,
                           ["not a dumpscope-fingerprints version 1 header"])
        os.unlink(self.path("ref", LOG))
        with open(self.path("ref", LOG), "wb"):
            pass
        self.assertRefused(self.path("ref"), 1, ["empty"])

    def test_a_bad_fingerprint_or_input(self):
        train(self.path("a"), "hash", steps=2)
        with open(self.path("a", LOG), "rb") as f:
            raw = f.read()
        first = raw.index(b'"embed","f32",[4,16,32],"') + len(b'"embed","f32",[4,16,32],"')
        bad = raw[:first] + b"XYZ" + raw[first + 3 :]
        self.assertRefused(self.reference(bad), 2, ["embed", "not 16 lowercase hex digits"])

    def test_another_model(self):
        train(self.path("a"), "hash", steps=3)
        with open(self.path("a", LOG), "rb") as f:
            raw = f.read()
        ref = self.reference(raw.replace(b'"layers.1.mlp.up"', b'"layers.1.mlp.gate"'))
        self.assertRefused(ref, 2, ["step 0, buffer", "'layers.1.mlp.gate'",
                                    "'layers.1.mlp.up'", "another model"])

    def test_a_reference_with_fewer_buffers(self):
        train(self.path("a"), "hash", steps=2, rank=None)
        torch.manual_seed(0)
        model = small_model()
        with self.assertRaises(LogError) as e:
            with Capture(self.path("b"), mode="auto", reference=self.path("a")) as cap:
                cap.watch(model)
                one_step(model, cap, 0)
        self.assertIn("another model", str(e.exception))

    def test_a_reference_given_as_its_log_file(self):
        train(self.path("a"), "hash", steps=2)
        train(self.path("b"), "auto", reference=self.path("a", LOG), steps=2)
        self.assertEqual(len(read_log(self.path("b", LOG))[1]), 2)


if __name__ == "__main__":
    unittest.main()

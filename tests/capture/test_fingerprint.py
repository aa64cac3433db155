"""The torch fingerprint against the spec's test vectors and a pure-Python reference, over every
element type this torch has, views, offsets, 0-d and empty tensors, NaN payloads and ±0."""

import os
import struct
import unittest
import warnings

import torch

from dumpscope_capture import fingerprint, fingerprint_hex
from dumpscope_capture.dtypes import NAMES, file_view, names_of
from support import ROOT, reference_fp, tensor_bytes

# The spec's table: (bytes, fp). Each fp is also looked for in the spec's text below, so the
# page and this test cannot drift apart.
VECTORS = [
    (b"", "e220a8397b1dcdaf"),
    (b"\x00", "7c6ede0099d1dac1"),
    (b"\x01", "cdd66b81babc6412"),
    (b"\x00" * 8, "3ad33b002d190fde"),
    (struct.pack("<3f", 1.0, 2.0, 3.0), "f1448d0b1b7c9725"),
    (struct.pack("<3f", 2.0, 1.0, 3.0), "4feb7b2c565c12c5"),
    (struct.pack("<f", 0.0), "1e6873c009ddf61b"),
    (struct.pack("<f", -0.0), "30df2f8fee6954f7"),
    (bytes(range(256)), "5e57f44cebd0dfd9"),
]


def u8(data):
    return torch.tensor(list(data), dtype=torch.uint8)


def random_tensor(dtype, shape, seed):
    """Random bytes seen as dtype: every bit pattern, NaN payloads and subnormals included."""
    g = torch.Generator().manual_seed(seed)
    itemsize = torch.empty((), dtype=dtype).element_size()
    n = 1
    for d in shape:
        n *= d
    raw = torch.randint(0, 256, (max(n, 1) * itemsize,), dtype=torch.uint8, generator=g)
    if dtype == torch.bool:
        raw = raw & 1
    return raw.view(dtype)[:n].reshape(shape)


# complex32 is "experimental" in torch: its warning says nothing about the fingerprint.
warnings.filterwarnings("ignore", message="ComplexHalf support is experimental")


def all_dtypes():
    out = list(NAMES)
    for name in ("complex32", "complex64", "complex128", "float8_e4m3fnuz", "float8_e5m2fnuz"):
        dt = getattr(torch, name, None)
        if isinstance(dt, torch.dtype):
            out.append(dt)
    return out


class SpecVectors(unittest.TestCase):
    def test_the_spec_lists_every_vector(self):
        with open(os.path.join(ROOT, "docs", "reference", "fingerprint.md"), encoding="utf-8") as f:
            text = f.read()
        for _, fp in VECTORS:
            self.assertIn("`%s`" % fp, text)

    def test_reference_implementation_gives_the_vectors(self):
        for data, fp in VECTORS:
            self.assertEqual(reference_fp(data), fp, data)

    def test_torch_gives_the_vectors(self):
        for data, fp in VECTORS:
            self.assertEqual(fingerprint_hex(u8(data)), fp, data)
        self.assertEqual(fingerprint_hex(torch.tensor([1.0, 2.0, 3.0])), "f1448d0b1b7c9725")
        self.assertEqual(fingerprint_hex(torch.tensor([-0.0])), "30df2f8fee6954f7")
        self.assertEqual(fingerprint_hex(torch.tensor(0.0)), "1e6873c009ddf61b")  # 0-d
        self.assertEqual(fingerprint_hex(torch.empty(0, 5)), "e220a8397b1dcdaf")


class AgainstReference(unittest.TestCase):
    def check(self, t, **kw):
        self.assertEqual(fingerprint_hex(t, **kw), reference_fp(tensor_bytes(t)),
                         "%s %s %s" % (t.dtype, tuple(t.shape), t.stride()))

    def test_every_dtype_and_odd_lengths(self):
        for dtype in all_dtypes():
            for i, shape in enumerate([(), (0,), (1,), (3,), (5, 3), (7, 11), (2, 3, 4)]):
                with self.subTest(dtype=dtype, shape=shape):
                    self.check(random_tensor(dtype, shape, seed=i))

    def test_views_offsets_and_chunks(self):
        base = random_tensor(torch.float32, (12, 10, 6), seed=7)
        views = [
            base[1:],                   # a storage offset
            base[:, 3:7],               # rows with gaps
            base.transpose(0, 2),       # no unit stride
            base[::2, ::3, 1::2],       # steps
            base[5, :, 2],              # 1-d, stride 6
            base[0, 0, 1:4],            # a storage offset not a multiple of 8 bytes
            base[0, :1, 0:1],           # one element with a large stride
            base[0].unsqueeze(0).expand(3, 10, 6),  # stride 0
        ]
        for i, v in enumerate(views):
            for chunk in (1 << 20, 64, 24, 8, 1):
                with self.subTest(view=i, chunk=chunk):
                    self.check(v, chunk_bytes=chunk)
        for dtype in (torch.float16, torch.int8, torch.bool, torch.float64):
            t = random_tensor(dtype, (9, 7, 5), seed=3).permute(2, 0, 1)[1:]
            for chunk in (1 << 20, 40, 3):
                with self.subTest(dtype=dtype, chunk=chunk):
                    self.check(t, chunk_bytes=chunk)

    def test_a_larger_tensor_in_small_chunks(self):
        t = random_tensor(torch.float32, (97, 131), seed=11)
        want = reference_fp(tensor_bytes(t))
        for chunk in (4096, 1000, 7):
            self.assertEqual(fingerprint_hex(t, chunk_bytes=chunk), want)
            self.assertEqual(fingerprint_hex(t.t(), chunk_bytes=chunk),
                             reference_fp(tensor_bytes(t.t())))


class Exactness(unittest.TestCase):
    def test_nan_payloads_and_signed_zeros_differ(self):
        bits = torch.tensor([0x7FC00000, 0x7FC00001, 0xFFC00000, 0x7F800001], dtype=torch.int64)
        nans = [bits[i : i + 1].to(torch.int32).view(torch.float32) for i in range(4)]
        self.assertTrue(all(torch.isnan(n).all() for n in nans))
        fps = {fingerprint_hex(n) for n in nans}
        self.assertEqual(len(fps), 4)
        self.assertNotEqual(fingerprint_hex(torch.tensor([0.0, 1.0])),
                            fingerprint_hex(torch.tensor([-0.0, 1.0])))
        self.assertNotEqual(fingerprint_hex(torch.tensor([0.0], dtype=torch.bfloat16)),
                            fingerprint_hex(torch.tensor([-0.0], dtype=torch.bfloat16)))

    def test_a_permutation_changes_it(self):
        t = torch.arange(16, dtype=torch.float32)
        swapped = t.clone()
        swapped[[3, 9]] = swapped[[9, 3]]
        self.assertNotEqual(fingerprint_hex(t), fingerprint_hex(swapped))
        words = torch.arange(8, dtype=torch.int64)
        self.assertNotEqual(fingerprint_hex(words), fingerprint_hex(words.flip(0)))

    def test_one_bit_anywhere_changes_it(self):
        t = random_tensor(torch.float32, (33,), seed=5)
        base = fingerprint_hex(t)
        raw = t.view(torch.int32)
        for i in range(0, 33, 4):
            for bit in (0, 17, 31):
                flipped = raw.clone()
                flipped[i] ^= (1 << bit) if bit < 31 else -(1 << 31)
                self.assertNotEqual(fingerprint_hex(flipped.view(torch.float32)), base, (i, bit))

    def test_it_stays_on_the_device_and_modifies_nothing(self):
        t = torch.randn(6, 5, requires_grad=True)
        before = tensor_bytes(t)
        fp = fingerprint(t)
        self.assertEqual((fp.dtype, fp.shape, fp.device), (torch.int64, torch.Size([]), t.device))
        self.assertFalse(fp.requires_grad)
        self.assertEqual(tensor_bytes(t), before)
        self.assertEqual(t._version, 0)


class WrittenTypes(unittest.TestCase):
    def test_complex_is_written_as_real_pairs(self):
        c = torch.randn(3, 4, dtype=torch.complex64)
        v = file_view(c)
        self.assertEqual((v.dtype, tuple(v.shape)), (torch.float32, (3, 4, 2)))
        self.assertEqual(names_of(v), ("F32", "f32"))
        self.assertEqual(fingerprint_hex(c), reference_fp(tensor_bytes(c)))

    def test_known_types_keep_their_names(self):
        bf16 = torch.zeros(2, dtype=torch.bfloat16)
        self.assertEqual(names_of(file_view(bf16)), ("BF16", "bf16"))
        self.assertEqual(names_of(file_view(torch.zeros(2, dtype=torch.bool))), ("BOOL", "bool"))
        f8 = getattr(torch, "float8_e4m3fn", None)
        if f8 is not None:
            self.assertEqual(names_of(file_view(torch.zeros(2, dtype=f8))), ("F8_E4M3", "f8_e4m3"))


if __name__ == "__main__":
    unittest.main()
